import type { IncidentSendReport, Language } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { dispatchTemplatedMail, sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { activeMembers, refuse, type FieldErrors } from './checks.js';
import { ENTITY, type AfterCommit } from './create.js';
import { incidentPath, mailMember, organizationLink, type IncidentsDeps } from './notify.js';
import { renderIncidentPdf } from './pdf.js';
import { incidentContext, requireAbility } from './record.js';
import { incidentReportSends, incidents } from './tables.js';
import { incidentView } from './view.js';

/**
 * POST /api/incidents/{id}/send_report (step 7, communicate): the lead or an Incident update holder,
 * once the investigation is approved (or the incident needs none, or is closed). The PDF is rendered
 * once, in the sender's language, kept as a file of the incident (the record of what was sent), and
 * attached to a mail to each recipient: members in their own language (and in the app), other
 * addresses in the sender's.
 */
export async function sendIncidentReport(
  tx: Tx,
  deps: IncidentsDeps,
  actor: Principal,
  id: string,
  body: IncidentSendReport,
  lang: Language,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await incidentContext(tx, actor, id, true);
  requireAbility(ctx, 'send_report');
  const o = ctx.row;
  const fields: FieldErrors = {};
  const members = await activeMembers(tx, body.user_ids);
  if (body.user_ids.some((u) => !members.has(u))) fields['user_ids'] = 'incidents.validation.recipientUnknown';
  refuse(fields);

  const view = await incidentView(tx, actor, o.id);
  const pdf = await renderIncidentPdf(view, lang, now);
  const file = await deps.storage.store(tx, { purpose: 'attachment', fileName: pdf.fileName, bytes: pdf.bytes, uploadedBy: actor.userId });
  const memberEmails = [...members.values()].map((m) => m.email.toLowerCase());
  // An address that is a member's is mailed as that member (their language, their notification).
  const others = body.emails.filter((e) => !memberEmails.includes(e));
  const recipients = [...[...members.values()].map((m) => m.email), ...others];
  await tx.insert(incidentReportSends).values({ incidentId: o.id, fileId: file.id, recipients, sentBy: actor.userId });

  const message = body.message ?? '';
  const mail: QueuedTemplatedMail[] = [];
  for (const m of members.values()) {
    const queued = await mailMember(tx, deps, 'incident_report_sent', m.id, o, () => ({ sender_name: actor.fullName, message }), [file.id]);
    if (queued) mail.push(queued);
  }
  const link = await organizationLink(tx, deps, incidentPath(o.id));
  for (const to of others) {
    mail.push(
      await sendTemplatedMail(tx, deps, {
        scenario: 'incident_report_sent',
        to,
        language: lang,
        variables: { incident_id: view.serial_label, sender_name: actor.fullName, message, incident_link: link },
        attachmentFileIds: [file.id],
      }),
    );
  }
  await tx.update(incidents).set({ updatedAt: now }).where(eq(incidents.id, o.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'incident_report_sent',
    entity: ENTITY,
    entityId: o.id,
    changes: {
      diff: { report_sent: { from: null, to: recipients } },
      file_id: file.id,
    },
  });
  return async () => {
    deps.push.toOrganization(o.organizationId, { channel: 'incidents', change: 'updated', id: o.id });
    if (mail.length > 0) await dispatchTemplatedMail(deps, mail);
  };
}

import { auditPath, isAuditFinished, type AuditSendReport, type Language } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { dispatchTemplatedMail, sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import {
  activeMembers,
  announce,
  AUDIT_ENTITY,
  mailAboutAudit,
  organizationLink,
  refuse,
  type AfterCommit,
  type AuditsDeps,
} from './common.js';
import { renderAuditPdf } from './pdf.js';
import { auditContext } from './record.js';
import { auditReport } from './report.js';
import { auditFiles, auditReportSends, audits } from './tables.js';

/**
 * POST /api/v2/audits/{id}/send_report (the e-mailed report): the auditor or an Audit update holder,
 * once the audit is completed. The PDF is rendered once in the sender's language, kept as a file of the
 * audit (the record of what was sent), and attached to a mail to each recipient: members in their own
 * language (and in the app), other addresses in the sender's.
 */
export async function sendAuditReport(
  tx: Tx,
  deps: AuditsDeps,
  actor: Principal,
  id: string,
  body: AuditSendReport,
  lang: Language,
  now = new Date(),
): Promise<AfterCommit> {
  const ctx = await auditContext(tx, actor, id, true);
  const a = ctx.row;
  if (!isAuditFinished(a.status)) throw new AppError('conflict', { messageKey: 'audits.validation.notFinished' });
  if (!ctx.abilities.send_report) throw new AppError('forbidden');
  const members = await activeMembers(tx, body.user_ids);
  if (body.user_ids.some((u) => !members.has(u))) refuse({ user_ids: 'audits.validation.recipientUnknown' });

  const report = await auditReport(tx, actor, id, lang, now);
  const pdf = await renderAuditPdf(tx, deps, report, lang);
  const file = await deps.storage.store(tx, { purpose: 'attachment', fileName: pdf.fileName, bytes: pdf.bytes, uploadedBy: actor.userId });
  await tx.insert(auditFiles).values({ auditId: a.id, fileId: file.id, kind: 'report' });
  const memberEmails = [...members.values()].map((m) => m.email.toLowerCase());
  // An address that is a member's is mailed as that member (their language, their notification).
  const others = body.emails.filter((e) => !memberEmails.includes(e));
  const recipients = [...[...members.values()].map((m) => m.email), ...others];
  await tx.insert(auditReportSends).values({ auditId: a.id, fileId: file.id, recipients, sentBy: actor.userId, sentAt: now });

  const title = `${report.audit.serial_label} ${report.audit.template.name}`;
  const message = body.message ?? '';
  const mail: QueuedTemplatedMail[] = [];
  for (const m of members.values()) {
    const queued = await mailAboutAudit(
      tx,
      deps,
      'audit_report_sent',
      m.id,
      a,
      () => ({ audit_title: title, sender_name: actor.fullName, message }),
      [file.id],
    );
    if (queued) mail.push(queued);
  }
  const link = await organizationLink(tx, deps, auditPath(a.id));
  for (const to of others)
    mail.push(
      await sendTemplatedMail(tx, deps, {
        scenario: 'audit_report_sent',
        to,
        language: lang,
        variables: { audit_title: title, sender_name: actor.fullName, message, audit_link: link },
        attachmentFileIds: [file.id],
      }),
    );
  await tx.update(audits).set({ updatedAt: now }).where(eq(audits.id, a.id));
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_report_sent',
    entity: AUDIT_ENTITY,
    entityId: a.id,
    changes: { recipients, comment: recipients.join(', ') },
  });
  return async () => {
    announce(deps, actor.organizationId, a.id);
    if (mail.length) await dispatchTemplatedMail(deps, mail);
  };
}

import { localDateTimeToInstant, type IncidentCreate, type IncidentGuest, type IncidentSource, type Victim } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { dispatchTemplatedMail } from '../mailers/send.js';
import { checkCategory, checkFiles, checkNode, checkNotFuture, checkSite, refuse, toPgTimestamp, type FieldErrors } from './checks.js';
import { tellHeadOfSafety, type IncidentsDeps } from './notify.js';
import { incidentAttachments, incidents, incidentSerials } from './tables.js';
import { writeVictims } from './victims.js';

export type AfterCommit = () => Promise<void>;

export const ENTITY = 'Incident';

/** The next serial of the organisation; the upsert locks its counter row until the transaction ends. */
async function nextSerial(tx: Tx): Promise<number> {
  const [row] = await tx
    .insert(incidentSerials)
    .values({ lastSerial: 1 })
    .onConflictDoUpdate({ target: incidentSerials.organizationId, set: { lastSerial: sql`${incidentSerials.lastSerial} + 1` } })
    .returning({ serial: incidentSerials.lastSerial });
  return row!.serial;
}

type NewIncident = {
  source: IncidentSource;
  /** The signed-in reporter (a member or a signed-in guest), null for the public guest form. */
  actor: Principal | null;
  values: Omit<IncidentCreate, 'victims' | 'attachment_ids'> & { reporter_name?: string | null; reporter_email?: string | null };
  victims: Victim[];
  attachmentIds: readonly string[];
  now?: Date;
};

/**
 * Writes a new incident (step 1) with its victims and attachments in the caller's transaction, after
 * checking every reference; refuses the lot with field errors. The site's head of safety is told, in
 * the app and by mail, and the incidents channel hears of it after the commit.
 */
export async function insertIncident(
  tx: Tx,
  deps: IncidentsDeps,
  n: NewIncident,
): Promise<{ id: string; serial: number; afterCommit: AfterCommit }> {
  const v = n.values;
  const now = n.now ?? new Date();
  const fields: FieldErrors = {};
  const site = await checkSite(tx, v.site_id, fields);
  if (site) {
    await checkNode(tx, site.id, v.site_node_id, fields);
    checkNotFuture(v.occurred_at, site.timeZone, 'occurred_at', fields, now, 'incidents.validation.futureTime');
  }
  await checkCategory(tx, v.type, v.category_id, fields);
  await checkFiles(tx, n.attachmentIds, n.actor?.userId ?? null, 'attachment_ids', fields);
  refuse(fields);

  const [row] = await tx
    .insert(incidents)
    .values({
      serial: await nextSerial(tx),
      type: v.type,
      categoryId: v.category_id,
      description: v.description,
      siteId: site!.id,
      siteNodeId: v.site_node_id,
      occurredAt: localDateTimeToInstant(v.occurred_at, site!.timeZone),
      occurredLocal: toPgTimestamp(v.occurred_at),
      shift: v.shift,
      severity: v.severity,
      likelihood: v.likelihood,
      investigationRequired: v.investigation_required,
      investigationState: v.investigation_required ? 'awaiting_team' : 'not_required',
      actionTaken: v.action_taken,
      oshaWorkRelated: v.osha_work_related,
      reporterId: n.actor?.userId ?? null,
      reporterName: n.actor ? null : (v.reporter_name ?? null),
      reporterEmail: n.actor ? null : (v.reporter_email ?? null),
      source: n.source,
      createdBy: n.actor?.userId ?? null,
    })
    .returning();
  const incident = row!;
  await writeVictims(tx, incident, n.victims, fields);
  refuse(fields);
  if (n.attachmentIds.length > 0) {
    await tx
      .insert(incidentAttachments)
      .values(n.attachmentIds.map((fileId) => ({ incidentId: incident.id, fileId, kind: 'report' as const })));
    // A guest's uploads were held apart from the quota until this report linked them.
    await deps.storage.link(tx, n.attachmentIds);
  }
  await recordAudit(tx, {
    actorUserId: n.actor?.userId ?? null,
    action: 'incident_created',
    entity: ENTITY,
    entityId: incident.id,
    changes: { serial: incident.serial, source: n.source, victims: n.victims.length, attachments: n.attachmentIds.length },
  });
  const mail = await tellHeadOfSafety(tx, deps, site!.headOfSafetyId, incident.reporterId, site!.name, incident);
  const organizationId = incident.organizationId;
  return {
    id: incident.id,
    serial: incident.serial,
    afterCommit: async () => {
      deps.push.toOrganization(organizationId, { channel: 'incidents', change: 'created', id: incident.id });
      if (mail) await dispatchTemplatedMail(deps, mail);
    },
  };
}

/**
 * POST /api/incidents: the body is `{ incident }` (spec 001 §7), so every field error is reported under
 * `incident.` as the body's own errors are.
 */
export async function createIncident(tx: Tx, deps: IncidentsDeps, actor: Principal, body: IncidentCreate) {
  try {
    return await createStaffIncident(tx, deps, actor, body);
  } catch (err) {
    if (!(err instanceof AppError) || !err.options.fields) throw err;
    const fields = Object.fromEntries(Object.entries(err.options.fields).map(([k, v]) => [`incident.${k}`, v]));
    throw new AppError(err.code, { ...err.options, fields });
  }
}

function createStaffIncident(tx: Tx, deps: IncidentsDeps, actor: Principal, body: IncidentCreate) {
  const { victims, attachment_ids, ...values } = body;
  // A signed-in guest's report is a guest report, like one from the public form, with its reporter kept.
  // Guests never hold OSHA facts or choose whether to investigate: staff decide.
  const guest = actor.kind === 'guest';
  return insertIncident(tx, deps, {
    source: guest ? 'guest' : 'staff',
    actor,
    values: guest ? { ...values, category_id: null, site_node_id: null, investigation_required: true, osha_work_related: null } : values,
    victims: guest ? victims.map((x) => ({ ...x, id: null, osha: null })) : victims,
    attachmentIds: attachment_ids,
  });
}

/** The public guest form (/incident): every guest report is looked into, so it awaits its team. */
export function createGuestIncident(tx: Tx, deps: IncidentsDeps, body: IncidentGuest) {
  const { victims, attachment_ids, ...rest } = body;
  return insertIncident(tx, deps, {
    source: 'guest',
    actor: null,
    values: { ...rest, category_id: null, site_node_id: null, investigation_required: true, osha_work_related: null },
    victims: victims.map((x) => ({ ...x, id: null, osha: null })),
    attachmentIds: attachment_ids,
  });
}

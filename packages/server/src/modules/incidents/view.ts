import {
  currentInvestigationStep,
  formatIncidentSerial,
  incidentRiskLevel,
  incidentRiskScore,
  INVESTIGATION_STEPS,
  isRatingPending,
  stepsDone,
  type Incident,
  type IncidentFile,
  type IncidentHistoryEntry,
  type Investigation,
} from '@bulwark/domain';
import { and, asc, eq, inArray } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog, files, users } from '../../platform/db/schema.js';
import { fileUrl } from '../../platform/storage/storage.js';
import { actionsOfSource } from '../actions/service.js';
import { categories } from '../categories/read.js';
import { sites } from '../sites/read.js';
import { factorsOf } from './analysis.js';
import { capaKindsOf } from './capa.js';
import { nodeOf, toLocalText } from './checks.js';
import { incidentContext, type IncidentContext } from './record.js';
import { incidentAttachments, incidentReportSends, incidentTimeline, incidentWitnesses } from './tables.js';
import { victimsOf, victimView } from './victims.js';

type Person = { id: string; full_name: string };

async function peopleById(tx: Tx, ids: ReadonlyArray<string | null | undefined>): Promise<Map<string, Person & { email: string }>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const rows = await tx
    .select({ id: users.id, full_name: users.fullName, email: users.email })
    .from(users)
    .where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r]));
}

/** The files of one kind linked to the incident, as the API shows them (with the storage key for the PDF). */
export async function incidentFiles(tx: Tx, incidentId: string, kind: 'report' | 'evidence') {
  const rows = await tx
    .select({ id: files.id, fileName: files.fileName, mimeType: files.mimeType, sizeBytes: files.sizeBytes, storageKey: files.storageKey })
    .from(incidentAttachments)
    .innerJoin(files, eq(files.id, incidentAttachments.fileId))
    .where(and(eq(incidentAttachments.incidentId, incidentId), eq(incidentAttachments.kind, kind)))
    .orderBy(asc(incidentAttachments.createdAt), asc(files.id));
  return rows;
}

const asFile = (f: Awaited<ReturnType<typeof incidentFiles>>[number]): IncidentFile => ({
  id: f.id,
  file_name: f.fileName,
  mime_type: f.mimeType,
  size_bytes: f.sizeBytes,
  url: fileUrl(f.id),
});

async function historyOf(tx: Tx, id: string): Promise<IncidentHistoryEntry[]> {
  const rows = await tx
    .select({
      at: auditLog.createdAt,
      actorId: auditLog.actorUserId,
      actorName: users.fullName,
      action: auditLog.action,
      changes: auditLog.changes,
    })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorUserId))
    .where(and(eq(auditLog.entity, 'Incident'), eq(auditLog.entityId, id)))
    .orderBy(asc(auditLog.createdAt), asc(auditLog.id));
  return rows.map((r) => {
    const diff = ((r.changes ?? {}) as Record<string, unknown>)['diff'] as Record<string, { from: unknown; to: unknown }> | undefined;
    return {
      at: r.at.toISOString(),
      actor: r.actorId && r.actorName ? { id: r.actorId, full_name: r.actorName } : null,
      action: r.action.replace(/^incident_/, ''),
      changes: diff ? Object.entries(diff).map(([field, v]) => ({ field, from: v.from, to: v.to })) : [],
    };
  });
}

/** The investigation's part of the detail; a guest sees where it stands, and none of its people or content. */
async function investigationOf(tx: Tx, ctx: IncidentContext, headOfSafetyId: string | null, guest: boolean): Promise<Investigation> {
  const o = ctx.row;
  const done = stepsDone(ctx.snapshot);
  const steps = INVESTIGATION_STEPS.map((key, i) => ({ number: i + 1, key, done: done[key] }));
  const base = { state: o.investigationState, current_step: currentInvestigationStep(ctx.snapshot), steps, target_date: o.targetDate };
  if (guest) {
    return {
      ...base,
      holders: [],
      lead: null,
      members: [],
      timeline: [],
      witnesses: [],
      evidence: [],
      factors: [],
      conclusion: null,
      lessons_learned: null,
      review: null,
      report_sends: [],
    };
  }
  const timeline = await tx
    .select()
    .from(incidentTimeline)
    .where(eq(incidentTimeline.incidentId, o.id))
    .orderBy(asc(incidentTimeline.position));
  const witnesses = await tx
    .select()
    .from(incidentWitnesses)
    .where(eq(incidentWitnesses.incidentId, o.id))
    .orderBy(asc(incidentWitnesses.position));
  const sends = await tx
    .select()
    .from(incidentReportSends)
    .where(eq(incidentReportSends.incidentId, o.id))
    .orderBy(asc(incidentReportSends.createdAt));
  const people = await peopleById(tx, [
    o.leadId,
    headOfSafetyId,
    ...ctx.memberIds,
    ...witnesses.map((w) => w.userId),
    ...sends.map((s) => s.sentBy),
  ]);
  const person = (id: string | null): Person | null => {
    const p = id ? people.get(id) : undefined;
    return p ? { id: p.id, full_name: p.full_name } : null;
  };
  const reviewers = (ctx.review?.reviewers ?? [])
    .filter((r) => r.state === 'current')
    .flatMap((r) => [r.user, ...(r.escalated_to ? [r.escalated_to] : [])]);
  const holders: Person[] =
    o.status === 'closed'
      ? []
      : o.investigationState === 'awaiting_team'
        ? [person(headOfSafetyId)].filter((p): p is Person => p !== null)
        : o.investigationState === 'under_review'
          ? reviewers
          : ['in_progress', 'returned', 'approved'].includes(o.investigationState)
            ? [person(o.leadId)].filter((p): p is Person => p !== null)
            : [];
  return {
    ...base,
    holders,
    lead: person(o.leadId),
    members: ctx.memberIds.map(person).filter((p): p is Person => p !== null),
    timeline: timeline.map((e) => ({ id: e.id, at: toLocalText(e.atLocal), description: e.description })),
    witnesses: witnesses.map((w) => ({ id: w.id, name: w.name, user: person(w.userId), statement: w.statement, contact: w.contact })),
    evidence: (await incidentFiles(tx, o.id, 'evidence')).map(asFile),
    factors: await factorsOf(tx, o.id),
    conclusion: o.conclusion,
    lessons_learned: o.lessonsLearned,
    review: ctx.review,
    report_sends: sends.map((s) => ({ at: s.createdAt.toISOString(), by: person(s.sentBy), recipients: s.recipients })),
  };
}

/**
 * The whole record as GET /api/incidents/{id} answers it, seen by `viewer`. A guest sees only a report
 * it made, and in it no other person: no investigation content, no actions, no other actor in the history.
 */
export async function incidentView(tx: Tx, viewer: Principal, id: string): Promise<Incident> {
  const ctx = await incidentContext(tx, viewer, id);
  const o = ctx.row;
  const guest = viewer.kind === 'guest';
  const [site] = await tx
    .select({ id: sites.id, name: sites.name, time_zone: sites.timeZone, headOfSafetyId: sites.headOfSafetyId })
    .from(sites)
    .where(eq(sites.id, o.siteId));
  const [category] = o.categoryId
    ? await tx.select({ id: categories.id, name: categories.name }).from(categories).where(eq(categories.id, o.categoryId))
    : [];
  const people = await peopleById(tx, [o.reporterId, o.closedBy]);
  const reporter = o.reporterId ? people.get(o.reporterId) : undefined;
  const closer = o.closedBy ? people.get(o.closedBy) : undefined;
  const victims = (await victimsOf(tx, [o.id])).map((v) => victimView(v, o));
  const actions = guest ? [] : await actionsOfSource(tx, 'incident', o.id);
  const kinds = await capaKindsOf(
    tx,
    actions.map((a) => a.id),
  );
  const score = incidentRiskScore(o.severity, o.likelihood);
  return {
    id: o.id,
    serial: o.serial,
    serial_label: formatIncidentSerial(o.serial),
    type: o.type,
    category: category ?? null,
    description: o.description,
    site: { id: site!.id, name: site!.name, time_zone: site!.time_zone },
    site_node: await nodeOf(tx, site!.name, o.siteId, o.siteNodeId),
    occurred_at: toLocalText(o.occurredLocal),
    occurred_at_utc: o.occurredAt.toISOString(),
    shift: o.shift,
    severity: o.severity,
    likelihood: o.likelihood,
    rating_pending: isRatingPending(o),
    risk_score: score,
    risk_level: incidentRiskLevel(score),
    investigation_required: o.investigationRequired,
    action_taken: o.actionTaken,
    osha_work_related: o.oshaWorkRelated,
    osha_recordable: victims.some((v) => v.osha?.recordable === true),
    reporter: reporter
      ? { id: reporter.id, full_name: reporter.full_name, email: reporter.email, guest: o.source === 'guest' }
      : o.reporterName || o.reporterEmail || o.source === 'guest'
        ? { id: null, full_name: o.reporterName ?? '', email: o.reporterEmail, guest: o.source === 'guest' }
        : null,
    source: o.source,
    status: o.status,
    closing_remarks: o.closingRemarks,
    closed_at: o.closedAt?.toISOString() ?? null,
    closed_by: closer && !guest ? { id: closer.id, full_name: closer.full_name } : null,
    victims,
    attachments: (await incidentFiles(tx, o.id, 'report')).map(asFile),
    investigation: await investigationOf(tx, ctx, site!.headOfSafetyId, guest),
    actions: actions.map((a) => ({ ...a, capa_kind: kinds.get(a.id) ?? null })),
    history: (await historyOf(tx, o.id)).map((h) => (guest && h.actor?.id !== viewer.userId ? { ...h, actor: null } : h)),
    permissions: ctx.abilities,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}

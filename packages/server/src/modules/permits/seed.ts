import { randomUUID } from 'node:crypto';
import {
  localDateTimeIn,
  type ControlType,
  type MasterKind,
  type PermitSection,
  type PermitStatus,
  type QuestionType,
} from '@bulwark/domain';
import { asc, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { siteNodes, sites } from '../sites/read.js';
import { toPgTimestamp } from './checks.js';
import { writeDefaultSections } from './defaults.js';
import type { StoredAnswers } from './form-snapshot.js';
import { PERMIT_ENTITY } from './record.js';
import { newStatusToken } from './requests.js';
import { sectionsOf } from './template-read.js';
import {
  permitExtensions,
  permitMasters,
  permits,
  permitSerials,
  permitShares,
  permitTemplateConflicts,
  permitTemplateQuestions,
  permitTemplateSections,
  permitTemplates,
  permitWorkers,
  workProfiles,
} from './tables.js';

const MASTERS: Record<MasterKind, Array<[string, ControlType?]>> = {
  hierarchy_of_controls: [
    ['Prefabricate off site instead of hot work on site', 'elimination'],
    ['Water-based cleaner instead of solvent', 'substitution'],
    ['Local exhaust ventilation at the work point', 'engineering'],
    ['Lock-out and tag-out of every energy source', 'engineering'],
    ['Toolbox talk and permit briefing at the job', 'administrative'],
    ['Flame-retardant coveralls and face shield', 'ppe'],
  ],
  activity: [['Welding and cutting'], ['Grinding'], ['Tank entry'], ['Roof work'], ['Scaffold erection'], ['Electrical isolation']],
  equipment: [
    ['4-gas detector'],
    ['CO2 fire extinguisher'],
    ['Full-body harness'],
    ['Tripod and winch'],
    ['Lock-out kit'],
    ['Welding screen'],
  ],
  rescue: [['Confined-space rescue with tripod and winch'], ['Work-at-height rescue kit'], ['Fire watch with hose reel']],
};

type Q = { type: QuestionType; label: string; required?: boolean; options?: string[]; showWhenYes?: number };
const TEMPLATES: Array<{ name: string; prefix: string; description: string; section: string; questions: Q[] }> = [
  {
    name: 'Hot work',
    prefix: 'HW',
    description: 'Welding, cutting, grinding and any work with an open flame or sparks.',
    section: 'Hot work precautions',
    questions: [
      { type: 'radio_button', label: 'Is a fire watch needed?', required: true, options: ['Yes', 'No'] },
      { type: 'text_field', label: 'Name of the fire watch', required: true, showWhenYes: 0 },
      { type: 'equipment_master', label: 'Equipment on site', required: true },
      { type: 'hierarchy_of_controls', label: 'Controls in place' },
      { type: 'attachment', label: 'Photo of the cleared area' },
    ],
  },
  {
    name: 'Confined space entry',
    prefix: 'CS',
    description: 'Entry into tanks, vessels, pits and other spaces with limited openings.',
    section: 'Atmosphere and rescue',
    questions: [
      { type: 'text_field', label: 'Oxygen reading (%)', required: true },
      { type: 'rescue_master', label: 'Rescue plan', required: true },
      { type: 'radio_button', label: 'Is the attendant at the entrance throughout?', required: true, options: ['Yes', 'No'] },
    ],
  },
  {
    name: 'Work at height',
    prefix: 'WH',
    description: 'Work from ladders, scaffolds, roofs and elevated platforms above 2 m.',
    section: 'Fall protection',
    questions: [
      { type: 'activity_master', label: 'Activity', required: true },
      { type: 'equipment_master', label: 'Fall protection used', required: true },
    ],
  },
  {
    name: 'Electrical isolation',
    prefix: 'EI',
    description: 'Isolation of electrical equipment before work on it.',
    section: 'Isolation',
    questions: [
      { type: 'text_area', label: 'Isolation points', required: true },
      { type: 'radio_button', label: 'Locks applied and tested dead?', required: true, options: ['Yes', 'No'] },
    ],
  },
];

const WORKERS: Array<[string, string, string, 'male' | 'female', number]> = [
  ['Dev Patel', 'CT-2041', '+44 7700 900123', 'male', 34],
  ['Joanna Mazur', 'CT-2042', '+44 7700 900456', 'female', 41],
  ['Kwame Mensah', 'CT-2077', '+44 7700 900789', 'male', 29],
  ['Sofia Almeida', 'CT-2103', '+44 7700 900321', 'female', 37],
  ['Ahmet Yılmaz', 'CT-2150', '+90 532 555 01 23', 'male', 45],
  ['Chen Jing', 'CT-2188', '+65 8123 4567', 'female', 31],
];

/** A plausible answer to each question of the request (or closure) sections, for the demo. */
function answersFor(form: PermitSection[], closure: boolean, masters: Map<MasterKind, { id: string; name: string }>): StoredAnswers {
  const out: StoredAnswers = {};
  const pick = (kind: MasterKind) => [masters.get(kind)!];
  for (const s of form) {
    if ((s.kind === 'closure') !== closure) continue;
    for (const q of s.questions) {
      if (q.binding || q.type === 'attachment') continue;
      if (q.condition && out[q.condition.question_id]?.value !== q.condition.answer) continue;
      const value: Partial<Record<QuestionType, string>> = {
        radio_button: q.options[0],
        text_field: q.label.includes('Oxygen') ? '20.9' : 'Dev Patel',
        text_area: closure ? 'Area handed back clean; all tools removed.' : 'Isolator MCC-3 feeder 4, lock 117',
        date_only: '2026-01-01',
        time: '08:00',
        hidden_field: q.hidden_value ?? '',
      };
      const items =
        q.type === 'equipment_master'
          ? pick('equipment')
          : q.type === 'rescue_master'
            ? pick('rescue')
            : q.type === 'activity_master'
              ? pick('activity')
              : q.type === 'hierarchy_of_controls'
                ? pick('hierarchy_of_controls')
                : null;
      out[q.id] = items ? { value: null, items } : { value: value[q.type] ?? null, items: [] };
    }
  }
  return out;
}

type Demo = {
  template: number;
  status: PermitStatus;
  startH: number;
  hours: number;
  workers: number[];
  node?: boolean;
  extended?: boolean;
  note: string;
};

/** Permits in every state the clock and the lifecycle reach, around now at the first site. */
const PERMITS: Demo[] = [
  {
    template: 0,
    status: 'approved',
    startH: -2,
    hours: 8,
    workers: [0, 1],
    node: true,
    note: 'Weld the new pump bracket on the boiler feed line',
  },
  { template: 1, status: 'approved', startH: 3, hours: 6, workers: [2, 3], node: true, note: 'Inspect the inside of condensate tank T-2' },
  {
    template: 2,
    status: 'extended',
    startH: -6,
    hours: 4,
    workers: [4],
    extended: true,
    note: 'Replace roof light panels above the press line',
  },
  { template: 3, status: 'pending_closure', startH: -9, hours: 8, workers: [5], note: 'Isolate conveyor 2 for belt replacement' },
  { template: 2, status: 'overdue', startH: -14, hours: 8, workers: [0], note: 'Paint the mezzanine handrails' },
  { template: 0, status: 'closed', startH: -30, hours: 6, workers: [1, 2], note: 'Cut out the old chute liner' },
  { template: 1, status: 'revoked', startH: -26, hours: 4, workers: [3], note: 'Clean the sump pit' },
  { template: 3, status: 'rejected', startH: 20, hours: 4, workers: [4], note: 'Work on the live busbar chamber' },
];

/**
 * The demo organisation's permits: the four masters, six contractors, four templates with their own
 * checklists (hot work conflicts with confined-space entry and with another hot work), and permits in
 * every state, with a draft shared between its requester and a colleague. Requests awaiting approval
 * are left to the demo itself: they need the review workflow engine, which a seed does not run.
 */
export async function seedDemoPermits(tx: Tx, now = new Date()): Promise<void> {
  const existing = await tx.select({ id: permitTemplates.id }).from(permitTemplates).limit(1);
  if (existing.length > 0) return;
  const byEmail = async (email: string) => (await tx.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? null;
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.createdAt)).limit(1);
  const issuer = (await byEmail('priya.nair@demo.test')) ?? admin?.id ?? null;
  const requester = (await byEmail('tomasz.kowalski@demo.test')) ?? admin?.id ?? null;
  const [site] = await tx.select().from(sites).orderBy(asc(sites.createdAt)).limit(1);
  if (!site || !requester) return;
  const [node] = await tx
    .select({ id: siteNodes.id })
    .from(siteNodes)
    .where(eq(siteNodes.siteId, site.id))
    .orderBy(sql`${siteNodes.parentId} is null desc`, asc(siteNodes.name))
    .limit(1);

  const masters = new Map<MasterKind, { id: string; name: string }>();
  for (const [kind, entries] of Object.entries(MASTERS) as Array<[MasterKind, Array<[string, ControlType?]>]>) {
    for (const [name, level] of entries) {
      const [row] = await tx
        .insert(permitMasters)
        .values({ kind, name, controlLevel: level ?? null })
        .returning();
      if (!masters.has(kind)) masters.set(kind, { id: row!.id, name });
    }
  }
  const workers: string[] = [];
  for (const [name, idNumber, phone, gender, age] of WORKERS) {
    const [w] = await tx
      .insert(workProfiles)
      .values({ name, idNumber, phone, gender, age, createdBy: admin?.id ?? null })
      .returning({ id: workProfiles.id });
    workers.push(w!.id);
  }

  const templates: Array<{ id: string; prefix: string; form: PermitSection[] }> = [];
  for (const t of TEMPLATES) {
    const [row] = await tx
      .insert(permitTemplates)
      .values({
        name: t.name,
        description: t.description,
        prefix: t.prefix,
        extensionDeclaration:
          'I declare that the work area and the workers were checked again and are safe, and that every precaution stays in place.',
        createdBy: admin?.id ?? null,
      })
      .returning({ id: permitTemplates.id });
    await writeDefaultSections(tx, row!.id, 'en');
    const [custom] = await tx
      .insert(permitTemplateSections)
      .values({ templateId: row!.id, name: t.section, kind: 'custom', position: 5 })
      .returning({ id: permitTemplateSections.id });
    const ids = t.questions.map(() => randomUUID());
    for (const [i, q] of t.questions.entries()) {
      await tx.insert(permitTemplateQuestions).values({
        id: ids[i]!,
        templateId: row!.id,
        sectionId: custom!.id,
        position: i + 1,
        type: q.type,
        label: q.label,
        required: q.required ?? false,
        options: q.options ?? [],
        fileKinds: q.type === 'attachment' ? ['image'] : [],
        maxFiles: q.type === 'attachment' ? 3 : null,
        maxFileKb: q.type === 'attachment' ? 5120 : null,
        conditionQuestionId: q.showWhenYes === undefined ? null : ids[q.showWhenYes]!,
        conditionAnswer: q.showWhenYes === undefined ? null : 'Yes',
      });
    }
    // The checklist of the type right after the time of work.
    await tx
      .update(permitTemplateSections)
      .set({
        position: sql`case when ${permitTemplateSections.id} = ${custom!.id} then 3 when ${permitTemplateSections.position} >= 3 then ${permitTemplateSections.position} + 1 else ${permitTemplateSections.position} end`,
      })
      .where(eq(permitTemplateSections.templateId, row!.id));
    templates.push({ id: row!.id, prefix: t.prefix, form: await sectionsOf(tx, row!.id, true) });
  }
  const [hot, confined] = templates;
  await tx
    .insert(permitTemplateConflicts)
    .values([
      hot!.id < confined!.id ? { templateA: hot!.id, templateB: confined!.id } : { templateA: confined!.id, templateB: hot!.id },
      { templateA: hot!.id, templateB: hot!.id },
    ]);

  const HOUR = 3_600_000;
  const audit = (actor: string | null, action: string, id: string, at: Date, changes: Record<string, unknown> = {}) =>
    recordAudit(tx, {
      actorUserId: actor,
      action,
      entity: PERMIT_ENTITY,
      entityId: id,
      changes: { ...changes, seeded_at: at.toISOString() },
    });
  const permitRows: Array<Demo & { id: string }> = [];
  let serial = 0;
  for (const d of [
    ...PERMITS,
    {
      template: 0,
      status: 'draft' as const,
      startH: 26,
      hours: 8,
      workers: [2],
      node: true,
      note: 'Weld the guard rail brackets on the loading ramp',
    },
  ]) {
    const tpl = templates[d.template]!;
    const start = new Date(Math.floor(now.getTime() / HOUR) * HOUR + d.startH * HOUR);
    const end = new Date(start.getTime() + (d.hours + (d.extended ? 4 : 0)) * HOUR);
    const issued = !['draft', 'rejected'].includes(d.status);
    serial += 1;
    const [row] = await tx
      .insert(permits)
      .values({
        serial,
        prefix: tpl.prefix,
        templateId: tpl.id,
        status: d.status,
        requesterId: requester,
        siteId: site.id,
        siteNodeId: d.node ? (node?.id ?? null) : null,
        startAt: start,
        startLocal: toPgTimestamp(localDateTimeIn(site.timeZone, start)),
        endAt: end,
        endLocal: toPgTimestamp(localDateTimeIn(site.timeZone, end)),
        description: d.note,
        form: tpl.form,
        answers: answersFor(tpl.form, false, masters),
        closureAnswers: d.status === 'closed' ? answersFor(tpl.form, true, masters) : null,
        statusToken: newStatusToken(),
        submittedAt: d.status === 'draft' ? null : new Date(start.getTime() - 2 * HOUR),
        submittedBy: d.status === 'draft' ? null : requester,
        approvedAt: issued ? new Date(start.getTime() - HOUR) : null,
        ...(d.status === 'revoked'
          ? { revokedAt: new Date(start.getTime() + HOUR), revokedBy: issuer, revokeComment: 'Gas detector alarmed at the sump edge' }
          : {}),
        ...(d.status === 'closed' ? { closedAt: end, closedBy: issuer, closureComment: 'Work finished as planned' } : {}),
      })
      .returning({ id: permits.id });
    const id = row!.id;
    permitRows.push({ ...d, id });
    await tx.insert(permitWorkers).values(d.workers.map((w, i) => ({ permitId: id, workerId: workers[w]!, position: i + 1 })));
    await audit(requester, 'permit_created', id, start);
    if (d.status === 'draft') continue;
    await audit(requester, 'permit_submitted', id, start);
    if (d.status === 'rejected') {
      await audit(issuer, 'permit_rejected', id, start, { comment: 'Live busbar work needs a dedicated method statement' });
      continue;
    }
    await audit(issuer, 'permit_decision', id, start, { decision: 'permit', approve: true, comment: null });
    await audit(issuer, 'permit_approved', id, start);
    if (d.extended) {
      await tx.insert(permitExtensions).values({
        permitId: id,
        state: 'approved',
        declaration: 'More panels cracked than surveyed.',
        hours: 4,
        requestedBy: requester,
        endBefore: new Date(end.getTime() - 4 * HOUR),
        endAfter: end,
        decidedAt: now,
      });
      await audit(issuer, 'permit_extension_approved', id, start);
    }
    if (d.status === 'revoked') await audit(issuer, 'permit_revoked', id, start, { comment: 'Gas detector alarmed at the sump edge' });
    if (d.status === 'closed') await audit(issuer, 'permit_closed', id, start);
  }
  await tx.insert(permitSerials).values({ lastSerial: serial });
  const draft = permitRows.at(-1)!;
  if (issuer && issuer !== requester) await tx.insert(permitShares).values({ permitId: draft.id, userId: issuer, sharedBy: requester });
}

import { randomUUID } from 'node:crypto';
import {
  addAuditDays,
  addAuditMonths,
  auditDueDatesUntil,
  auditFormQuestions,
  auditWindowEnd,
  emptyAnswerCell,
  localDateIn,
  localDateTimeToInstant,
  type AuditAnswerCell,
  type AuditForm,
  type AuditFrequency,
  type AuditIcon,
  type AuditQuestion,
  type AuditResponseType,
  type AuditStatus,
  type AuditType,
  type ControlType,
} from '@bulwark/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { auditLog, users } from '../../platform/db/schema.js';
import { seedSourceAction } from '../actions/seed.js';
import { siteNodes, sites } from '../sites/read.js';
import { seedReviewRound } from '../workflows/seed.js';
import { storeResults } from './answer.js';
import { AUDIT_ENTITY, SCHEDULE_ENTITY, TEMPLATE_ENTITY } from './common.js';
import { describeForReview } from './run.js';
import {
  auditAnswers,
  auditKeyFindings,
  audits,
  auditScheduleSites,
  auditSchedules,
  auditSerials,
  auditTemplateQuestions,
  auditTemplates,
  auditTemplateSections,
  type StoredOption,
} from './tables.js';
import { currentForm } from './template-form.js';
import { answersOf, scoreOf } from './view.js';

/** A question of a demo template; `when` shows it only after its parent (by key) chose that option. */
type Q = {
  key: string;
  type: AuditResponseType;
  label: string;
  description?: string;
  score?: number;
  expected?: 'yes' | 'no';
  critical?: boolean;
  required?: boolean;
  multiple?: boolean;
  options?: Array<[label: string, score: number, failure?: boolean]>;
  min?: number;
  max?: number;
  rows?: string[];
  attachments?: boolean;
  when?: [parent: string, option: string];
};

type DemoTemplate = {
  name: string;
  description: string;
  icon: AuditIcon;
  type: AuditType;
  declaration: string | null;
  sections: Array<[name: string, questions: Q[]]>;
};

const TEMPLATES: DemoTemplate[] = [
  {
    name: 'Monthly site safety inspection',
    description: 'Monthly walk-round of the whole site: housekeeping, fire and emergency arrangements, machinery and sign-off.',
    icon: 'clipboard',
    type: 'safety',
    declaration: 'I confirm that I inspected every area listed and that these answers reflect what I saw.',
    sections: [
      [
        'Housekeeping and access',
        [
          { key: 'walkways', type: 'yes_no', label: 'Are walkways, aisles and stairs clear of obstructions?', score: 5, expected: 'yes' },
          {
            key: 'spills',
            type: 'yes_no',
            label: 'Are spill kits stocked and spills cleaned up?',
            score: 5,
            expected: 'yes',
            attachments: true,
          },
          {
            key: 'housekeeping',
            type: 'choice',
            label: 'Overall standard of housekeeping',
            options: [
              ['Good', 10],
              ['Acceptable', 6],
              ['Poor', 0, true],
            ],
          },
        ],
      ],
      [
        'Fire and emergency',
        [
          {
            key: 'exits',
            type: 'yes_no',
            label: 'Are all fire exits unobstructed and clearly signed?',
            description: 'A blocked exit is a critical failure: the head of safety is told at once.',
            score: 10,
            expected: 'yes',
            critical: true,
          },
          { key: 'extinguishers', type: 'yes_no', label: 'Is any fire extinguisher out of date or missing?', score: 5, expected: 'no' },
          { key: 'extinguishersWhere', type: 'text', label: 'Which extinguishers, and where are they?', when: ['extinguishers', 'yes'] },
          { key: 'drill', type: 'date', label: 'Date of the last fire drill' },
        ],
      ],
      [
        'Machinery and sign-off',
        [
          { key: 'guards', type: 'number', label: 'How many machine guards are missing or defeated?', score: 10, min: 0, max: 0 },
          { key: 'photos', type: 'photo', label: 'Photos of anything notable', required: false },
          { key: 'signature', type: 'signature', label: 'Signature of the area supervisor', required: false },
        ],
      ],
    ],
  },
  {
    name: 'Scaffold inspection',
    description: 'Inspection of a scaffold in use: before first use, every week, and after bad weather or alteration.',
    icon: 'hard_hat',
    type: 'equipment',
    declaration: null,
    sections: [
      [
        'Tag and foundations',
        [
          { key: 'location', type: 'text', label: 'Scaffold location and tag number' },
          {
            key: 'tag',
            type: 'yes_no',
            label: 'Is a valid green scaffold tag displayed at the access point?',
            score: 10,
            expected: 'yes',
            critical: true,
          },
          {
            key: 'base',
            type: 'choice',
            label: 'Base plates and sole boards',
            options: [
              ['Sound and level', 10],
              ['Minor defects', 5],
              ['Missing or unstable', 0, true],
            ],
          },
        ],
      ],
      [
        'Platforms and edges',
        [
          {
            key: 'guardrails',
            type: 'yes_no',
            label: 'Are guard rails and toe boards fitted?',
            score: 5,
            expected: 'yes',
            rows: ['Lift 1', 'Lift 2', 'Lift 3'],
          },
          { key: 'gap', type: 'number', label: 'Largest gap between platform boards (mm)', score: 5, min: 0, max: 25 },
          { key: 'ties', type: 'yes_no', label: 'Are ties and bracing intact as designed?', score: 5, expected: 'yes' },
        ],
      ],
    ],
  },
  {
    name: 'Fire safety walk',
    description: 'Walk of the escape routes, fire doors, alarm call points and extinguishers.',
    icon: 'fire',
    type: 'fire',
    declaration: null,
    sections: [
      [
        'Escape routes and doors',
        [
          { key: 'doors', type: 'yes_no', label: 'Do fire doors close fully and latch?', score: 10, expected: 'yes', critical: true },
          {
            key: 'signage',
            type: 'choice',
            label: 'Escape routes: what is in order?',
            multiple: true,
            options: [
              ['Exit signs in place', 4],
              ['Emergency lighting works', 4],
              ['Assembly point signed', 2],
            ],
          },
        ],
      ],
      [
        'Alarm and equipment',
        [
          { key: 'alarm', type: 'yes_no', label: 'Was the weekly alarm test recorded?', score: 5, expected: 'yes' },
          { key: 'checked', type: 'number', label: 'Number of extinguishers checked' },
          { key: 'remarks', type: 'text', label: 'Other observations', required: false },
        ],
      ],
    ],
  },
];

/**
 * An answer by question key: yes/no as 'yes', 'no' or 'na' (one per row, comma-separated, for a question
 * with row headers), a choice by its labels ('|' between several), text as written, a number as digits,
 * a date as days from the audit's due date ('-20').
 */
type Answers = Record<string, string | [value: string, remark: string]>;

type Finding = {
  question: string;
  description: string;
  control: ControlType;
  dueInDays: number;
  status: 'open' | 'closed';
  remarks?: string;
};

type DemoAudit = {
  /** Index in the schedule's due dates so far, from the latest (0 is the current window). */
  fromLatest: number;
  status: AuditStatus;
  answers?: Answers;
  notes?: string;
  findings?: Finding[];
  decision?: string;
};

type DemoSchedule = {
  template: number;
  site: string;
  area?: string;
  auditor: 'admin' | 'priya.nair@demo.test';
  frequency: AuditFrequency;
  /** The start from the site's today: `months` back, then `days` back. */
  start: { months?: number; days?: number };
  audits: DemoAudit[];
};

const SCHEDULES: DemoSchedule[] = [
  {
    template: 0,
    site: 'Riverside Manufacturing Plant',
    auditor: 'priya.nair@demo.test',
    frequency: 'monthly',
    start: { months: 3 },
    audits: [
      {
        fromLatest: 3,
        status: 'approved',
        answers: {
          walkways: 'yes',
          spills: ['no', 'The Line B spill kit had no absorbent pads left.'],
          housekeeping: 'Acceptable',
          exits: 'yes',
          extinguishers: 'no',
          drill: '-20',
          guards: '0',
        },
        findings: [
          {
            question: 'spills',
            description: 'Restock the Line B spill kit and add spill kits to the weekly area checks',
            control: 'administrative',
            dueInDays: -70,
            status: 'closed',
            remarks: 'Kit restocked; spill kits added to the weekly checklist.',
          },
        ],
        decision: 'Thorough inspection; spill kit action already closed.',
      },
      {
        fromLatest: 2,
        status: 'rejected',
        answers: {
          walkways: 'yes',
          spills: 'yes',
          housekeeping: 'Good',
          exits: 'yes',
          extinguishers: 'yes',
          extinguishersWhere: 'Two CO2 extinguishers in the Substation; their service was due last month.',
          drill: '-45',
          guards: '0',
        },
        decision: 'Please add the tag numbers of the out-of-date extinguishers and a photo, then complete it again.',
      },
      {
        fromLatest: 1,
        status: 'completed',
        answers: {
          walkways: ['no', 'Pallets stored in the walkway next to Dispatch.'],
          spills: 'yes',
          housekeeping: 'Acceptable',
          exits: ['no', 'Paint Shop fire exit blocked by stacked pallets.'],
          extinguishers: 'no',
          drill: '-75',
          guards: '0',
        },
        notes: 'Pallets moved from the Paint Shop exit during the walk; the supervisor was briefed.',
        findings: [
          {
            question: 'exits',
            description: 'Mark a no-storage zone in front of the Paint Shop fire exit and check it on every shift handover',
            control: 'administrative',
            dueInDays: 7,
            status: 'open',
          },
        ],
      },
      { fromLatest: 0, status: 'scheduled' },
    ],
  },
  {
    template: 1,
    site: 'Riverside Manufacturing Plant',
    area: 'Line A',
    auditor: 'admin',
    frequency: 'weekly',
    start: { days: 3 },
    audits: [
      {
        fromLatest: 0,
        status: 'in_progress',
        answers: {
          location: 'Line A mezzanine, tag SC-114',
          tag: 'yes',
          base: 'Minor defects',
          guardrails: ['yes,yes,no', 'Toe board missing on the north face of Lift 3.'],
        },
        notes: 'Crew told to stay below Lift 3 until the toe board is refitted.',
      },
    ],
  },
  {
    template: 2,
    site: 'Lakeside Distribution Centre',
    auditor: 'priya.nair@demo.test',
    frequency: 'monthly',
    start: { months: 1 },
    audits: [
      { fromLatest: 1, status: 'overdue' },
      { fromLatest: 0, status: 'scheduled' },
    ],
  },
];

/** The cells of an answer to `q` (see `Answers`). */
function cellsOf(q: AuditQuestion, value: string, dueDate: string): AuditAnswerCell[] {
  const cell = (over: Partial<AuditAnswerCell>): AuditAnswerCell => ({ ...emptyAnswerCell(), ...over });
  switch (q.type) {
    case 'yes_no':
      return value.split(',').map((v) => (v === 'na' ? cell({ na: true }) : cell({ choice: [v] })));
    case 'choice':
      return [cell({ choice: value.split('|').map((label) => q.options.find((o) => o.label === label)!.key) })];
    case 'number':
      return [cell({ number: Number(value) })];
    case 'date':
      return [cell({ date: addAuditDays(dueDate, Number(value)) })];
    default:
      return [cell({ text: value })];
  }
}

async function createTemplate(tx: Tx, t: DemoTemplate, createdBy: string | null, createdAt: Date): Promise<string> {
  const [row] = await tx
    .insert(auditTemplates)
    .values({
      name: t.name,
      description: t.description,
      icon: t.icon,
      type: t.type,
      declaration: t.declaration,
      createdBy,
      createdAt,
      updatedAt: createdAt,
    })
    .returning({ id: auditTemplates.id });
  const templateId = row!.id;
  const ids = new Map<string, { id: string; options: StoredOption[] }>();
  for (const [n, [name, questions]] of t.sections.entries()) {
    const [section] = await tx
      .insert(auditTemplateSections)
      .values({ templateId, name, position: n + 1 })
      .returning({ id: auditTemplateSections.id });
    for (const [i, q] of questions.entries()) {
      const id = randomUUID();
      const options = (q.options ?? []).map(([label, score, failure]) => ({ key: randomUUID(), label, score, failure: failure ?? false }));
      const parent = q.when ? ids.get(q.when[0])! : null;
      await tx.insert(auditTemplateQuestions).values({
        id,
        templateId,
        sectionId: section!.id,
        position: i + 1,
        type: q.type,
        label: q.label,
        description: q.description ?? null,
        required: q.required ?? true,
        critical: q.critical ?? false,
        // A choice question's points are its options' (the template service stores 0 for it too).
        score: q.type === 'choice' ? 0 : (q.score ?? 0),
        expected: q.expected ?? null,
        multiple: q.multiple ?? false,
        options,
        minValue: q.min ?? null,
        maxValue: q.max ?? null,
        attachments: q.attachments ?? false,
        rowHeaders: q.rows ?? [],
        parentQuestionId: parent?.id ?? null,
        // A yes/no parent is named by 'yes'/'no'; a choice parent by its option's key.
        parentOptionKey: q.when ? (parent!.options.find((o) => o.label === q.when![1])?.key ?? q.when[1]) : null,
      });
      ids.set(q.key, { id, options });
    }
  }
  await recordAudit(tx, {
    actorUserId: createdBy,
    action: 'audit_template_created',
    entity: TEMPLATE_ENTITY,
    entityId: templateId,
    changes: { name: t.name, source: 'seed' },
  });
  return templateId;
}

/**
 * The demo organisation's audits: three scored templates (a monthly site inspection with a critical
 * question and a question shown only when its parent is answered yes, a scaffold inspection with row
 * headers, a fire safety walk with a multiple choice), three schedules and their audits so far in every
 * status: approved, rejected and awaiting review (with answers, scores and key findings that became
 * actions of source `audit`), overdue, scheduled, and one in progress run by the demo admin. Scores are
 * the module's own (`scoreOf`, `storeResults`); actions and reviews are written by their modules' seeds.
 * Writes no mail. Does nothing when the organisation has audit templates already.
 */
export async function seedDemoAudits(tx: Tx, now = new Date()): Promise<void> {
  const existing = await tx.select({ id: auditTemplates.id }).from(auditTemplates).limit(1);
  if (existing.length > 0) return;
  const [admin] = await tx.select({ id: users.id }).from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.createdAt)).limit(1);
  if (!admin) return;
  const byEmail = async (email: string) => (await tx.select({ id: users.id }).from(users).where(eq(users.email, email)))[0]?.id ?? null;
  const priya = (await byEmail('priya.nair@demo.test')) ?? admin.id;
  const auditee = await byEmail('tomasz.kowalski@demo.test');

  const templateIds: string[] = [];
  // The forms were set up before the first audits ran, four months ago.
  for (const t of TEMPLATES) templateIds.push(await createTemplate(tx, t, priya, new Date(now.getTime() - 120 * 86_400_000)));
  const forms = new Map<string, AuditForm>();

  let serial = 0;
  for (const d of SCHEDULES) {
    const [site] = await tx.select({ id: sites.id, tz: sites.timeZone }).from(sites).where(eq(sites.name, d.site));
    if (!site) continue;
    const [area] = d.area
      ? await tx
          .select({ id: siteNodes.id })
          .from(siteNodes)
          .where(and(eq(siteNodes.siteId, site.id), eq(siteNodes.name, d.area)))
      : [];
    const auditor = d.auditor === 'admin' ? admin.id : priya;
    const templateId = templateIds[d.template]!;
    const today = localDateIn(site.tz, now);
    const times = {
      frequency: d.frequency,
      start_date: addAuditDays(addAuditMonths(today, -(d.start.months ?? 0)), -(d.start.days ?? 0)),
      end_date: null,
    };
    const [schedule] = await tx
      .insert(auditSchedules)
      .values({
        templateId,
        siteNodeId: area?.id ?? null,
        auditorId: auditor,
        auditeeId: auditee,
        frequency: d.frequency,
        startDate: times.start_date,
        createdBy: priya,
        createdAt: localDateTimeToInstant(`${addAuditDays(times.start_date, -7)}T09:00`, site.tz),
      })
      .returning({ id: auditSchedules.id });
    await tx.insert(auditScheduleSites).values({ scheduleId: schedule!.id, siteId: site.id });
    await recordAudit(tx, {
      actorUserId: priya,
      action: 'audit_schedule_created',
      entity: SCHEDULE_ENTITY,
      entityId: schedule!.id,
      changes: { template_id: templateId, site_ids: [site.id], frequency: d.frequency, start_date: times.start_date, source: 'seed' },
    });

    // Every audit the hourly job would have made by today, so that it makes none of these again.
    const dues = auditDueDatesUntil(times, today).reverse();
    for (const a of [...d.audits].sort((x, y) => y.fromLatest - x.fromLatest)) {
      const dueDate = dues[a.fromLatest];
      if (!dueDate) continue;
      const windowEnd = auditWindowEnd(times, dueDate);
      // The site's clock on a day of the window, never later than now.
      const dayAt = (day: string, time: string) =>
        new Date(Math.min(now.getTime(), localDateTimeToInstant(`${day}T${time}`, site.tz).getTime()));
      const at = (days: number, time: string) => dayAt(addAuditDays(dueDate, days), time);
      const later = (from: Date, minutes: number) => new Date(from.getTime() + minutes * 60_000);
      const started = a.status !== 'scheduled' && a.status !== 'overdue';
      const finished = a.status === 'completed' || a.status === 'approved' || a.status === 'rejected';
      const startedAt = at(d.frequency === 'weekly' ? 0 : 1, '09:30');
      const completedAt = at(d.frequency === 'weekly' ? 0 : 1, '11:45');
      const decidedAt = at(d.frequency === 'weekly' ? 1 : 3, '10:15');
      if (!forms.has(templateId)) forms.set(templateId, await currentForm(tx, templateId));
      const form = forms.get(templateId)!;
      serial += 1;
      const [row] = await tx
        .insert(audits)
        .values({
          serial,
          templateId,
          scheduleId: schedule!.id,
          siteId: site.id,
          siteNodeId: area?.id ?? null,
          auditorId: auditor,
          auditeeId: auditee,
          frequency: d.frequency,
          dueDate,
          windowEnd,
          status: a.status,
          form: started ? form : null,
          startedAt: started ? startedAt : null,
          startedBy: started ? auditor : null,
          completedAt: finished ? completedAt : null,
          completedBy: finished ? auditor : null,
          completedOn: finished ? addAuditDays(dueDate, d.frequency === 'weekly' ? 0 : 1) : null,
          declarationAccepted: finished && !!form.declaration,
          overdueAt: a.status === 'overdue' ? dayAt(addAuditDays(windowEnd, 1), '01:05') : null,
          notes: a.notes ?? null,
          createdBy: priya,
          createdAt: at(0, '00:05'),
        })
        .returning();
      const audit = row!;
      // The history as recordAudit writes it, dated when each step happened so that the timeline reads in order.
      const log = (createdAt: Date, action: string, actorUserId: string | null, changes: Record<string, unknown>) =>
        tx.insert(auditLog).values({ actorUserId, action, entity: AUDIT_ENTITY, entityId: audit.id, changes, createdAt });
      await log(audit.createdAt, 'audit_created', null, { schedule_id: schedule!.id, due_date: dueDate });
      if (audit.overdueAt) await log(audit.overdueAt, 'audit_overdue', null, { diff: { status: { from: 'scheduled', to: 'overdue' } } });
      if (!started) continue;
      await log(startedAt, 'audit_started', auditor, { diff: { status: { from: 'scheduled', to: 'in_progress' } }, comment: null });

      // The answers, then what they earn by the module's own rules.
      const questions = auditFormQuestions(form);
      const keyed = new Map(
        TEMPLATES[d.template]!.sections.flatMap(([, qs]) => qs).map((def) => [def.key, questions.find((q) => q.label === def.label)!]),
      );
      for (const [n, [key, answer]] of Object.entries(a.answers ?? {}).entries()) {
        const q = keyed.get(key)!;
        const [value, remark] = typeof answer === 'string' ? [answer, null] : answer;
        await tx.insert(auditAnswers).values({
          auditId: audit.id,
          questionId: q.id,
          cells: cellsOf(q, value, dueDate),
          remark,
          answered: true,
          answeredBy: auditor,
          answeredAt: later(startedAt, 3 * n + 2),
        });
      }
      const answers = await answersOf(tx, audit.id);
      const s = scoreOf(form, answers);
      await storeResults(tx, audit, answers, s);
      for (const r of s.results.filter((x) => x.critical_failed))
        await log(later(startedAt, 20), 'audit_critical_failure', auditor, {
          question_id: r.question_id,
          comment: questions.find((q) => q.id === r.question_id)!.label,
        });

      for (const f of a.findings ?? []) {
        const actionId = await seedSourceAction(tx, {
          sourceType: 'audit',
          sourceId: audit.id,
          siteId: site.id,
          description: f.description,
          control: f.control,
          responsibleId: auditee,
          createdBy: auditor,
          dueDate: addAuditDays(today, f.dueInDays),
          status: f.status,
          remarks: f.remarks ?? null,
          raisedAt: later(startedAt, 60),
          doneAt: decidedAt,
        });
        await tx.insert(auditKeyFindings).values({
          auditId: audit.id,
          questionId: keyed.get(f.question)!.id,
          description: f.description,
          actionId,
          createdBy: auditor,
          createdAt: later(startedAt, 60),
        });
        await log(later(startedAt, 60), 'audit_key_findings_added', auditor, { actions: [actionId], comment: f.description });
      }
      if (!finished) continue;
      await log(completedAt, 'audit_completed', auditor, {
        diff: { status: { from: 'in_progress', to: 'completed' } },
        score: s.score,
        comment: null,
      });
      const outcome = a.status === 'completed' ? 'pending' : (a.status as 'approved' | 'rejected');
      const decider = await seedReviewRound(tx, 'audits', audit.id, await describeForReview(tx, audit.id), {
        submittedAt: completedAt,
        outcome,
        decidedAt,
        comment: a.decision ?? null,
        approver: admin.id,
      });
      if (outcome === 'pending') continue;
      await tx
        .update(audits)
        .set({ decidedAt, decidedBy: decider, decisionComment: a.decision ?? null })
        .where(eq(audits.id, audit.id));
      await log(decidedAt, `audit_${outcome}`, decider, {
        diff: { status: { from: 'completed', to: outcome } },
        comment: a.decision ?? null,
      });
    }
  }
  if (serial > 0)
    await tx
      .insert(auditSerials)
      .values({ lastSerial: serial })
      .onConflictDoUpdate({
        target: auditSerials.organizationId,
        set: { lastSerial: sql`greatest(${auditSerials.lastSerial}, ${serial})` },
      });
}

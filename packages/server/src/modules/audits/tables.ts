import type {
  AuditAnswerCell,
  AuditForm,
  AuditFrequency,
  AuditIcon,
  AuditNotify,
  AuditOption,
  AuditResponseType,
  AuditStatus,
  AuditType,
} from '@bulwark/domain';
import { boolean, date, doublePrecision, integer, jsonb, pgTable, primaryKey, smallint, text, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0190–0193 (audit templates, schedules, audits, report settings). */

export const auditTemplates = pgTable(
  'audit_templates',
  {
    organizationId: orgId(),
    id: id(),
    name: text('name').notNull(),
    description: text('description'),
    icon: text('icon').notNull().$type<AuditIcon>(),
    type: text('type').notNull().$type<AuditType>(),
    scoring: boolean('scoring').notNull().default(true),
    declaration: text('declaration'),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const auditTemplateSections = pgTable(
  'audit_template_sections',
  {
    organizationId: orgId(),
    id: id(),
    templateId: uuid('template_id').notNull(),
    name: text('name').notNull(),
    position: smallint('position').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

/** A stored option (the domain's AuditOption without `added`, which only an audit's copy carries). */
export type StoredOption = Omit<AuditOption, 'added'>;

export const auditTemplateQuestions = pgTable(
  'audit_template_questions',
  {
    organizationId: orgId(),
    id: id(),
    templateId: uuid('template_id').notNull(),
    sectionId: uuid('section_id').notNull(),
    position: smallint('position').notNull(),
    type: text('type').notNull().$type<AuditResponseType>(),
    label: text('label').notNull(),
    description: text('description'),
    required: boolean('required').notNull().default(true),
    critical: boolean('critical').notNull().default(false),
    score: doublePrecision('score').notNull().default(0),
    expected: text('expected').$type<'yes' | 'no'>(),
    allowNa: boolean('allow_na').notNull().default(false),
    multiple: boolean('multiple').notNull().default(false),
    options: jsonb('options').notNull().default([]).$type<StoredOption[]>(),
    addOptions: boolean('add_options').notNull().default(false),
    minValue: doublePrecision('min_value'),
    maxValue: doublePrecision('max_value'),
    attachments: boolean('attachments').notNull().default(false),
    rowHeaders: text('row_headers').array().notNull().default([]),
    parentQuestionId: uuid('parent_question_id'),
    parentOptionKey: text('parent_option_key'),
    notify: jsonb('notify').$type<AuditNotify>(),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const auditSchedules = pgTable(
  'audit_schedules',
  {
    organizationId: orgId(),
    id: id(),
    templateId: uuid('template_id').notNull(),
    siteNodeId: uuid('site_node_id'),
    auditorId: uuid('auditor_id').notNull(),
    auditeeId: uuid('auditee_id'),
    frequency: text('frequency').notNull().$type<AuditFrequency>(),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const auditScheduleSites = pgTable(
  'audit_schedule_sites',
  {
    organizationId: orgId(),
    scheduleId: uuid('schedule_id').notNull(),
    siteId: uuid('site_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.scheduleId, t.siteId] })],
);

export const auditSerials = pgTable('audit_serials', {
  organizationId: orgId().primaryKey(),
  lastSerial: integer('last_serial').notNull(),
});

export const audits = pgTable(
  'audits',
  {
    organizationId: orgId(),
    id: id(),
    serial: integer('serial').notNull(),
    templateId: uuid('template_id').notNull(),
    scheduleId: uuid('schedule_id'),
    siteId: uuid('site_id').notNull(),
    siteNodeId: uuid('site_node_id'),
    auditorId: uuid('auditor_id').notNull(),
    auditeeId: uuid('auditee_id'),
    frequency: text('frequency').notNull().$type<AuditFrequency>(),
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    windowEnd: date('window_end', { mode: 'string' }).notNull(),
    status: text('status').notNull().default('scheduled').$type<AuditStatus>(),
    form: jsonb('form').$type<AuditForm>(),
    startedAt: ts('started_at'),
    startedBy: uuid('started_by'),
    completedAt: ts('completed_at'),
    completedBy: uuid('completed_by'),
    completedOn: date('completed_on', { mode: 'string' }),
    decidedAt: ts('decided_at'),
    decidedBy: uuid('decided_by'),
    decisionComment: text('decision_comment'),
    declarationAccepted: boolean('declaration_accepted').notNull().default(false),
    overdueAt: ts('overdue_at'),
    notes: text('notes'),
    scoreObtained: doublePrecision('score_obtained').notNull().default(0),
    scoreAssigned: doublePrecision('score_assigned').notNull().default(0),
    scorePercent: doublePrecision('score_percent'),
    failedCount: integer('failed_count').notNull().default(0),
    criticalFailedCount: integer('critical_failed_count').notNull().default(0),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const auditAnswers = pgTable(
  'audit_answers',
  {
    organizationId: orgId(),
    auditId: uuid('audit_id').notNull(),
    questionId: uuid('question_id').notNull(),
    cells: jsonb('cells').notNull().$type<AuditAnswerCell[]>(),
    remark: text('remark'),
    answered: boolean('answered').notNull(),
    failed: boolean('failed').notNull().default(false),
    obtained: doublePrecision('obtained'),
    assigned: doublePrecision('assigned'),
    answeredBy: uuid('answered_by'),
    answeredAt: ts('answered_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.auditId, t.questionId] })],
);

export const auditKeyFindings = pgTable(
  'audit_key_findings',
  {
    organizationId: orgId(),
    id: id(),
    auditId: uuid('audit_id').notNull(),
    questionId: uuid('question_id'),
    description: text('description').notNull(),
    actionId: uuid('action_id'),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export type AuditFileLinkKind = 'answer' | 'audit' | 'finding' | 'report';

export const auditFiles = pgTable(
  'audit_files',
  {
    organizationId: orgId(),
    auditId: uuid('audit_id').notNull(),
    fileId: uuid('file_id').notNull(),
    kind: text('kind').notNull().$type<AuditFileLinkKind>(),
    questionId: uuid('question_id'),
    findingId: uuid('finding_id'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.auditId, t.fileId] })],
);

export const auditReportSends = pgTable(
  'audit_report_sends',
  {
    organizationId: orgId(),
    id: id(),
    auditId: uuid('audit_id').notNull(),
    fileId: uuid('file_id'),
    recipients: text('recipients').array().notNull(),
    sentBy: uuid('sent_by'),
    sentAt: ts('sent_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const auditReportSettings = pgTable('audit_report_settings', {
  organizationId: orgId().primaryKey(),
  logoFileId: uuid('logo_file_id'),
  include: jsonb('include').notNull().default({}).$type<Record<string, boolean>>(),
  headerText: text('header_text'),
  updatedBy: uuid('updated_by'),
  updatedAt: ts('updated_at').notNull().defaultNow(),
});

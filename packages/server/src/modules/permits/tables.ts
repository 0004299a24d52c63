import type {
  AttachmentKind,
  ControlType,
  MasterKind,
  PermitStatus,
  QuestionBinding,
  QuestionType,
  SectionKind,
  WorkerGender,
} from '@bulwark/domain';
import { boolean, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';
import type { StoredAnswers, StoredSection } from './form-snapshot.js';

/** Typed views of migrations/0180_permit_settings.sql, 0181_permits.sql and 0182_permit_boards.sql. */

export const permitTemplates = pgTable(
  'permit_templates',
  {
    organizationId: orgId(),
    id: id(),
    name: text('name').notNull(),
    description: text('description').notNull(),
    prefix: text('prefix').notNull(),
    defaultHours: integer('default_hours').notNull().default(8),
    extensionHours: integer('extension_hours').notNull().default(4),
    extensionDeclaration: text('extension_declaration').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const permitTemplateSections = pgTable(
  'permit_template_sections',
  {
    organizationId: orgId(),
    id: id(),
    templateId: uuid('template_id').notNull(),
    name: text('name').notNull(),
    kind: text('kind').notNull().$type<SectionKind>(),
    position: smallint('position').notNull(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const permitTemplateQuestions = pgTable(
  'permit_template_questions',
  {
    organizationId: orgId(),
    id: id(),
    templateId: uuid('template_id').notNull(),
    sectionId: uuid('section_id').notNull(),
    position: smallint('position').notNull(),
    type: text('type').notNull().$type<QuestionType>(),
    label: text('label').notNull(),
    required: boolean('required').notNull().default(false),
    maxLength: integer('max_length'),
    options: text('options').array().notNull().default([]),
    fileKinds: text('file_kinds').array().notNull().default([]).$type<AttachmentKind[]>(),
    maxFiles: smallint('max_files'),
    maxFileKb: integer('max_file_kb'),
    hiddenValue: text('hidden_value'),
    helpText: text('help_text'),
    referenceImageId: uuid('reference_image_id'),
    conditionQuestionId: uuid('condition_question_id'),
    conditionAnswer: text('condition_answer'),
    binding: text('binding').$type<QuestionBinding>(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const permitTemplateConflicts = pgTable(
  'permit_template_conflicts',
  {
    organizationId: orgId(),
    templateA: uuid('template_a').notNull(),
    templateB: uuid('template_b').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.templateA, t.templateB] })],
);

export const permitMasters = pgTable(
  'permit_masters',
  {
    organizationId: orgId(),
    id: id(),
    kind: text('kind').notNull().$type<MasterKind>(),
    name: text('name').notNull(),
    description: text('description'),
    controlLevel: text('control_level').$type<ControlType>(),
    active: boolean('active').notNull().default(true),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const workProfiles = pgTable(
  'work_profiles',
  {
    organizationId: orgId(),
    id: id(),
    name: text('name').notNull(),
    photoFileId: uuid('photo_file_id'),
    age: smallint('age'),
    phone: text('phone'),
    idNumber: text('id_number'),
    gender: text('gender').$type<WorkerGender>(),
    active: boolean('active').notNull().default(true),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const permitSerials = pgTable('permit_serials', {
  organizationId: orgId().primaryKey(),
  lastSerial: integer('last_serial').notNull(),
});

export const permits = pgTable(
  'permits',
  {
    organizationId: orgId(),
    id: id(),
    serial: integer('serial').notNull(),
    prefix: text('prefix').notNull(),
    templateId: uuid('template_id').notNull(),
    status: text('status').notNull().default('draft').$type<PermitStatus>(),
    requesterId: uuid('requester_id'),
    siteId: uuid('site_id'),
    siteNodeId: uuid('site_node_id'),
    startAt: ts('start_at'),
    /** The site's wall-clock time, 'YYYY-MM-DD HH:mm:ss' as PostgreSQL prints a timestamp. */
    startLocal: timestamp('start_local', { mode: 'string' }),
    endAt: ts('end_at'),
    endLocal: timestamp('end_local', { mode: 'string' }),
    description: text('description'),
    form: jsonb('form').notNull().default([]).$type<StoredSection[]>(),
    answers: jsonb('answers').notNull().default({}).$type<StoredAnswers>(),
    closureAnswers: jsonb('closure_answers').$type<StoredAnswers>(),
    closureComment: text('closure_comment'),
    statusToken: text('status_token').notNull(),
    submittedAt: ts('submitted_at'),
    submittedBy: uuid('submitted_by'),
    approvedAt: ts('approved_at'),
    revokedAt: ts('revoked_at'),
    revokedBy: uuid('revoked_by'),
    revokeComment: text('revoke_comment'),
    closedAt: ts('closed_at'),
    closedBy: uuid('closed_by'),
    pendingNotifiedFor: ts('pending_notified_for'),
    overdueNotifiedFor: ts('overdue_notified_for'),
    clonedFrom: uuid('cloned_from'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const permitWorkers = pgTable(
  'permit_workers',
  {
    organizationId: orgId(),
    permitId: uuid('permit_id').notNull(),
    workerId: uuid('worker_id').notNull(),
    position: smallint('position').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.permitId, t.workerId] })],
);

export const permitFiles = pgTable(
  'permit_files',
  {
    organizationId: orgId(),
    permitId: uuid('permit_id').notNull(),
    fileId: uuid('file_id').notNull(),
    questionId: uuid('question_id'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.permitId, t.fileId] })],
);

export const permitShares = pgTable(
  'permit_shares',
  {
    organizationId: orgId(),
    permitId: uuid('permit_id').notNull(),
    userId: uuid('user_id').notNull(),
    sharedBy: uuid('shared_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.permitId, t.userId] })],
);

export const permitExtensions = pgTable(
  'permit_extensions',
  {
    organizationId: orgId(),
    id: id(),
    permitId: uuid('permit_id').notNull(),
    state: text('state').notNull().default('pending').$type<'pending' | 'approved' | 'rejected' | 'withdrawn'>(),
    declaration: text('declaration').notNull(),
    hours: integer('hours').notNull(),
    requestedBy: uuid('requested_by'),
    requestedAt: ts('requested_at').notNull().defaultNow(),
    endBefore: ts('end_before').notNull(),
    endAfter: ts('end_after'),
    decidedAt: ts('decided_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const permitBoardLinks = pgTable(
  'permit_board_links',
  {
    organizationId: orgId(),
    id: id(),
    siteId: uuid('site_id').notNull(),
    label: text('label').notNull(),
    tokenHash: text('token_hash').notNull(),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    revokedAt: ts('revoked_at'),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

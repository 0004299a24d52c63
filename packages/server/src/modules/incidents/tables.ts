import type {
  BodyPart,
  CapaKind,
  IncidentLikelihood,
  IncidentSeverity,
  IncidentShift,
  IncidentSource,
  IncidentStatus,
  IncidentType,
  InvestigationState,
  KeyFactorCategory,
  OshaCase,
  VictimAgeRange,
  VictimGender,
  VictimType,
} from '@bulwark/domain';
import { boolean, date, integer, jsonb, pgTable, primaryKey, smallint, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { id, orgId, ts } from '../../platform/db/schema.js';

/** Typed views of migrations/0160_incidents.sql. */
export const incidentSerials = pgTable('incident_serials', {
  organizationId: orgId().primaryKey(),
  lastSerial: integer('last_serial').notNull(),
});

export const incidents = pgTable(
  'incidents',
  {
    organizationId: orgId(),
    id: id(),
    serial: integer('serial').notNull(),
    type: text('type').notNull().$type<IncidentType>(),
    categoryId: uuid('category_id'),
    description: text('description').notNull(),
    siteId: uuid('site_id').notNull(),
    siteNodeId: uuid('site_node_id'),
    occurredAt: ts('occurred_at').notNull(),
    /** The site's wall-clock time, 'YYYY-MM-DD HH:mm:ss' as PostgreSQL prints a timestamp. */
    occurredLocal: timestamp('occurred_local', { mode: 'string' }).notNull(),
    shift: text('shift').$type<IncidentShift>(),
    severity: text('severity').$type<IncidentSeverity>(),
    likelihood: text('likelihood').$type<IncidentLikelihood>(),
    investigationRequired: boolean('investigation_required').notNull(),
    actionTaken: text('action_taken').notNull(),
    oshaWorkRelated: boolean('osha_work_related'),
    reporterId: uuid('reporter_id'),
    reporterName: text('reporter_name'),
    reporterEmail: text('reporter_email'),
    source: text('source').notNull().$type<IncidentSource>(),
    status: text('status').notNull().default('open').$type<IncidentStatus>(),
    investigationState: text('investigation_state').notNull().$type<InvestigationState>(),
    leadId: uuid('lead_id'),
    targetDate: date('target_date', { mode: 'string' }),
    conclusion: text('conclusion'),
    lessonsLearned: text('lessons_learned'),
    closingRemarks: text('closing_remarks'),
    closedAt: ts('closed_at'),
    closedBy: uuid('closed_by'),
    overdueNotifiedFor: date('overdue_notified_for', { mode: 'string' }),
    createdBy: uuid('created_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const incidentVictims = pgTable(
  'incident_victims',
  {
    organizationId: orgId(),
    id: id(),
    incidentId: uuid('incident_id').notNull(),
    position: smallint('position').notNull(),
    type: text('type').notNull().$type<VictimType>(),
    name: text('name').notNull(),
    employeeId: text('employee_id'),
    gender: text('gender').notNull().$type<VictimGender>(),
    ageRange: text('age_range').$type<VictimAgeRange>(),
    bodyParts: text('body_parts').array().notNull().default([]).$type<BodyPart[]>(),
    injuryDetails: text('injury_details'),
    takenToHospital: boolean('taken_to_hospital').notNull().default(false),
    treatment: text('treatment'),
    returnToWorkDate: date('return_to_work_date', { mode: 'string' }),
    osha: jsonb('osha').$type<OshaCase>(),
    oshaSiteId: uuid('osha_site_id'),
    oshaCaseYear: integer('osha_case_year'),
    oshaCaseNo: integer('osha_case_no'),
    createdAt: ts('created_at').notNull().defaultNow(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const incidentAttachments = pgTable(
  'incident_attachments',
  {
    organizationId: orgId(),
    incidentId: uuid('incident_id').notNull(),
    fileId: uuid('file_id').notNull(),
    kind: text('kind').notNull().$type<'report' | 'evidence'>(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.incidentId, t.fileId] })],
);

export const incidentTeamMembers = pgTable(
  'incident_team_members',
  {
    organizationId: orgId(),
    incidentId: uuid('incident_id').notNull(),
    userId: uuid('user_id').notNull(),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.incidentId, t.userId] })],
);

export const incidentTimeline = pgTable(
  'incident_timeline',
  {
    organizationId: orgId(),
    id: id(),
    incidentId: uuid('incident_id').notNull(),
    position: smallint('position').notNull(),
    atLocal: timestamp('at_local', { mode: 'string' }).notNull(),
    description: text('description').notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const incidentWitnesses = pgTable(
  'incident_witnesses',
  {
    organizationId: orgId(),
    id: id(),
    incidentId: uuid('incident_id').notNull(),
    position: smallint('position').notNull(),
    name: text('name').notNull(),
    userId: uuid('user_id'),
    statement: text('statement').notNull(),
    contact: text('contact'),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const incidentFactors = pgTable(
  'incident_factors',
  {
    organizationId: orgId(),
    id: id(),
    incidentId: uuid('incident_id').notNull(),
    position: smallint('position').notNull(),
    category: text('category').notNull().$type<KeyFactorCategory>(),
    description: text('description').notNull(),
    whys: text('whys').array().notNull().default([]),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

export const incidentFactorRootCauses = pgTable(
  'incident_factor_root_causes',
  {
    organizationId: orgId(),
    factorId: uuid('factor_id').notNull(),
    rootCauseId: uuid('root_cause_id').notNull(),
    position: smallint('position').notNull(),
    name: text('name').notNull(),
    typeName: text('type_name').notNull(),
    path: text('path').array().notNull(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.factorId, t.rootCauseId] })],
);

export const incidentCapa = pgTable(
  'incident_capa',
  {
    organizationId: orgId(),
    actionId: uuid('action_id').notNull(),
    incidentId: uuid('incident_id').notNull(),
    kind: text('kind').notNull().$type<CapaKind>(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.actionId] })],
);

export const incidentReportSends = pgTable(
  'incident_report_sends',
  {
    organizationId: orgId(),
    id: id(),
    incidentId: uuid('incident_id').notNull(),
    fileId: uuid('file_id'),
    recipients: text('recipients').array().notNull(),
    sentBy: uuid('sent_by'),
    createdAt: ts('created_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.organizationId, t.id] })],
);

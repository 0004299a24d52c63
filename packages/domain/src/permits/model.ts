import { CONTROL_TYPES } from '../actions/schemas.js';
import { PERMIT_DEFAULT_HOURS, PERMIT_EXTENSION_HOURS } from '../constants.js';

/**
 * The vocabulary of permits to work (spec 001 §3 Permit, Worker profile, Permit template, Section,
 * Question; §4; §9; DECISIONS "Modules"; GLOSSARY "Permit to work"). Every list is a stable key; its
 * label is `permits.<list>.<key>` in the four languages.
 */

/**
 * Spec 001 §4. The allowed moves between them are `PERMIT_TRANSITIONS` (./lifecycle.ts), the one place
 * they are written down.
 * - draft: being written; seen only by its requester and the people it was shared with;
 * - requested: submitted, awaiting the issuing officers (the review workflow, or the approve right);
 * - approved: issued; work may go on between its start and end;
 * - extended: issued and extended at least once (an approved extension added hours to its end);
 * - pending_closure: its end time has passed; the closure checklist is awaited;
 * - overdue: still not closed PERMIT_CLOSURE_GRACE_HOURS after its end time;
 * - rejected, revoked, closed: final.
 */
export const PERMIT_STATUSES = [
  'draft',
  'requested',
  'approved',
  'rejected',
  'revoked',
  'extended',
  'overdue',
  'pending_closure',
  'closed',
] as const;
export type PermitStatus = (typeof PERMIT_STATUSES)[number];

/** Issued and not ended: the work is (or may be) going on, and the permit must still be closed. */
export const PERMIT_LIVE_STATUSES = ['approved', 'extended', 'pending_closure', 'overdue'] as const satisfies readonly PermitStatus[];
export type PermitLiveStatus = (typeof PERMIT_LIVE_STATUSES)[number];
export const PERMIT_FINAL_STATUSES = ['rejected', 'revoked', 'closed'] as const satisfies readonly PermitStatus[];

export function isLiveStatus(s: PermitStatus): s is PermitLiveStatus {
  return (PERMIT_LIVE_STATUSES as readonly PermitStatus[]).includes(s);
}

/**
 * The list's tabs are the spec's seven (DECISIONS). "approved" holds every issued permit that has not
 * ended (approved, extended, pending closure, overdue); `PERMIT_FLAGS` narrow it, and the items carry
 * their own status as a badge.
 */
export const PERMIT_TABS = ['all', 'requested', 'drafts', 'approved', 'revoked', 'rejected', 'closed'] as const;
export type PermitTab = (typeof PERMIT_TABS)[number];
export const PERMIT_TAB_STATUSES: Record<Exclude<PermitTab, 'all'>, readonly PermitStatus[]> = {
  requested: ['requested'],
  drafts: ['draft'],
  approved: PERMIT_LIVE_STATUSES,
  revoked: ['revoked'],
  rejected: ['rejected'],
  closed: ['closed'],
};
/** Filters (and badges) beyond the tabs: the statuses an issued permit moves through. */
export const PERMIT_FLAGS = ['extended', 'overdue', 'pending_closure'] as const;
export type PermitFlag = (typeof PERMIT_FLAGS)[number];

/** The list shows the last six months unless a date range is asked for. */
export const PERMIT_LIST_DEFAULT_MONTHS = 6;
export const PERMIT_PAGE_SIZE = 25;

/**
 * After its end time a permit is "pending closure" at once (the work time has ended; the closure
 * checklist is due); if it is still not closed this many hours later it is "overdue". Two hours cover
 * the tidy-up and the hand-back of a shift; the hourly job marks both (./lifecycle.ts `permitTimeStatus`).
 */
export const PERMIT_CLOSURE_GRACE_HOURS = 2;

/** Template defaults (spec 000 §9, 001 §3): hours from start, and hours an approved extension adds. */
export const PERMIT_TEMPLATE_DEFAULT_HOURS = PERMIT_DEFAULT_HOURS;
export const PERMIT_TEMPLATE_EXTENSION_HOURS = PERMIT_EXTENSION_HOURS;
/** Longest a permit may run from start to end (and what an extension may reach): a week. */
export const PERMIT_MAX_HOURS = 7 * 24;
export const PERMIT_EXTENSION_MAX_HOURS = 24;

/**
 * Question types (spec 001 §3): the seven form fields, the location lists from the sites master, and
 * the lists from the four permit masters.
 */
export const QUESTION_TYPES = [
  'text_field',
  'text_area',
  'attachment',
  'radio_button',
  'date_only',
  'time',
  'hidden_field',
  'site',
  'division',
  'department',
  'unit',
  'hierarchy_of_controls',
  'activity_master',
  'equipment_master',
  'rescue_master',
] as const;
export type QuestionType = (typeof QUESTION_TYPES)[number];

/** The masters behind the list questions (admin only, spec 000 §6): the four lists a permit form draws on. */
export const MASTER_KINDS = ['hierarchy_of_controls', 'activity', 'equipment', 'rescue'] as const;
export type MasterKind = (typeof MASTER_KINDS)[number];
/** Which master a list question picks from. */
export const MASTER_OF_QUESTION = {
  hierarchy_of_controls: 'hierarchy_of_controls',
  activity_master: 'activity',
  equipment_master: 'equipment',
  rescue_master: 'rescue',
} as const satisfies Partial<Record<QuestionType, MasterKind>>;
export type MasterQuestionType = keyof typeof MASTER_OF_QUESTION;
export function isMasterQuestion(t: QuestionType): t is MasterQuestionType {
  return t in MASTER_OF_QUESTION;
}
/** A hierarchy-of-controls entry names its level (GLOSSARY: elimination … PPE, in order of preference). */
export const CONTROL_LEVELS = CONTROL_TYPES;

/**
 * The default sections every new template starts with (spec 001 §3), by kind. Location and duration
 * feed the permit's own site, area, start and end; closure is answered when the permit is closed.
 * They and their bound questions cannot be removed; custom sections (and the night-work checklist)
 * can.
 */
export const SECTION_KINDS = ['location', 'duration', 'night_work', 'closure', 'custom'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];
export const FIXED_SECTION_KINDS = ['location', 'duration', 'closure'] as const satisfies readonly SectionKind[];
export function isFixedSection(kind: SectionKind): boolean {
  return (FIXED_SECTION_KINDS as readonly SectionKind[]).includes(kind);
}

/**
 * What a fixed question feeds: the location questions give the permit's site and area, the duration
 * questions its start and end (local date and time at the site). Their answers are the permit's own
 * fields (`site_id`, `site_node_id`, `start_at`, `end_at`), never `answers`.
 */
export const QUESTION_BINDINGS = ['site', 'division', 'department', 'unit', 'start_date', 'start_time', 'end_date', 'end_time'] as const;
export type QuestionBinding = (typeof QUESTION_BINDINGS)[number];

/** Attachment questions accept these kinds of file (each a set of the attachment rule's types). */
export const ATTACHMENT_KINDS = ['image', 'pdf', 'document', 'video'] as const;
export type AttachmentKind = (typeof ATTACHMENT_KINDS)[number];
export const ATTACHMENT_KIND_TYPES: Record<AttachmentKind, readonly string[]> = {
  image: ['image/jpeg', 'image/png', 'image/gif', 'image/webp'],
  pdf: ['application/pdf'],
  document: [
    'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    'application/msword',
    'application/vnd.ms-excel',
    'application/vnd.ms-powerpoint',
    'application/x-cfb',
  ],
  video: ['video/mp4'],
};

/** Spec 001 §3 worker profile: gender male or female. */
export const WORKER_GENDERS = ['male', 'female'] as const;
export type WorkerGender = (typeof WORKER_GENDERS)[number];
export const WORKER_AGE_MIN = 16;
export const WORKER_AGE_MAX = 90;

export const PERMIT_TEMPLATE_NAME_MAX = 100;
export const PERMIT_TEMPLATE_DESCRIPTION_MAX = 1000;
export const PERMIT_PREFIX_PATTERN = /^[A-Z][A-Z0-9]{0,9}$/;
export const PERMIT_SECTIONS_MAX = 30;
export const PERMIT_QUESTIONS_PER_SECTION_MAX = 60;
export const PERMIT_QUESTION_LABEL_MAX = 500;
export const PERMIT_OPTIONS_MAX = 20;
export const PERMIT_OPTION_MAX = 100;
export const PERMIT_TEXT_FIELD_MAX = 255;
export const PERMIT_TEXT_AREA_MAX = 4000;
export const PERMIT_DECLARATION_MAX = 2000;
export const PERMIT_COMMENT_MAX = 2000;
export const PERMIT_DESCRIPTION_MAX = 4000;
export const PERMIT_WORKERS_MAX = 100;
export const PERMIT_ATTACHMENTS_MAX = 20;
export const PERMIT_MASTER_PICKS_MAX = 50;
export const PERMIT_MASTER_NAME_MAX = 200;
export const PERMIT_MASTER_IMPORT_MAX_ROWS = 1000;
export const PERMIT_BOARD_LINKS_MAX = 50;
/** The board shows what is live now and what starts within this many hours. */
export const PERMIT_BOARD_HORIZON_HOURS = 24;
/** How often a board without a live connection (a wall screen's link) reads itself again. */
export const PERMIT_BOARD_REFRESH_SECONDS = 30;

/** 'HW-0007': the template's prefix and the organisation's serial (numbers run across all templates). */
export function formatPermitNumber(prefix: string, serial: number): string {
  return `${prefix}-${String(serial).padStart(4, '0')}`;
}

/** 'HW-0007', 'hw-7' or '7' -> 7; null when the text is not a permit number. */
export function parsePermitSerial(text: string): number | null {
  const m = /^(?:[a-z][a-z0-9]{0,9}-)?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : null;
}

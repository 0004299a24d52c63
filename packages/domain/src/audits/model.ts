/**
 * The audit module's vocabulary (spec 001 §2–§9 Audit; DECISIONS "Modules"; GLOSSARY "Audit /
 * inspection"). Every list is a stable key; its label is `audits.<list>.<key>` in the four languages.
 *
 * An audit (or inspection) is a checklist, the template, run against a site: scheduled by a schedule
 * (or once), started by its auditor, answered question by question, scored, its key findings raised as
 * actions, completed, then approved or rejected through the review workflow.
 */

/**
 * Spec 001 §4. DECISIONS: an audit is "scheduled" until started, then "in progress". Overdue: its
 * window passed at the site before it was completed (set by the sweep). Rejected audits go back to
 * their auditor, who resumes them.
 */
export const AUDIT_STATUSES = ['scheduled', 'in_progress', 'overdue', 'completed', 'approved', 'rejected'] as const;
export type AuditStatus = (typeof AUDIT_STATUSES)[number];

/**
 * The tabs of the list `/audits/{type}` (spec 001 §2: Scheduled, In Progress, Overdue, Completed,
 * Approved). A rejected audit is back with its auditor, so the In Progress tab holds it (with its own
 * status shown). DECISIONS: `/audits/{type}` and `/audits/{id}` share a shape; these slugs are the types.
 */
export const AUDIT_TABS = ['scheduled', 'in_progress', 'overdue', 'completed', 'approved'] as const;
export type AuditTab = (typeof AUDIT_TABS)[number];

/** The statuses each tab lists. */
export const AUDIT_TAB_STATUSES: Record<AuditTab, readonly AuditStatus[]> = {
  scheduled: ['scheduled'],
  in_progress: ['in_progress', 'rejected'],
  overdue: ['overdue'],
  completed: ['completed'],
  approved: ['approved'],
};

/** The list's two views (spec 001 §2 "by audit or by site"). */
export const AUDIT_LIST_VIEWS = ['audit', 'site'] as const;
export type AuditListView = (typeof AUDIT_LIST_VIEWS)[number];

/** What a path segment after /audits/ names: a tab (a fixed slug) or an audit (a UUID); null for neither. */
export function auditRouteParam(segment: string): { kind: 'tab'; tab: AuditTab } | { kind: 'id'; id: string } | null {
  if ((AUDIT_TABS as readonly string[]).includes(segment)) return { kind: 'tab', tab: segment as AuditTab };
  if (UUID.test(segment)) return { kind: 'id', id: segment.toLowerCase() };
  return null;
}
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The kind of audit a template is (the list and calendar filter "type"). */
export const AUDIT_TYPES = ['safety', 'health', 'environment', 'fire', 'equipment', 'housekeeping', 'ppe', 'quality', 'other'] as const;
export type AuditType = (typeof AUDIT_TYPES)[number];

/** The icons a template may show (the web draws each key). */
export const AUDIT_ICONS = [
  'clipboard',
  'hard_hat',
  'fire',
  'forklift',
  'chemical',
  'electric',
  'first_aid',
  'leaf',
  'building',
  'truck',
] as const;
export type AuditIcon = (typeof AUDIT_ICONS)[number];

/** Spec: once, daily, weekly, monthly, quarterly, half-yearly, yearly. */
export const AUDIT_FREQUENCIES = ['once', 'daily', 'weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly'] as const;
export type AuditFrequency = (typeof AUDIT_FREQUENCIES)[number];

/**
 * How a question is answered (spec 001 §3 "response types"):
 * - yes_no: yes, no or not applicable; `expected` says which of yes/no complies;
 * - choice: options with a score each, one or (`multiple`, the spec's isMulti) several chosen;
 * - text, number (optionally an acceptable range), date;
 * - photo: pictures taken on the spot; signature: a signature drawn as an image.
 */
export const AUDIT_RESPONSE_TYPES = ['yes_no', 'choice', 'text', 'number', 'date', 'photo', 'signature'] as const;
export type AuditResponseType = (typeof AUDIT_RESPONSE_TYPES)[number];

/** The fixed options of a yes/no question, as conditions and notices name them. */
export const AUDIT_YES_NO_OPTIONS = ['yes', 'no', 'na'] as const;
export type AuditYesNoOption = (typeof AUDIT_YES_NO_OPTIONS)[number];

/** Types a score can be given to: the others record facts (text, date, pictures, a signature). */
export const AUDIT_SCORED_TYPES: readonly AuditResponseType[] = ['yes_no', 'choice', 'number'];

/** Who an answer's notice goes to besides the people named (spec 001 §3 isNotify, notify_attr). */
export const AUDIT_NOTIFY_ROLES = ['head_of_safety', 'auditee', 'auditor'] as const;
export type AuditNotifyRole = (typeof AUDIT_NOTIFY_ROLES)[number];

/** What an audit links files for: an answer's, the audit's own attachments, a key finding's pictures. */
export const AUDIT_FILE_KINDS = ['answer', 'audit', 'finding'] as const;
export type AuditFileKind = (typeof AUDIT_FILE_KINDS)[number];

/** Parts of the report an organisation may leave out (report settings, "what to include"). */
export const AUDIT_REPORT_PARTS = [
  'scorecard',
  'section_summary',
  'responses',
  'key_findings',
  'action_items',
  'timeline',
  'attachments',
  'notes',
] as const;
export type AuditReportPart = (typeof AUDIT_REPORT_PARTS)[number];

/* ---- Limits ---- */

export const AUDIT_NAME_MAX = 150;
export const AUDIT_DESCRIPTION_MAX = 2000;
export const AUDIT_DECLARATION_MAX = 2000;
export const AUDIT_SECTION_NAME_MAX = 150;
export const AUDIT_SECTIONS_MAX = 50;
export const AUDIT_QUESTIONS_PER_SECTION_MAX = 100;
export const AUDIT_QUESTION_LABEL_MAX = 500;
export const AUDIT_OPTION_LABEL_MAX = 200;
export const AUDIT_OPTIONS_MAX = 20;
export const AUDIT_ROW_HEADERS_MAX = 20;
/** A score per question and per option: whole or half points, up to 100. */
export const AUDIT_SCORE_MAX = 100;
export const AUDIT_TEXT_ANSWER_MAX = 4000;
export const AUDIT_REMARK_MAX = 2000;
export const AUDIT_NOTES_MAX = 8000;
export const AUDIT_FILES_PER_ANSWER_MAX = 10;
export const AUDIT_ATTACHMENTS_MAX = 20;
export const AUDIT_FINDINGS_PER_CALL_MAX = 20;
export const AUDIT_PICTURES_PER_FINDING_MAX = 5;
export const AUDIT_SCHEDULE_SITES_MAX = 50;
export const AUDIT_NOTIFY_USERS_MAX = 10;
export const AUDIT_REPORT_RECIPIENTS_MAX = 30;
export const AUDIT_PAGE_SIZE = 25;

/**
 * The free account (DECISIONS: a plan of its own with the spec's limits; the app holds it as the
 * `cancelled` subscription, which also has no permits). Spec 001 §8-§9: 10 audits a month ("audit limit
 * of 10 per month"), and limits on templates ("no permission to add more audit templates") and
 * schedules ("audit schedule limit reached"), whose numbers the spec leaves open.
 */
export const FREE_ACCOUNT_AUDIT_LIMITS = { auditsPerMonth: 10, templates: 5, schedules: 10 } as const;

export function isFreeAccount(subscriptionType: string | null | undefined): boolean {
  return subscriptionType === 'cancelled';
}

/* ---- Serials ---- */

/** 'AUD-000123': the serial people read and search for; numbers are per organisation. */
export function formatAuditSerial(serial: number): string {
  return `AUD-${String(serial).padStart(6, '0')}`;
}

/** 'AUD-000123', 'aud-123' or '123' -> 123; null when the text is not a serial. */
export function parseAuditSerial(text: string): number | null {
  const m = /^(?:aud-?)?0*(\d{1,9})$/i.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/** Where an audit opens in the web app (notification and mail links). */
export function auditPath(id: string): string {
  return `/audits/${id}/summary`;
}

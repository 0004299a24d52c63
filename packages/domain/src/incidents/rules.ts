import { INVESTIGATION_STEPS, type IncidentStatus, type InvestigationState, type InvestigationStep } from './model.js';

/**
 * The incident's pure rules: its status against the target date, where the investigation stands,
 * and who may do what. The server enforces them; the web reads the answers (`permissions`,
 * `investigation.steps`) to show only what will be accepted.
 */

/**
 * The status the target date gives (DECISIONS: overdue once the investigation's target date has
 * passed at the site and the incident is not closed). `today` is the site's local date. An overdue
 * incident whose target date moves to today or later is open again; closed is final.
 */
export function incidentStatusFor(current: IncidentStatus, targetDate: string | null, today: string): IncidentStatus {
  if (current === 'closed') return 'closed';
  return targetDate !== null && targetDate < today ? 'overdue' : 'open';
}

/** What the step rules read of an incident. */
export type InvestigationSnapshot = {
  investigationRequired: boolean;
  leadId: string | null;
  targetDate: string | null;
  memberIds: readonly string[];
  timelineCount: number;
  factorCount: number;
  /** Root causes picked over all factors' why-why analyses. */
  rootCauseCount: number;
  capaCount: number;
  conclusion: string | null;
  state: InvestigationState;
};

/** Whether each step's work is done (step 1, the report, is done once the incident exists). */
export function stepsDone(s: InvestigationSnapshot): Record<InvestigationStep, boolean> {
  return {
    report: true,
    team: s.leadId !== null && s.targetDate !== null && s.memberIds.length > 0,
    facts: s.timelineCount > 0,
    key_factors: s.factorCount > 0,
    why_analysis: s.rootCauseCount > 0,
    actions: s.capaCount > 0,
    record: s.state === 'approved',
  };
}

/**
 * The step the investigation stands at (1..7): the first whose work is not done. An incident without
 * an investigation stays at step 1; an approved one stands at 7 (record and communicate).
 */
export function currentInvestigationStep(s: InvestigationSnapshot): number {
  if (!s.investigationRequired) return 1;
  const done = stepsDone(s);
  const open = INVESTIGATION_STEPS.findIndex((step) => !done[step]);
  return open === -1 ? INVESTIGATION_STEPS.length : open + 1;
}

/**
 * What is missing before the team may submit the investigation for review (i18n keys, by step):
 * the team and target date, at least one event of the timeline, one key factor, one root cause from
 * a why-why analysis, one CAPA action, and the conclusion.
 */
export function submitProblems(s: InvestigationSnapshot): string[] {
  const done = stepsDone(s);
  const out: string[] = [];
  if (!s.investigationRequired) out.push('incidents.validation.noInvestigation');
  if (!done.team) out.push('incidents.validation.teamMissing');
  if (!done.facts) out.push('incidents.validation.factsMissing');
  if (!done.key_factors) out.push('incidents.validation.factorsMissing');
  if (!done.why_analysis) out.push('incidents.validation.rootCausesMissing');
  if (!done.actions) out.push('incidents.validation.capaMissing');
  if (!s.conclusion) out.push('incidents.validation.conclusionMissing');
  return out;
}

/** The viewer, as the ability rules see them: their id and their Incident (and Action) rights. */
export type IncidentViewer = {
  userId: string;
  canUpdate: boolean;
  canClose: boolean;
  canDelete: boolean;
};

/** The record, as the ability rules see it. */
export type IncidentForAbilities = {
  status: IncidentStatus;
  state: InvestigationState;
  investigationRequired: boolean;
  leadId: string | null;
  memberIds: readonly string[];
  /** The review engine's answer: the viewer is a reviewer (or stand-in) whose decision the review waits for now. */
  viewerMayDecide: boolean;
  actionCount: number;
  snapshot: InvestigationSnapshot;
};

export type IncidentAbilities = {
  /** Step 1: the report's fields, victims and attachments. */
  edit_report: boolean;
  /** Step 2: lead, members, target date. */
  edit_team: boolean;
  /** Steps 3, 4, 5 and 7's record (facts, key factors, why-why, conclusion). */
  edit_investigation: boolean;
  /** Step 6: raise CAPA actions. */
  add_actions: boolean;
  submit: boolean;
  decide: boolean;
  close: boolean;
  send_report: boolean;
  delete: boolean;
  /** Why submitting is not possible yet (i18n keys), empty when it is or when it is not the viewer's to do. */
  submit_blocked_by: string[];
  /** Why closing is not possible yet (an i18n key), or null. */
  close_blocked_by: string | null;
};

const EDITABLE_STATES: readonly InvestigationState[] = ['not_required', 'awaiting_team', 'in_progress', 'returned'];
const NEVER_SUBMITTED: readonly InvestigationState[] = ['not_required', 'awaiting_team', 'in_progress'];

/**
 * Who may do what (the module's rights, docs/modules.md "Incidents"):
 * - Reading needs Incident read (the route's guard).
 * - While the investigation is not under review or approved, the report (step 1) and the
 *   investigation (steps 3–7 and CAPA) are edited by the team (lead and members) and by Incident
 *   update holders. The team (step 2) is formed by Incident update holders, and re-formed by its lead.
 * - Under review, only the reviewers whose turn it is may correct the record (and decide); the team
 *   waits. Once approved the record is frozen: only closing and sending the report remain.
 * - Submitting is for the lead or Incident update holders, once every step is done.
 * - Closing needs Incident close, closing remarks, and the investigation approved (or not required).
 * - Sending the report is for the lead and Incident update holders.
 * - Deleting needs Incident delete, and only before any CAPA action exists or a review started.
 * - A closed incident is read-only for everybody.
 */
export function incidentAbilities(r: IncidentForAbilities, v: IncidentViewer): IncidentAbilities {
  const closed = r.status === 'closed';
  const lead = r.leadId !== null && r.leadId === v.userId;
  const team = lead || r.memberIds.includes(v.userId);
  const reviewerNow = r.state === 'under_review' && r.viewerMayDecide;
  const editable = !closed && EDITABLE_STATES.includes(r.state);
  const investigating = r.investigationRequired && (r.state === 'in_progress' || r.state === 'returned');
  const editReport = (editable && (team || v.canUpdate)) || (!closed && reviewerNow);
  const editInvestigation = (investigating && (team || v.canUpdate)) || (!closed && reviewerNow);
  const maySubmit = !closed && investigating && (lead || v.canUpdate);
  const problems = maySubmit ? submitProblems(r.snapshot) : [];
  const approvedOrNotNeeded = !r.investigationRequired || r.state === 'approved';
  const closeBlockedBy = closed
    ? 'incidents.validation.closedReadOnly'
    : !v.canClose
      ? 'incidents.validation.closeRight'
      : !approvedOrNotNeeded
        ? 'incidents.validation.notApproved'
        : null;
  return {
    edit_report: editReport,
    edit_team: !closed && r.investigationRequired && EDITABLE_STATES.includes(r.state) && (v.canUpdate || lead),
    edit_investigation: editInvestigation,
    add_actions: editInvestigation,
    submit: maySubmit && problems.length === 0,
    decide: !closed && reviewerNow,
    close: closeBlockedBy === null,
    send_report: (lead || v.canUpdate) && (closed || r.state === 'approved' || !r.investigationRequired),
    delete: v.canDelete && !closed && r.actionCount === 0 && NEVER_SUBMITTED.includes(r.state),
    submit_blocked_by: problems,
    close_blocked_by: closeBlockedBy,
  };
}

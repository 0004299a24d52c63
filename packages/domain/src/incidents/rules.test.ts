import { describe, expect, it } from 'vitest';
import { formatIncidentSerial, incidentRiskLevel, incidentRiskScore, isRatingPending, parseIncidentSerial } from './model.js';
import { incidentCreateBody, incidentUpdateBody } from './report.js';
import {
  currentInvestigationStep,
  incidentAbilities,
  incidentStatusFor,
  submitProblems,
  type IncidentForAbilities,
  type InvestigationSnapshot,
} from './rules.js';

const snapshot = (over: Partial<InvestigationSnapshot> = {}): InvestigationSnapshot => ({
  investigationRequired: true,
  leadId: 'lead',
  targetDate: '2026-06-10',
  memberIds: ['member'],
  timelineCount: 1,
  factorCount: 1,
  rootCauseCount: 1,
  capaCount: 1,
  conclusion: 'Done',
  state: 'in_progress',
  ...over,
});
const record = (over: Partial<IncidentForAbilities> = {}): IncidentForAbilities => ({
  status: 'open',
  state: 'in_progress',
  investigationRequired: true,
  leadId: 'lead',
  memberIds: ['member'],
  viewerMayDecide: false,
  actionCount: 1,
  snapshot: snapshot(),
  ...over,
});
const viewer = (userId: string, rights: Partial<{ canUpdate: boolean; canClose: boolean; canDelete: boolean }> = {}) => ({
  userId,
  canUpdate: false,
  canClose: false,
  canDelete: false,
  ...rights,
});

describe('rating', () => {
  it('is pending until severity and likelihood are both set', () => {
    expect(isRatingPending({ severity: null, likelihood: 'rare' })).toBe(true);
    expect(isRatingPending({ severity: 'minor', likelihood: null })).toBe(true);
    expect(isRatingPending({ severity: 'minor', likelihood: 'rare' })).toBe(false);
  });
  it('scores severity rank × likelihood rank and bands the score', () => {
    expect(incidentRiskScore('minor', 'rare')).toBe(1);
    expect(incidentRiskScore('critical', 'certain')).toBe(25);
    expect(incidentRiskScore(null, 'certain')).toBeNull();
    expect([4, 5, 9, 10, 16, 20].map(incidentRiskLevel)).toEqual(['low', 'medium', 'medium', 'high', 'high', 'critical']);
  });
});

describe('serials', () => {
  it('reads INC-000123, inc-123 and 123 alike', () => {
    expect(formatIncidentSerial(123)).toBe('INC-000123');
    expect(['INC-000123', 'inc-123', '123'].map(parseIncidentSerial)).toEqual([123, 123, 123]);
    expect(parseIncidentSerial('OBS-1')).toBeNull();
  });
});

describe('status against the target date (DECISIONS)', () => {
  it('is overdue once the target date has passed at the site, open again when moved, closed for good', () => {
    expect(incidentStatusFor('open', '2026-06-09', '2026-06-10')).toBe('overdue');
    expect(incidentStatusFor('open', '2026-06-10', '2026-06-10')).toBe('open');
    expect(incidentStatusFor('overdue', '2026-06-12', '2026-06-10')).toBe('open');
    expect(incidentStatusFor('closed', '2026-01-01', '2026-06-10')).toBe('closed');
    expect(incidentStatusFor('open', null, '2026-06-10')).toBe('open');
  });
});

describe('the steps', () => {
  it('stand at the first step whose work is missing', () => {
    expect(currentInvestigationStep(snapshot({ leadId: null, state: 'awaiting_team' }))).toBe(2);
    expect(currentInvestigationStep(snapshot({ timelineCount: 0 }))).toBe(3);
    expect(currentInvestigationStep(snapshot({ rootCauseCount: 0 }))).toBe(5);
    expect(currentInvestigationStep(snapshot())).toBe(7);
    expect(currentInvestigationStep(snapshot({ investigationRequired: false }))).toBe(1);
  });
  it('name everything missing before a submission', () => {
    expect(submitProblems(snapshot({ capaCount: 0, conclusion: null }))).toEqual([
      'incidents.validation.capaMissing',
      'incidents.validation.conclusionMissing',
    ]);
  });
});

describe('who may do what (incidentAbilities)', () => {
  it('lets the team and incident managers edit while investigating, and nobody else', () => {
    expect(incidentAbilities(record(), viewer('member')).edit_investigation).toBe(true);
    expect(incidentAbilities(record(), viewer('manager', { canUpdate: true })).edit_investigation).toBe(true);
    expect(incidentAbilities(record(), viewer('stranger')).edit_investigation).toBe(false);
  });
  it('forms the team for managers and the lead only', () => {
    expect(incidentAbilities(record(), viewer('lead')).edit_team).toBe(true);
    expect(incidentAbilities(record(), viewer('member')).edit_team).toBe(false);
  });
  it('under review hands the record to the reviewers whose turn it is', () => {
    const underReview = record({ state: 'under_review', snapshot: snapshot({ state: 'under_review' }) });
    expect(incidentAbilities(underReview, viewer('lead')).edit_investigation).toBe(false);
    expect(incidentAbilities({ ...underReview, viewerMayDecide: true }, viewer('reviewer'))).toMatchObject({
      edit_investigation: true,
      decide: true,
    });
  });
  it('freezes the report for the team and managers under review and once approved', () => {
    const manager = viewer('lead', { canUpdate: true });
    for (const state of ['under_review', 'approved'] as const) {
      const r = record({ state, snapshot: snapshot({ state }) });
      expect(incidentAbilities(r, manager), state).toMatchObject({ edit_report: false, edit_team: false, edit_investigation: false });
      // A stale "may decide" outside a review grants nothing.
      expect(incidentAbilities({ ...r, viewerMayDecide: state === 'approved' }, viewer('x')).decide).toBe(false);
    }
  });
  it('lets the lead submit only when every step is done', () => {
    expect(incidentAbilities(record(), viewer('lead'))).toMatchObject({ submit: true, submit_blocked_by: [] });
    expect(incidentAbilities(record(), viewer('member')).submit).toBe(false);
    const early = incidentAbilities(record({ snapshot: snapshot({ timelineCount: 0 }) }), viewer('lead'));
    expect(early).toMatchObject({ submit: false, submit_blocked_by: ['incidents.validation.factsMissing'] });
  });
  it('closes with the close right once approved, or when no investigation was needed', () => {
    const closer = viewer('x', { canClose: true });
    expect(incidentAbilities(record(), closer).close_blocked_by).toBe('incidents.validation.notApproved');
    expect(incidentAbilities(record({ state: 'approved' }), closer).close).toBe(true);
    expect(incidentAbilities(record({ state: 'not_required', investigationRequired: false }), closer).close).toBe(true);
    expect(incidentAbilities(record({ state: 'approved' }), viewer('x')).close_blocked_by).toBe('incidents.validation.closeRight');
  });
  it('deletes only before any action or submission', () => {
    const deleter = viewer('x', { canDelete: true });
    expect(incidentAbilities(record({ actionCount: 0 }), deleter).delete).toBe(true);
    expect(incidentAbilities(record(), deleter).delete).toBe(false);
    expect(incidentAbilities(record({ actionCount: 0, state: 'returned' }), deleter).delete).toBe(false);
  });
  it('makes a closed incident read-only for everybody', () => {
    const closed = incidentAbilities(
      record({ status: 'closed', state: 'approved' }),
      viewer('lead', { canUpdate: true, canClose: true, canDelete: true }),
    );
    expect(closed).toMatchObject({ edit_report: false, edit_team: false, edit_investigation: false, close: false, delete: false });
  });
});

describe('the report body', () => {
  const base = {
    type: 'injury',
    description: 'x',
    site_id: '0190d5a0-0000-7000-8000-000000000001',
    occurred_at: '2026-06-01T10:00',
    investigation_required: true,
    action_taken: 'First aid',
    victims: [{ type: 'employee', name: 'Ann Lee', gender: 'female' }],
  };
  it('takes a minimal report and leaves the rating pending', () => {
    const parsed = incidentCreateBody.parse({ incident: base });
    expect(parsed.incident).toMatchObject({ severity: null, likelihood: null, attachment_ids: [], osha_work_related: null });
    expect(parsed.incident.victims[0]).toMatchObject({ body_parts: [], taken_to_hospital: false, osha: null });
  });
  it('leaves absent fields of an edit absent (no defaults that would clear attachments)', () => {
    expect(incidentUpdateBody.parse({ description: 'y' })).toEqual({ description: 'y' });
  });
});

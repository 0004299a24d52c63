import { describe, expect, it } from 'vitest';
import { errorsOf } from './step-actions.js';
import {
  createBody,
  emptyOsha,
  emptyReport,
  guestBody,
  ratingPending,
  updateBody,
  withSite,
  withType,
  type ReportDraft,
} from './report-model.js';

const SITE = '0190a0a0-0000-7000-8000-000000000001';
const ZONE = 'Europe/London';
const NOW = new Date('2026-03-10T12:00:00Z');

function filled(): ReportDraft {
  const d = emptyReport();
  return {
    ...d,
    type: 'injury',
    description: 'Hand caught in a roller.',
    site_id: SITE,
    occurred_at: '2026-03-10T11:30',
    investigation_required: true,
    action_taken: 'Belt stopped.',
    victims: [{ ...d.victims[0]!, type: 'contractor', name: 'Marek Nowak', gender: 'male', body_parts: ['left_hand'] }],
  };
}

describe('the incident report form', () => {
  it('sends a whole report', () => {
    const out = createBody(filled(), [], ZONE, NOW);
    expect(out.errors).toBeNull();
    expect(out.body).toMatchObject({
      type: 'injury',
      site_id: SITE,
      victims: [{ name: 'Marek Nowak', body_parts: ['left_hand'], osha: null }],
    });
  });

  it('says what is missing under each field, victims by their place', () => {
    const out = createBody({ ...emptyReport() }, [], ZONE, NOW);
    expect(out.errors).toMatchObject({
      type: 'incidents.validation.type',
      site_id: 'incidents.validation.site',
      description: 'validation.required',
      investigation_required: 'validation.required',
      'victims.0.name': 'incidents.validation.victimName',
      'victims.0.gender': 'incidents.validation.gender',
    });
  });

  it('refuses a time after the present minute at the site', () => {
    expect(createBody({ ...filled(), occurred_at: '2026-03-10T12:30' }, [], ZONE, NOW).errors).toEqual({
      occurred_at: 'incidents.validation.futureTime',
    });
    // The same instant is 20:00 in Singapore: 19:30 there is in the past.
    expect(createBody({ ...filled(), occurred_at: '2026-03-10T19:30' }, [], 'Asia/Singapore', NOW).errors).toBeNull();
  });

  it('keeps an OSHA case for employees and contractors only', () => {
    const d = filled();
    const contractor = { ...d.victims[0]!, osha: { ...emptyOsha(), days_away: '3', day_to_day_supervised: true } };
    expect(createBody({ ...d, victims: [contractor] }, [], ZONE, NOW).body?.victims[0]?.osha).toMatchObject({ days_away: 3 });
    expect(createBody({ ...d, victims: [{ ...contractor, type: 'visitor' }] }, [], ZONE, NOW).body?.victims[0]?.osha).toBeNull();
  });

  it('an edit sends victims with their ids', () => {
    const d = filled();
    const id = '0190a0a0-0000-7000-8000-0000000000aa';
    const out = updateBody({ ...d, victims: [{ ...d.victims[0]!, id }] }, [], ZONE, NOW);
    expect(out.body?.victims?.[0]).toMatchObject({ id });
  });

  it('the guest form sends no category, area, people or OSHA facts', () => {
    const out = guestBody({ ...filled(), reporter_name: 'Sam' }, [], ZONE, NOW);
    expect(out.errors).toBeNull();
    expect(out.body).not.toHaveProperty('category_id');
    expect(out.body?.victims[0]).not.toHaveProperty('osha');
    expect(out.body?.reporter_name).toBe('Sam');
  });

  it('"rating pending" until severity and likelihood are both set', () => {
    expect(ratingPending({ severity: 'minor', likelihood: null })).toBe(true);
    expect(ratingPending({ severity: 'minor', likelihood: 'rare' })).toBe(false);
  });

  it('a site picked sets an untouched time to now on its clock, and drops the area', () => {
    const d = withSite({ ...emptyReport(), site_node_id: 'x' }, SITE, ZONE, NOW);
    expect(d.occurred_at).toBe('2026-03-10T12:00');
    expect(d.site_node_id).toBeNull();
    expect(withSite({ ...d, occurred_at: '2026-03-09T08:00', occurred_at_touched: true }, SITE, 'Asia/Tokyo', NOW).occurred_at).toBe(
      '2026-03-09T08:00',
    );
  });

  it('another type drops the category', () => {
    expect(withType({ ...emptyReport(), type: 'injury', category_id: 'c' }, 'fire').category_id).toBeNull();
  });
});

describe('CAPA errors by group', () => {
  it('numbers preventive rows after the corrective ones, as the server does', () => {
    const errors = { 'actions.0.due_date': 'a', 'actions.2.description': 'b', actions: 'c' };
    expect(errorsOf(errors, 'corrective', 2)).toEqual({ 'corrective.0.due_date': 'a' });
    expect(errorsOf(errors, 'preventive', 2)).toEqual({ 'preventive.0.description': 'b' });
  });
});

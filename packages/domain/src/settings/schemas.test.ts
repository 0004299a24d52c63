import { describe, expect, it } from 'vitest';
import { MAILER_SCENARIO_IDS } from '../mailers/catalogue.js';
import { KPI_DEFAULTS, ehsOcpSchema, emailSubscriptionsSchema, kpiSettingsSchema, kpiYearQuery } from './schemas.js';

const first = (r: { success: boolean; error?: { issues: Array<{ message: string; path: PropertyKey[] }> } }) =>
  r.error ? `${String(r.error.issues[0]?.path[0])}: ${r.error.issues[0]?.message}` : 'ok';

describe('KPI settings', () => {
  it('accepts the defaults', () => {
    expect(kpiSettingsSchema.parse(KPI_DEFAULTS)).toEqual(KPI_DEFAULTS);
  });

  it.each([
    [{ critical_closure_rate_target: 100.01 }, 'critical_closure_rate_target: settings.validation.percent'],
    [{ serious_closure_rate_target: -0.01 }, 'serious_closure_rate_target: settings.validation.percent'],
    [{ ltifr_target: -1 }, 'ltifr_target: settings.validation.nonNegative'],
    [{ training_hours_per_employee: 10_001 }, 'training_hours_per_employee: settings.validation.tooLarge'],
    [{ observations_per_employee_month: Number.NaN }, 'observations_per_employee_month: validation.required'],
    [{ ltifr_target: '1' }, 'ltifr_target: validation.required'],
  ])('refuses %j', (change, message) => {
    expect(first(kpiSettingsSchema.safeParse({ ...KPI_DEFAULTS, ...change }))).toBe(message);
  });

  it('takes a year between 2000 and 2100 from the query string', () => {
    expect(kpiYearQuery.parse({ year: '2026' })).toEqual({ year: 2026 });
    expect(first(kpiYearQuery.safeParse({ year: '1999' }))).toBe('year: settings.validation.year');
    expect(first(kpiYearQuery.safeParse({ year: '2026.5' }))).toBe('year: validation.invalid');
  });
});

describe('EHS OCP', () => {
  it('trims, defaults and accepts codes with . _ / -', () => {
    expect(ehsOcpSchema.parse({ code: ' OCP/HW-01.a_b ', title: ' Hot work ' })).toEqual({
      code: 'OCP/HW-01.a_b',
      title: 'Hot work',
      description: '',
      site_ids: [],
      active: true,
    });
  });

  it.each([['-x'], ['a b'], ['ä1'], ['']])('refuses the code %j', (code) => {
    expect(ehsOcpSchema.safeParse({ code, title: 'T' }).success).toBe(false);
  });
});

describe('e-mail subscriptions', () => {
  it('accepts every scenario and refuses an unknown one', () => {
    expect(
      emailSubscriptionsSchema.safeParse({ subscriptions: MAILER_SCENARIO_IDS.map((scenario_id) => ({ scenario_id, email: false })) })
        .success,
    ).toBe(true);
    expect(emailSubscriptionsSchema.safeParse({ subscriptions: [{ scenario_id: 'nope', email: true }] }).success).toBe(false);
  });
});

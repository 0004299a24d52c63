import { describe, expect, it } from 'vitest';
import {
  MANPOWER_DEFAULT,
  manpowerUpdateSchema,
  manpowerYear,
  normalizeSitePhone,
  siteFullName,
  siteNodeCreateSchema,
  siteSchema,
  siteUpdateSchema,
} from './schemas.js';
import { isSiteTimeZone, siteTimeZones } from './time-zones.js';

const valid = {
  name: 'North Plant',
  time_zone: 'Europe/London',
  head_of_safety_id: '0190a0b0-0000-7000-8000-000000000001',
  emergency_phone: '020 7946 0958',
  address: '1 Dock Road',
  city: 'London',
  state: 'Greater London',
  country: 'GB',
  zip: 'E16 2QU',
};

function problems(value: unknown): Record<string, string> {
  const r = siteSchema.safeParse(value);
  if (r.success) return {};
  return Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
}

describe('siteSchema (spec 001 §3 Site, §5)', () => {
  it('accepts a complete site and fills the optional fields with null', () => {
    const r = siteSchema.parse(valid);
    expect(r.short_name).toBeNull();
    expect(r.latitude).toBeNull();
    expect(r.head_of_site_id).toBeNull();
  });

  it('requires name, time zone, head of safety, phone, address, city, state, country and zip', () => {
    const p = problems({});
    for (const f of ['name', 'time_zone', 'head_of_safety_id', 'emergency_phone', 'address', 'city', 'state', 'country', 'zip']) {
      expect(p[f], f).toBeDefined();
    }
    expect(problems({ ...valid, city: '   ' }).city).toBe('validation.required');
  });

  it.each(['Plant 2', 'North_Plant', 'Site@Home', '-Dash'])('refuses the name %s (letters only)', (name) => {
    expect(problems({ ...valid, name }).name).toBe('sites.validation.nameLetters');
  });

  it.each(["St. John's Works", 'Zürich Süd', 'Ağrı Tesisi', '上海工厂', 'Smith & Sons (East)'])('accepts the name %s', (name) => {
    expect(problems({ ...valid, name })).toEqual({});
  });

  it('checks the time zone against the engine list, accepting UTC and aliases', () => {
    expect(siteTimeZones()).toContain('UTC');
    expect(isSiteTimeZone('Asia/Kolkata')).toBe(true);
    expect(isSiteTimeZone('Mars/Olympus')).toBe(false);
    expect(isSiteTimeZone('+05:30')).toBe(false);
    expect(problems({ ...valid, time_zone: 'Mars/Olympus' }).time_zone).toBe('sites.validation.timeZone');
  });

  it('checks the phone in the site country and gives the international form', () => {
    expect(problems({ ...valid, emergency_phone: '12345' }).emergency_phone).toBe('sites.validation.phone');
    expect(problems({ ...valid, emergency_phone: '0412 345 678' }).emergency_phone).toBe('sites.validation.phone');
    expect(problems({ ...valid, emergency_phone: '+61 412 345 678' })).toEqual({});
    expect(normalizeSitePhone('020 7946 0958', 'GB')).toBe('+442079460958');
  });

  it('checks country, zip, e-mail, site code and coordinates', () => {
    expect(problems({ ...valid, country: 'XX' }).country).toBe('sites.validation.country');
    expect(problems({ ...valid, zip: '!' }).zip).toBe('sites.validation.zip');
    expect(problems({ ...valid, emergency_email: 'nope' }).emergency_email).toBe('validation.email');
    expect(problems({ ...valid, emergency_email: '' })).toEqual({});
    expect(problems({ ...valid, site_code: 'A B' }).site_code).toBe('sites.validation.siteCode');
    expect(problems({ ...valid, latitude: 91 }).latitude).toBe('sites.validation.latitude');
    expect(problems({ ...valid, longitude: -180.5 }).longitude).toBe('sites.validation.longitude');
    expect(problems({ ...valid, latitude: -90, longitude: 180 })).toEqual({});
  });

  it('update takes any non-empty subset', () => {
    expect(siteUpdateSchema.safeParse({}).success).toBe(false);
    expect(siteUpdateSchema.safeParse({ is_active: false }).success).toBe(true);
  });
});

describe('tree and manpower', () => {
  it('node names are required and allow digits', () => {
    expect(siteNodeCreateSchema.safeParse({ name: 'Unit 3' }).success).toBe(true);
    expect(siteNodeCreateSchema.safeParse({ name: ' ' }).success).toBe(false);
    expect(siteNodeCreateSchema.safeParse({ name: 'Bad<script>' }).success).toBe(false);
  });

  it('unset months hold the default of 100 and the year adds up', () => {
    const y = manpowerYear(
      new Map([
        [1, 250],
        [12, 0],
      ]),
    );
    expect(y.months[0]).toBe(250);
    expect(y.months[5]).toBe(MANPOWER_DEFAULT);
    expect(y.months[11]).toBe(0);
    expect(y.set.filter(Boolean)).toHaveLength(2);
    expect(y.yearly_total).toBe(250 + 0 + 10 * 100);
  });

  it('manpower entries are whole numbers from 0, months 1 to 12', () => {
    const base = { site_id: '0190a0b0-0000-7000-8000-000000000001', month: 1, total: 5 };
    expect(manpowerUpdateSchema.safeParse({ year: 2024, entries: [base] }).success).toBe(true);
    expect(manpowerUpdateSchema.safeParse({ year: 2024, entries: [{ ...base, total: -1 }] }).success).toBe(false);
    expect(manpowerUpdateSchema.safeParse({ year: 2024, entries: [{ ...base, total: 1.5 }] }).success).toBe(false);
    expect(manpowerUpdateSchema.safeParse({ year: 2024, entries: [{ ...base, month: 13 }] }).success).toBe(false);
    expect(manpowerUpdateSchema.safeParse({ year: 1999, entries: [base] }).success).toBe(false);
  });

  it('full names join the levels', () => {
    expect(siteFullName(['North', 'Ops', null, undefined])).toBe('North / Ops');
  });
});

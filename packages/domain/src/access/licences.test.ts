import { describe, expect, it } from 'vitest';
import { LICENCE_MODULES, type LicenceModule } from '../users/schemas.js';
import { can, type AccessContext } from './can.js';
import { LICENSED_SUBJECTS, licenceFor, missingLicence } from './licences.js';
import { ACTIONS, ROLE_SUBJECTS, WORKFLOW_ACTIONS, type Action, type Rule, type Subject } from './subjects.js';

const everything: Rule[] = ROLE_SUBJECTS.map((subject) => ({ subject, actions: [...ACTIONS] }));
const ctx = (subscriptionType: string | null, licences?: LicenceModule[], over: Partial<AccessContext> = {}): AccessContext => ({
  rules: everything,
  isPlatformAdmin: false,
  memExhausted: false,
  subscriptionType,
  ...(licences ? { licences } : {}),
  ...over,
});

const LICENSED = Object.keys(LICENSED_SUBJECTS) as Subject[];
const EDITS: Action[] = ['create', 'update', ...WORKFLOW_ACTIONS];

describe('licences on a paid plan (DECISIONS.md "Rights, licences, plans")', () => {
  const none = ctx('active', []);

  it('names the licensed modules of the decision, each with its own licence', () => {
    expect(LICENSED_SUBJECTS).toEqual({ Incident: 'incidents', Permit: 'permits', Audit: 'audits', HIRA: 'hira', Library: 'library' });
    for (const module of Object.values(LICENSED_SUBJECTS)) expect(LICENCE_MODULES).toContain(module);
  });

  it.each(LICENSED)('%s: creating and editing (workflow steps included) need the licence', (subject) => {
    for (const action of EDITS) {
      if (subject === 'Incident' && action === 'create') continue;
      expect(can(none, subject, action), `${subject}:${action}`).toBe(false);
      expect(missingLicence(none, subject, action)).toBe(LICENSED_SUBJECTS[subject as keyof typeof LICENSED_SUBJECTS]);
      const held = ctx('active', [LICENSED_SUBJECTS[subject as keyof typeof LICENSED_SUBJECTS]]);
      expect(can(held, subject, action), `${subject}:${action} with the licence`).toBe(true);
    }
  });

  it.each(LICENSED)('%s: reading and deleting never need one', (subject) => {
    for (const action of ['read', 'delete'] as const) {
      expect(can(none, subject, action)).toBe(true);
      expect(licenceFor(subject, action)).toBeNull();
    }
  });

  it('reporting an incident or an observation never needs one', () => {
    expect(can(none, 'Incident', 'create')).toBe(true);
    for (const action of ACTIONS) expect(can(none, 'Observation', action)).toBe(true);
  });

  it.each(ROLE_SUBJECTS.filter((s) => !LICENSED.includes(s)))('%s is not licensed: answered by the role alone', (subject) => {
    for (const action of ACTIONS) expect(can(none, subject, action)).toBe(true);
  });

  it('a licence opens its own module only', () => {
    const auditor = ctx('active', ['audits']);
    expect(can(auditor, 'Audit', 'create')).toBe(true);
    expect(can(auditor, 'Permit', 'create')).toBe(false);
    expect(can(auditor, 'Library', 'update')).toBe(false);
  });

  it('an unknown set of licences is none (a context that does not say is refused, not let through)', () => {
    expect(can(ctx('active'), 'Permit', 'create')).toBe(false);
  });

  it('still needs the role’s right: a licence grants nothing by itself', () => {
    const licensedReader = ctx('active', ['permits'], { rules: [{ subject: 'Permit', actions: ['read'] }] });
    expect(can(licensedReader, 'Permit', 'create')).toBe(false);
    expect(can(licensedReader, 'Permit', 'read')).toBe(true);
  });
});

describe('licences outside a paid plan', () => {
  it.each(['free_trial', 'cancelled', null])('subscription %s: every user holds every licence', (subscriptionType) => {
    const c = ctx(subscriptionType, []);
    for (const subject of LICENSED) {
      for (const action of EDITS) {
        expect(missingLicence(c, subject, action)).toBeNull();
        if (!(subject === 'Permit' && subscriptionType === 'cancelled')) expect(can(c, subject, action)).toBe(true);
      }
    }
  });
});

import { describe, expect, it } from 'vitest';
import { roleCreateBody } from '../roles/schemas.js';
import { missingOnboardingSteps, nextOnboardingStep, ONBOARDING_ROLE_PRESETS, onboardingTimezoneBody } from './schemas.js';

describe('onboarding rules', () => {
  it.each(Object.entries(ONBOARDING_ROLE_PRESETS))('the %s preset is a role the roles call accepts', (name, rows) => {
    expect(roleCreateBody.safeParse({ name: 'Preset ' + name.length, role_actions_attributes: rows }).success).toBe(true);
  });

  it('walks the steps in order and lets invitations be skipped', () => {
    const steps = { timezone: true, site: false, headOfSafety: false, roles: true, invite: false };
    expect(nextOnboardingStep(steps)).toBe('site');
    expect(missingOnboardingSteps(steps)).toEqual(['site', 'headOfSafety']);
    expect(missingOnboardingSteps({ ...steps, site: true, headOfSafety: true })).toEqual([]);
  });

  it('accepts IANA time zones only', () => {
    expect(onboardingTimezoneBody.safeParse({ timezone: 'Asia/Shanghai' }).success).toBe(true);
    expect(onboardingTimezoneBody.safeParse({ timezone: 'GMT+25' }).success).toBe(false);
    expect(onboardingTimezoneBody.safeParse({}).success).toBe(false);
  });
});

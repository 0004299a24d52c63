import type { Principal, Rule } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { visibleMenu } from './menu.js';

const GUEST_RULES: Rule[] = [
  { subject: 'Observation', actions: ['read', 'create'] },
  { subject: 'Incident', actions: ['read', 'create'] },
];

const principal = (isGuest: boolean): Principal => ({
  access: { rules: GUEST_RULES, isPlatformAdmin: false, memExhausted: false, subscriptionType: 'free_trial' },
  isAdmin: false,
  canIssuePermit: false,
  onboardingPending: false,
  hiraV2Allowed: false,
  isGuest,
});

const paths = (p: Principal) => visibleMenu(p, 'demo.bulwark.test').flatMap((g) => g.items.map((i) => i.path));

describe('the side menu of a guest (DECISIONS: guests report and follow their own reports)', () => {
  it('offers "report" and "my reports", and nothing else', () => {
    expect(paths(principal(true))).toEqual(['/observations/new', '/observations/mine']);
  });

  it('a member holding the same rules gets the menu its rights open', () => {
    const member = paths(principal(false));
    expect(member).toContain('/');
    expect(member).toContain('/observations');
    expect(member).not.toContain('/observations/mine');
  });
});

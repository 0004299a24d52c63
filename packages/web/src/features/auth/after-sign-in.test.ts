import { describe, expect, it } from 'vitest';
import type { Principal } from '@bulwark/domain';
import { afterSignInTarget } from './after-sign-in.js';

const principal = (subjects: Array<'Site' | 'Incident' | 'User'>): Principal => ({
  access: {
    rules: subjects.map((subject) => ({ subject, actions: ['read'] })),
    isPlatformAdmin: false,
    memExhausted: false,
    subscriptionType: 'active',
  },
  isAdmin: false,
  canIssuePermit: false,
  onboardingPending: false,
  hiraV2Allowed: false,
});

describe('after sign-in', () => {
  it('follows the redirect parameter when the guard admits it', () => {
    expect(afterSignInTarget('/sites/new?x=1', principal(['Site']), 'demo.localhost')).toBe('/sites/new?x=1');
  });

  // Issue 15: the home (`/`) is the landing page of everyone who may read anything.
  it('falls back to the landing page when the guard refuses it', () => {
    expect(afterSignInTarget('/users', principal(['Site']), 'demo.localhost')).toBe('/');
    expect(afterSignInTarget('/users', principal([]), 'demo.localhost')).toBe('/no_permissions');
    expect(afterSignInTarget(null, principal(['Incident']), 'demo.localhost')).toBe('/');
  });

  it('never leaves the site', () => {
    expect(afterSignInTarget('//evil.example/x', principal(['Site']), 'demo.localhost')).toBe('/');
    expect(afterSignInTarget('https://evil.example', principal(['Site']), 'demo.localhost')).toBe('/');
  });
});

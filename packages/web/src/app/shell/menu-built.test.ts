import type { Principal, Rule } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { hasOwnScreen } from '../screens.js';
import { frontlineFirst, MENU, visibleMenu } from './menu.js';

const ALL: Rule[] = (
  [
    'Observation',
    'Incident',
    'Action',
    'Site',
    'User',
    'Role',
    'Category',
    'RC Master',
    'WorkFlow',
    'HIRA',
    'Library',
    'Audit',
    'Permit',
  ] as const
).map((subject) => ({ subject, actions: ['read', 'create', 'update', 'delete'] }));

const manager: Principal = {
  access: { rules: ALL, isPlatformAdmin: false, memExhausted: false, subscriptionType: 'active' },
  isAdmin: true,
  canIssuePermit: true,
  onboardingPending: false,
  hiraV2Allowed: false,
};
const reader: Principal = {
  ...manager,
  isAdmin: false,
  access: { ...manager.access, rules: [{ subject: 'Observation', actions: ['read'] }] },
};

const screens = (groups: ReturnType<typeof visibleMenu>) => groups.flatMap((g) => g.items.map((i) => i.screen));

describe('the menu lists built screens only (issue 15)', () => {
  it('leaves out every entry whose screen has no page in this release', () => {
    const shown = screens(visibleMenu(manager, 'demo.bulwark.test', hasOwnScreen));
    expect(shown.every(hasOwnScreen)).toBe(true);
    for (const unbuilt of ['hira', 'library', 'psrsDashboard', 'msiDashboard', 'msiSettings', 'reports']) {
      expect(shown).not.toContain(unbuilt);
    }
    expect(shown).toEqual(
      expect.arrayContaining([
        'dashboard',
        'observations',
        'incidents',
        'permits',
        'audits',
        'auditSummary',
        'actionsAll',
        'safetyInteractions',
        'sites',
        'integrations',
      ]),
    );
  });

  it('gives every entry an icon', () => {
    expect(MENU.flatMap((g) => g.items).filter((i) => !i.icon)).toEqual([]);
  });

  it('shows a read-only user no Settings group', () => {
    const groups = visibleMenu(reader, 'demo.bulwark.test', hasOwnScreen);
    expect(groups.map((g) => g.label)).not.toContain('nav.settings');
  });

  it('puts the frontline work first on a phone and keeps the other groups', () => {
    const groups = frontlineFirst(visibleMenu(manager, 'demo.bulwark.test', hasOwnScreen));
    // Incidents joins them once its screens are built.
    expect(groups[0]!.items.map((i) => i.path).filter((p) => p !== '/incidents')).toEqual([
      '/',
      '/observations',
      '/actions/all',
      '/safety-interactions',
    ]);
    expect(groups.slice(1).map((g) => g.label)).toEqual(['nav.general', 'nav.modules', 'nav.settings']);
    expect(screens(groups).filter((s) => s === 'observations')).toHaveLength(1);
  });
});

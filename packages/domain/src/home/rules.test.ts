import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/index.js';
import type { AccessContext } from '../access/can.js';
import { parseRecordSerial, startableWork } from './rules.js';

const access = (rules: AccessContext['rules'], over: Partial<AccessContext> = {}): AccessContext => ({
  rules,
  isPlatformAdmin: false,
  memExhausted: false,
  subscriptionType: 'active',
  ...over,
});

describe('what the home offers to start (issue 15: only what the rights allow)', () => {
  it('a reader is offered nothing to start', () => {
    expect(startableWork(access([{ subject: 'Observation', actions: ['read'] }]))).toEqual({
      observation: false,
      incident: false,
      action: false,
      safetyInteraction: false,
    });
  });

  it('Observation create offers a report and a safety interaction; Action create an action', () => {
    expect(startableWork(access([{ subject: 'Observation', actions: ['read', 'create'] }]))).toEqual({
      observation: true,
      incident: false,
      action: false,
      safetyInteraction: true,
    });
    expect(startableWork(access([{ subject: 'Action', actions: ['create'] }])).action).toBe(true);
    expect(startableWork(access([{ subject: 'Incident', actions: ['read', 'create'] }])).incident).toBe(true);
  });

  it('an expired trial offers nothing to start, whatever the role holds', () => {
    const all = access(
      [
        { subject: 'Observation', actions: ['read', 'create'] },
        { subject: 'Action', actions: ['read', 'create'] },
        { subject: 'Incident', actions: ['read', 'create'] },
      ],
      { trialExpired: true },
    );
    expect(Object.values(startableWork(all))).toEqual([false, false, false, false]);
  });
});

describe('serials typed into the command palette', () => {
  it.each([
    ['OBS-000014', { kind: 'observation', serial: 14, label: 'OBS-000014' }],
    ['obs-14', { kind: 'observation', serial: 14, label: 'OBS-000014' }],
    [' SI-000003 ', { kind: 'safety_interaction', serial: 3, label: 'SI-000003' }],
    ['#12', { kind: 'action', serial: 12, label: '#12' }],
    ['ACT-7', { kind: 'action', serial: 7, label: '#7' }],
  ])('%s is %j', (text, expected) => {
    expect(parseRecordSerial(text)).toEqual(expected);
  });

  it.each(['Observations', 'OBS-', '#0', 'OBS-0', '12', 'sites', 'OBS-1234567890'])('%s is not a serial', (text) => {
    expect(parseRecordSerial(text)).toBeNull();
  });
});

describe('plural rules of the language (issue 15: never "1 days")', () => {
  it.each([
    ['en', 1, '1 day'],
    ['en', 3, '3 days'],
    ['es', 1, '1 día'],
    ['es', 2, '2 días'],
    ['tr', 1, '1 gün'],
    ['zh', 5, '5 天'],
  ] as const)('%s %d -> %s', (lang, count, text) => {
    expect(translate(lang, 'home.days', { count })).toBe(text);
  });

  it('a key without plural forms is read as it is', () => {
    expect(translate('en', 'home.title', { count: 2 })).toBe('Home');
  });
});

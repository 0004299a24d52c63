import { describe, expect, it } from 'vitest';
import { observationCloseBlocker, observationStatusFromActions } from './status.js';
import { isFutureInZone, localDateTimeIn, localDateTimeToInstant } from './local-time.js';
import { formatObservationSerial, observationCreateBody, parseObservationSerial } from './schemas.js';

describe('observation status from its actions', () => {
  it.each([
    [[], 'open'],
    [['open'], 'open'],
    [['open', 'in_progress'], 'in_progress'],
    [['open', 'completed'], 'in_progress'],
    [['completed', 'closed'], 'completed'],
    [['completed', 'overdue'], 'overdue'],
    [['overdue'], 'overdue'],
  ] as const)('%j -> %s', (actions, expected) => {
    expect(observationStatusFromActions('open', actions)).toBe(expected);
  });
  it('stays closed', () => expect(observationStatusFromActions('closed', ['overdue'])).toBe('closed'));
  it('closing needs the right and finished actions', () => {
    expect(observationCloseBlocker('completed', ['completed'], false)).toBe('observations.validation.closeRight');
    expect(observationCloseBlocker('in_progress', ['completed', 'open'], true)).toBe('observations.validation.actionsOpen');
    expect(observationCloseBlocker('open', [], true)).toBeNull();
    expect(observationCloseBlocker('closed', [], true)).toBe('observations.validation.closedReadOnly');
  });
});

describe('site time', () => {
  const now = new Date('2025-01-01T12:00:00Z');
  it('reads the wall clock of a zone ahead of and behind UTC', () => {
    expect(localDateTimeIn('Asia/Tokyo', now)).toBe('2025-01-01T21:00');
    expect(localDateTimeIn('America/Los_Angeles', now)).toBe('2025-01-01T04:00');
  });
  it('refuses only times after the current minute of the site', () => {
    expect(isFutureInZone('2025-01-01T21:00', 'Asia/Tokyo', now)).toBe(false);
    expect(isFutureInZone('2025-01-01T21:01', 'Asia/Tokyo', now)).toBe(true);
    expect(isFutureInZone('2025-01-01T05:00', 'America/Los_Angeles', now)).toBe(true);
    expect(isFutureInZone('2025-01-01T11:00', 'UTC', now)).toBe(false);
  });
  it('turns a wall-clock time back into the instant', () => {
    expect(localDateTimeToInstant('2025-01-01T21:00', 'Asia/Tokyo').toISOString()).toBe('2025-01-01T12:00:00.000Z');
    expect(localDateTimeToInstant('2025-07-01T12:00', 'Europe/Istanbul').toISOString()).toBe('2025-07-01T09:00:00.000Z');
    expect(localDateTimeToInstant('2025-03-09T02:30', 'America/New_York').toISOString()).toBe('2025-03-09T07:30:00.000Z');
  });
});

describe('schemas', () => {
  it('formats and reads serials', () => {
    expect(formatObservationSerial(123)).toBe('OBS-000123');
    expect(parseObservationSerial('obs-000123')).toBe(123);
    expect(parseObservationSerial('123')).toBe(123);
    expect(parseObservationSerial('pump')).toBeNull();
  });
  it('wants an action when one is required, and a real date', () => {
    const r = observationCreateBody.safeParse({
      type: 'unsafe_act',
      description: 'd',
      site_id: '0190a3f0-0000-7000-8000-000000000001',
      observed_at: '2024-02-30T10:00',
      risk_level: 'low',
      action_required: true,
      comment: 'c',
    });
    expect(r.success).toBe(false);
    expect(r.error?.issues.map((i) => [i.path.join('.'), i.message])).toEqual([
      ['observed_at', 'observations.validation.observedAt'],
      ['actions', 'observations.validation.actionsRequired'],
    ]);
  });
});

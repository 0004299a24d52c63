import { describe, expect, it } from 'vitest';
import { auditDueDatesBetween, auditDueDatesUntil, auditMonthBounds, auditNthDueDate, auditWindowEnd } from './schedule.js';

describe('schedules: due dates and windows (issue 17)', () => {
  it('steps by the frequency from the start date', () => {
    expect(auditNthDueDate('2026-01-15', 'daily', 3)).toBe('2026-01-18');
    expect(auditNthDueDate('2026-01-15', 'weekly', 2)).toBe('2026-01-29');
    expect(auditNthDueDate('2026-01-15', 'quarterly', 1)).toBe('2026-04-15');
    expect(auditNthDueDate('2026-01-15', 'half_yearly', 1)).toBe('2026-07-15');
    expect(auditNthDueDate('2026-01-15', 'yearly', 1)).toBe('2027-01-15');
  });

  it('keeps a monthly schedule from the 31st on the last day of short months, and back on the 31st after', () => {
    expect(auditDueDatesUntil({ frequency: 'monthly', start_date: '2026-01-31', end_date: null }, '2026-05-31')).toEqual([
      '2026-01-31',
      '2026-02-28',
      '2026-03-31',
      '2026-04-30',
      '2026-05-31',
    ]);
  });

  it('stops at the end date, and makes one audit for "once"', () => {
    expect(auditDueDatesUntil({ frequency: 'weekly', start_date: '2026-03-02', end_date: '2026-03-20' }, '2026-12-31')).toEqual([
      '2026-03-02',
      '2026-03-09',
      '2026-03-16',
    ]);
    expect(auditDueDatesUntil({ frequency: 'once', start_date: '2026-03-02', end_date: '2026-03-10' }, '2026-12-31')).toEqual([
      '2026-03-02',
    ]);
    expect(auditDueDatesUntil({ frequency: 'daily', start_date: '2026-03-02', end_date: null }, '2026-03-01')).toEqual([]);
  });

  it('gives each audit the days up to the next one, capped by the end date', () => {
    expect(auditWindowEnd({ frequency: 'weekly', start_date: '2026-03-02', end_date: null }, '2026-03-09')).toBe('2026-03-15');
    expect(auditWindowEnd({ frequency: 'daily', start_date: '2026-03-02', end_date: null }, '2026-03-04')).toBe('2026-03-04');
    expect(auditWindowEnd({ frequency: 'monthly', start_date: '2026-01-31', end_date: null }, '2026-02-28')).toBe('2026-03-30');
    expect(auditWindowEnd({ frequency: 'weekly', start_date: '2026-03-02', end_date: '2026-03-11' }, '2026-03-09')).toBe('2026-03-11');
    expect(auditWindowEnd({ frequency: 'once', start_date: '2026-03-02', end_date: '2026-03-10' }, '2026-03-02')).toBe('2026-03-10');
    expect(auditWindowEnd({ frequency: 'once', start_date: '2026-03-02', end_date: null }, '2026-03-02')).toBe('2026-03-02');
  });

  it('lists a month’s due dates for the calendar', () => {
    const { from, to } = auditMonthBounds('2026-02');
    expect([from, to]).toEqual(['2026-02-01', '2026-02-28']);
    expect(auditDueDatesBetween({ frequency: 'weekly', start_date: '2026-01-20', end_date: null }, from, to)).toEqual([
      '2026-02-03',
      '2026-02-10',
      '2026-02-17',
      '2026-02-24',
    ]);
  });
});

import { describe, expect, it } from 'vitest';
import {
  oshaAverageEmployees,
  oshaCaseInput,
  oshaClassification,
  oshaCovered,
  oshaHoursWorked,
  oshaPrivacyCase,
  oshaRecordable,
  oshaSuggestedDaysAway,
  workingDaysInMonth,
} from './osha.js';

const kase = (over: Record<string, unknown> = {}) => oshaCaseInput.parse({ injury_type: 'injury', ...over });

describe('29 CFR 1904.7: the general recording criteria, most serious outcome first', () => {
  it('classifies death, then days away, then restriction, then other recordable', () => {
    expect(oshaClassification(kase({ died: true, date_of_death: '2026-03-01', days_away: 4 }))).toBe('death');
    expect(oshaClassification(kase({ days_away: 4, days_restricted: 2 }))).toBe('days_away');
    expect(oshaClassification(kase({ days_restricted: 2, medical_treatment: true }))).toBe('job_transfer_restriction');
    expect(oshaClassification(kase({ loss_of_consciousness: true }))).toBe('other_recordable');
    expect(oshaClassification(kase({ significant_diagnosis: true }))).toBe('other_recordable');
    expect(oshaClassification(kase())).toBeNull();
  });
  it('records a work-related case of a covered person only (1904.5, 1904.31)', () => {
    const c = kase({ medical_treatment: true });
    expect(oshaRecordable(true, 'employee', c)).toBe(true);
    expect(oshaRecordable(null, 'employee', c)).toBe(false);
    expect(oshaRecordable(false, 'employee', c)).toBe(false);
    expect(oshaRecordable(true, 'contractor', c)).toBe(false);
    expect(oshaRecordable(true, 'contractor', kase({ medical_treatment: true, day_to_day_supervised: true }))).toBe(true);
    expect(oshaCovered('visitor', kase({ day_to_day_supervised: true }))).toBe(false);
    expect(oshaRecordable(true, 'employee', null)).toBe(false);
  });
  it('caps days at 180 and suggests days away from the return date (the incident day not counted)', () => {
    expect(oshaCaseInput.safeParse({ injury_type: 'injury', days_away: 181 }).success).toBe(false);
    expect(oshaSuggestedDaysAway('2026-03-02', '2026-03-05')).toBe(2);
    expect(oshaSuggestedDaysAway('2026-03-02', '2026-03-03')).toBe(0);
    expect(oshaSuggestedDaysAway('2026-01-01', '2027-01-01')).toBe(180);
    expect(oshaSuggestedDaysAway('2026-03-02', null)).toBe(0);
  });
  it('needs a date of death exactly when the person died', () => {
    expect(oshaCaseInput.safeParse({ injury_type: 'injury', died: true }).success).toBe(false);
    expect(oshaCaseInput.safeParse({ injury_type: 'injury', date_of_death: '2026-03-01' }).success).toBe(false);
  });
});

describe('29 CFR 1904.29(b)(7): privacy concern cases', () => {
  it('is a privacy case when a reason is given; an employee’s request covers illnesses only', () => {
    expect(oshaPrivacyCase(kase({ privacy_reason: 'mental_illness' }))).toBe(true);
    expect(oshaPrivacyCase(kase())).toBe(false);
    expect(oshaCaseInput.safeParse({ injury_type: 'injury', privacy_reason: 'employee_request' }).success).toBe(false);
    expect(oshaCaseInput.safeParse({ injury_type: 'skin_disorder', privacy_reason: 'employee_request' }).success).toBe(true);
  });
});

describe('300A employment (DECISIONS: 8 hours × manpower per working day)', () => {
  it('counts Monday to Friday', () => {
    expect(workingDaysInMonth(2026, 2)).toBe(20);
    expect(workingDaysInMonth(2024, 2)).toBe(21);
    expect(workingDaysInMonth(2026, 8)).toBe(21);
  });
  it('adds 8 hours × the month’s head count for each working day, and averages the head counts', () => {
    const months = [100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 100, 40];
    const days = Array.from({ length: 12 }, (_, i) => workingDaysInMonth(2026, i + 1));
    expect(oshaHoursWorked(2026, months)).toBe(days.reduce((sum, d, i) => sum + 8 * months[i]! * d, 0));
    expect(oshaAverageEmployees(months)).toBe(95);
  });
});

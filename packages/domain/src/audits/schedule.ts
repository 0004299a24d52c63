import type { AuditFrequency } from './model.js';

/**
 * When a schedule's audits fall due and how long each may take (issue 17 "Schedules"). Dates are the
 * site's calendar days, 'YYYY-MM-DD'.
 *
 * - The first audit is due on the start date; each next one a frequency later (daily, weekly, monthly,
 *   quarterly, half-yearly, yearly), never after the end date. A monthly schedule from the 31st falls on
 *   the last day of shorter months and returns to the 31st after them.
 * - An audit's window runs from its due date to the day before the next one is due, and never past the
 *   end date; a "once" audit's window runs to the end date (or is its one day without one). Once the
 *   window has passed at the site, an audit not completed is overdue.
 */

const MONTHS: Partial<Record<AuditFrequency, number>> = { monthly: 1, quarterly: 3, half_yearly: 6, yearly: 12 };
const DAYS: Partial<Record<AuditFrequency, number>> = { daily: 1, weekly: 7 };

const toDate = (d: string) => new Date(`${d}T00:00:00Z`);
const text = (d: Date) => d.toISOString().slice(0, 10);

/** `date` plus `days` days. */
export function addAuditDays(date: string, days: number): string {
  return text(new Date(toDate(date).getTime() + days * 86_400_000));
}

/** `date` plus `months` months, on the same day or the month's last when it has fewer days. */
export function addAuditMonths(date: string, months: number): string {
  const d = toDate(date);
  const y = d.getUTCFullYear();
  const m = d.getUTCMonth() + months;
  const last = new Date(Date.UTC(y, m + 1, 0)).getUTCDate();
  return text(new Date(Date.UTC(y, m, Math.min(d.getUTCDate(), last))));
}

/** The n-th due date (0 is the start date), counted from the start so short months do not drift it. */
export function auditNthDueDate(start: string, frequency: AuditFrequency, n: number): string {
  if (n === 0 || frequency === 'once') return start;
  const months = MONTHS[frequency];
  return months ? addAuditMonths(start, months * n) : addAuditDays(start, (DAYS[frequency] ?? 1) * n);
}

export type AuditScheduleTimes = { frequency: AuditFrequency; start_date: string; end_date: string | null };

/** Due dates from the start up to and including `until` (and the end date); at most `max` of them. */
export function auditDueDatesUntil(s: AuditScheduleTimes, until: string, max = 400): string[] {
  const last = s.end_date !== null && s.end_date < until ? s.end_date : until;
  const out: string[] = [];
  for (let n = 0; out.length < max; n += 1) {
    const due = auditNthDueDate(s.start_date, s.frequency, n);
    if (due > last) break;
    out.push(due);
    if (s.frequency === 'once') break;
  }
  return out;
}

/** The due dates of a schedule within [from, to] (the calendar's month), at most `max`. */
export function auditDueDatesBetween(s: AuditScheduleTimes, from: string, to: string, max = 400): string[] {
  return auditDueDatesUntil(s, to, 100_000)
    .filter((d) => d >= from)
    .slice(0, max);
}

/** The last day of the window of the audit due on `due`. */
export function auditWindowEnd(s: AuditScheduleTimes, due: string): string {
  if (s.frequency === 'once') return s.end_date !== null && s.end_date > due ? s.end_date : due;
  let n = 0;
  while (auditNthDueDate(s.start_date, s.frequency, n) < due) n += 1;
  const dayBeforeNext = addAuditDays(auditNthDueDate(s.start_date, s.frequency, n + 1), -1);
  const end = dayBeforeNext < due ? due : dayBeforeNext;
  return s.end_date !== null && s.end_date < end ? (s.end_date < due ? due : s.end_date) : end;
}

/** Whether the window of an audit has passed on the site's `today`. */
export function auditWindowPassed(windowEndDate: string, today: string): boolean {
  return windowEndDate < today;
}

/** 'YYYY-MM' -> its first and last day. */
export function auditMonthBounds(month: string): { from: string; to: string } {
  const from = `${month}-01`;
  return { from, to: addAuditDays(addAuditMonths(from, 1), -1) };
}

/** 'YYYY-MM-DD' of the browser's today, shifted by whole days. */
export function localDay(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

// One date format for every screen (ui/format.ts).
export { formatDay, formatLocal } from '../../ui/format.js';

/** 'YYYY-MM' as a short month name of the reader's language. */
export function formatMonth(month: string, language: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return month;
  return new Intl.DateTimeFormat(language, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(at);
}

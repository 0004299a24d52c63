/** 'YYYY-MM-DD' of the browser's today, shifted by whole days. */
export function localDay(days = 0): string {
  const d = new Date();
  d.setDate(d.getDate() + days);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/** A 'YYYY-MM-DD' day as the reader writes dates (read as a calendar day, so no time zone shifts it). */
export function formatDay(date: string, language: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
}

/** A site-local 'YYYY-MM-DDTHH:mm' as the reader writes it; the clock is the site's, so it is shown as is. */
export function formatLocal(local: string, language: string): string {
  const at = new Date(`${local}:00Z`);
  if (Number.isNaN(at.getTime())) return local;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(at);
}

/** 'YYYY-MM' as a short month name of the reader's language. */
export function formatMonth(month: string, language: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return month;
  return new Intl.DateTimeFormat(language, { month: 'short', year: '2-digit', timeZone: 'UTC' }).format(at);
}

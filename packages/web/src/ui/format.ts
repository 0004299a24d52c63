import { useTranslation } from 'react-i18next';

/**
 * The one way dates are written (issue 15: one date format per language): the reader's language's
 * medium date, with a short time where there is one. Every screen formats through these.
 */
const DATE: Intl.DateTimeFormatOptions = { dateStyle: 'medium' };
const DATE_TIME: Intl.DateTimeFormatOptions = { dateStyle: 'medium', timeStyle: 'short' };

function format(at: Date, language: string, options: Intl.DateTimeFormatOptions, timeZone?: string): string {
  try {
    return new Intl.DateTimeFormat(language, { ...options, timeZone }).format(at);
  } catch {
    // An unknown zone name: the reader's own clock rather than nothing.
    return new Intl.DateTimeFormat(language, options).format(at);
  }
}

/** A calendar day 'YYYY-MM-DD' (a due date): read as that day, so no time zone can shift it. */
export function formatDay(date: string, language: string): string {
  const at = new Date(`${date.slice(0, 10)}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? date : format(at, language, DATE, 'UTC');
}

/** An instant (ISO with offset), in the given time zone: the organisation's, or a site's. */
export function formatInstant(iso: string, language: string, timeZone?: string): string {
  const at = new Date(iso);
  return Number.isNaN(at.getTime()) ? iso : format(at, language, DATE_TIME, timeZone);
}

/** A site's wall-clock time 'YYYY-MM-DDTHH:mm' (or with a space): shown as it is, the clock is the site's. */
export function formatLocal(local: string, language: string): string {
  const at = new Date(`${local.replace(' ', 'T').slice(0, 16)}:00Z`);
  return Number.isNaN(at.getTime()) ? local : format(at, language, DATE_TIME, 'UTC');
}

/** 'YYYY-MM' as the month's name and year. */
export function formatMonthName(month: string, language: string): string {
  const at = new Date(`${month}-01T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? month : format(at, language, { month: 'long', year: 'numeric' }, 'UTC');
}

/** The formatters bound to the reader's language; instants in `timeZone` (the organisation's) when given. */
export function useFormats(timeZone?: string) {
  const { i18n } = useTranslation();
  const language = i18n.language;
  return {
    day: (date: string) => formatDay(date, language),
    instant: (iso: string) => formatInstant(iso, language, timeZone),
    local: (local: string) => formatLocal(local, language),
    month: (month: string) => formatMonthName(month, language),
  };
}

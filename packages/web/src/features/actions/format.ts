import { formatObservationSerial, siSerial, type ActionSourceRef, type ActionStatus } from '@bulwark/domain';

/** Badge colour of each status: the same everywhere an action's status shows. */
export const STATUS_COLORS: Record<ActionStatus, string> = {
  open: 'blue',
  in_progress: 'yellow',
  overdue: 'red',
  completed: 'teal',
  closed: 'gray',
};

/** A due date ('YYYY-MM-DD') as the reader writes dates; read as a calendar day, so no time zone can shift it. */
export function formatDay(date: string, language: string): string {
  const at = new Date(`${date}T00:00:00Z`);
  if (Number.isNaN(at.getTime())) return date;
  return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
}

/** An instant in the site's time zone, where the work happens (a reviewer abroad still reads site time). */
export function formatInstant(iso: string, language: string, timeZone?: string): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return iso;
  try {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
  } catch {
    return new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' }).format(at);
  }
}

/** The source's number as its own module writes it, and where its record opens (null: nothing to open). */
export function sourceLink(source: ActionSourceRef): { serial: string; to: string | null } {
  const n = source.serial;
  switch (source.type) {
    case 'observation':
      return { serial: n === null ? '' : formatObservationSerial(n), to: source.id ? `/observations/summary/${source.id}` : null };
    case 'safety_interaction':
      return { serial: n === null ? '' : siSerial(n), to: source.id ? `/safety-interactions/${source.id}/report` : null };
    case 'incident':
      return { serial: n === null ? '' : `#${n}`, to: source.id ? `/incidents/${source.id}/report` : null };
    case 'audit':
      return { serial: n === null ? '' : `#${n}`, to: source.id ? `/audits/${source.id}/summary` : null };
    case 'other':
      return { serial: '', to: null };
  }
}

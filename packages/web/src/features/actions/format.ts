import { formatObservationSerial, siSerial, type ActionSourceRef, type ActionStatus } from '@bulwark/domain';

/** Badge colour of each status: the same everywhere an action's status shows. */
export const STATUS_COLORS: Record<ActionStatus, string> = {
  open: 'blue',
  in_progress: 'yellow',
  overdue: 'red',
  completed: 'teal',
  closed: 'gray',
};

// One date format for every screen (ui/format.ts).
export { formatDay, formatInstant } from '../../ui/format.js';

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

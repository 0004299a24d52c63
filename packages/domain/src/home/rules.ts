import { can, type AccessContext } from '../access/can.js';

/** What the home offers to start, each only when the server would accept it (the rights it sent). */
export type StartableWork = { observation: boolean; incident: boolean; action: boolean; safetyInteraction: boolean };

/**
 * The "start" buttons of the home and the command palette. Safety interactions are created with
 * Observation create (docs/modules.md, safety interactions: rights).
 */
export function startableWork(access: AccessContext): StartableWork {
  return {
    observation: can(access, 'Observation', 'create'),
    incident: can(access, 'Incident', 'create'),
    action: can(access, 'Action', 'create'),
    safetyInteraction: can(access, 'Observation', 'create'),
  };
}

/** A record a person may jump to by its serial (the command palette). */
export type RecordSerial = { kind: 'observation' | 'safety_interaction' | 'action'; serial: number; label: string };

/**
 * Reads a typed serial: OBS-000014 (or obs-14), SI-000003, and an action's #12 (or ACT-12). Anything
 * else is not a serial, and the palette looks for a screen instead.
 */
export function parseRecordSerial(text: string): RecordSerial | null {
  const t = text.trim();
  const m = /^(obs|si|act)[-\s]?0*(\d{1,9})$/i.exec(t) ?? /^(#)\s?0*(\d{1,9})$/.exec(t);
  if (!m) return null;
  const serial = Number(m[2]);
  if (!Number.isSafeInteger(serial) || serial < 1) return null;
  const prefix = m[1]!.toLowerCase();
  if (prefix === 'obs') return { kind: 'observation', serial, label: `OBS-${String(serial).padStart(6, '0')}` };
  if (prefix === 'si') return { kind: 'safety_interaction', serial, label: `SI-${String(serial).padStart(6, '0')}` };
  return { kind: 'action', serial, label: `#${serial}` };
}

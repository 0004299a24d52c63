import type { Principal } from '../auth/principal.js';
import type { Tx } from '../db/db.js';

/**
 * Who may download an attachment is decided by the module whose record links it: an action's photo
 * by whoever may open the action, an observation's by Observation read. A gate answers true or false
 * for a file its module links, and undefined for one it does not know.
 */
export type FileGate = (tx: Tx, p: Principal, fileId: string) => Promise<boolean | undefined>;

const gates = new Map<string, { gate: FileGate; guests: boolean }>();

/**
 * Called by a module at import time of its module.ts, once per kind of record that links files. A
 * guest is asked of only the gates that say `guests: true`, and those must admit a guest to the files
 * of its own reports alone (platform/auth/guests.ts).
 */
export function registerFileGate(name: string, gate: FileGate, options: { guests?: true } = {}): void {
  gates.set(name, { gate, guests: options.guests === true });
}

/**
 * Profile photos and logos are shown to every member. An attachment may be read by its uploader (a
 * form shows what it has just uploaded) or when a record that links it admits the reader; a file
 * nobody links, or that only records closed to the reader link, stays closed.
 */
export async function mayReadFile(
  tx: Tx,
  p: Principal,
  file: { id: string; purpose: string; uploadedBy: string | null },
): Promise<boolean> {
  if (file.purpose !== 'attachment') return true;
  if (file.uploadedBy !== null && file.uploadedBy === p.userId) return true;
  for (const { gate, guests } of gates.values()) {
    if (p.kind === 'guest' && !guests) continue;
    if (await gate(tx, p, file.id)) return true;
  }
  return false;
}

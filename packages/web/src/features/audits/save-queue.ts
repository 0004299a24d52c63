import type { AuditAnswerInput } from '@bulwark/domain';

/**
 * The answers of a running audit on their way to the server (issue 17: every answer saved as it is
 * given, retried on a lost connection, nothing lost). One PATCH at a time, in the order the questions
 * were first answered, so a parent's answer reaches the server before its child's. A question answered
 * again before its save went out sends only its latest answer. What is not saved yet is kept in the
 * browser's storage, so closing the page (or being signed out by the network failure rule) loses
 * nothing: opening the audit again sends it.
 */

export type SaveState = 'waiting' | 'saving' | 'saved' | 'offline' | 'retrying' | 'refused';
export type SaveStatus = { state: SaveState; message?: string; fields?: Record<string, string> };

/** Where the unsaved answers wait (the browser's localStorage in the app). */
export type PendingStore = { load: () => AuditAnswerInput[]; save: (bodies: AuditAnswerInput[]) => void };

export type SaveQueueDeps<R> = {
  send: (body: AuditAnswerInput) => Promise<R>;
  store: PendingStore;
  /** The browser's own idea of the connection: nothing is tried while it says offline. */
  online: () => boolean;
  /** Runs `fn` after `ms`; answers how to cancel it. */
  later: (fn: () => void, ms: number) => () => void;
  onStatus: (questionId: string, status: SaveStatus) => void;
  onSaved: (body: AuditAnswerInput, result: R) => void;
  /** A failure that may pass with time (no connection, the server failing) rather than a refusal. */
  retryable: (error: unknown) => boolean;
  describe: (error: unknown) => { message: string; fields?: Record<string, string> };
};

export type SaveQueue = {
  put: (body: AuditAnswerInput) => void;
  /** Try again now (the connection is back, or the auditor pressed "Save"). */
  wake: () => void;
  /** The answers not saved yet, oldest first. */
  pending: () => AuditAnswerInput[];
  dispose: () => void;
};

const MAX_DELAY_MS = 30_000;
export const retryDelay = (attempt: number) => Math.min(MAX_DELAY_MS, 2_000 * 2 ** attempt);

export function createSaveQueue<R>(deps: SaveQueueDeps<R>): SaveQueue {
  // A Map keeps the first insertion's place when a key is set again: the order of first answers.
  const entries = new Map<string, AuditAnswerInput>();
  let busy = false;
  let attempt = 0;
  let cancelTimer: (() => void) | null = null;
  let disposed = false;

  const persist = () => deps.store.save([...entries.values()]);

  function pump() {
    if (disposed || busy) return;
    const next = entries.entries().next();
    if (next.done) return;
    if (!deps.online()) {
      for (const q of entries.keys()) deps.onStatus(q, { state: 'offline' });
      return;
    }
    const [questionId, body] = next.value;
    busy = true;
    deps.onStatus(questionId, { state: 'saving' });
    deps.send(body).then(
      (result) => {
        busy = false;
        attempt = 0;
        if (disposed) return;
        // A newer answer given meanwhile stays queued; this one is saved all the same.
        if (entries.get(questionId) === body) {
          entries.delete(questionId);
          persist();
          deps.onStatus(questionId, { state: 'saved' });
        }
        deps.onSaved(body, result);
        pump();
      },
      (error: unknown) => {
        busy = false;
        if (disposed) return;
        if (deps.retryable(error)) {
          deps.onStatus(questionId, { state: deps.online() ? 'retrying' : 'offline' });
          cancelTimer?.();
          cancelTimer = deps.later(() => {
            cancelTimer = null;
            pump();
          }, retryDelay(attempt));
          attempt += 1;
          return;
        }
        if (entries.get(questionId) === body) {
          entries.delete(questionId);
          persist();
        }
        deps.onStatus(questionId, { state: 'refused', ...deps.describe(error) });
        pump();
      },
    );
  }

  for (const body of deps.store.load()) entries.set(body.question_id, body);
  for (const q of entries.keys()) deps.onStatus(q, { state: 'waiting' });
  pump();

  return {
    put(body) {
      entries.set(body.question_id, body);
      persist();
      deps.onStatus(body.question_id, { state: deps.online() ? 'waiting' : 'offline' });
      pump();
    },
    wake() {
      cancelTimer?.();
      cancelTimer = null;
      attempt = 0;
      pump();
    },
    pending: () => [...entries.values()],
    dispose() {
      disposed = true;
      cancelTimer?.();
    },
  };
}

/** The browser's store of one audit's unsaved answers. */
export function localPendingStore(auditId: string, storage: Pick<Storage, 'getItem' | 'setItem' | 'removeItem'> | null): PendingStore {
  const key = `bulwark.audit-answers.${auditId}`;
  return {
    load() {
      try {
        const raw = storage?.getItem(key);
        const list: unknown = raw ? JSON.parse(raw) : [];
        return Array.isArray(list) ? (list as AuditAnswerInput[]).filter((b) => typeof b?.question_id === 'string') : [];
      } catch {
        return [];
      }
    },
    save(bodies) {
      try {
        if (bodies.length === 0) storage?.removeItem(key);
        else storage?.setItem(key, JSON.stringify(bodies));
      } catch {
        // A full or blocked storage: the answers still go out while the page is open.
      }
    },
  };
}

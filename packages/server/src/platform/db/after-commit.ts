import type { Tx } from './db.js';

/** Work that must wait for the commit: push events, job dispatch, mail delivery. */
export type CommitWork = () => Promise<unknown> | unknown;

const queues = new WeakMap<Tx, (work: CommitWork) => void>();

/**
 * Gives a transaction its after-commit queue (the router does it for each request), so code that only
 * holds the transaction, such as the file store announcing the organisation's new storage figures,
 * can defer work to the commit without every caller threading `afterCommit` through.
 */
export function bindAfterCommit(tx: Tx, add: (work: CommitWork) => void): void {
  queues.set(tx, add);
}

/**
 * Queues work for after the commit of `tx`; nothing runs if it rolls back. False when the transaction
 * has no queue (a job's or a test's own transaction): the caller then does the work after its commit.
 */
export function deferUntilCommit(tx: Tx, work: CommitWork): boolean {
  const add = queues.get(tx);
  if (!add) return false;
  add(work);
  return true;
}

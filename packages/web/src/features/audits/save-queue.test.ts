import type { AuditAnswerInput } from '@bulwark/domain';
import { describe, expect, it } from 'vitest';
import { createSaveQueue, localPendingStore, retryDelay, type SaveStatus } from './save-queue.js';

const body = (question_id: string, choice: string): AuditAnswerInput => ({ question_id, cells: [{ choice: [choice] }] });

/** A server the test answers by hand, a clock the test moves, and a connection it switches. */
function harness(stored: AuditAnswerInput[] = []) {
  const sent: Array<{ body: AuditAnswerInput; resolve: (v: string) => void; reject: (e: unknown) => void }> = [];
  const statuses: Array<[string, SaveStatus]> = [];
  const saved: string[] = [];
  const timers: Array<{ fn: () => void; ms: number }> = [];
  let kept = stored;
  let online = true;
  const queue = createSaveQueue<string>({
    send: (b) => new Promise((resolve, reject) => sent.push({ body: b, resolve, reject })),
    store: { load: () => kept, save: (b) => (kept = b) },
    online: () => online,
    later: (fn, ms) => {
      const t = { fn, ms };
      timers.push(t);
      return () => timers.splice(timers.indexOf(t), 1);
    },
    onStatus: (q, s) => statuses.push([q, s]),
    onSaved: (b) => saved.push(`${b.question_id}:${b.cells?.[0]?.choice?.[0]}`),
    retryable: (e) => e === 'network',
    describe: () => ({ message: 'Refused', fields: { cells: 'Give an answer.' } }),
  });
  const settle = () => new Promise((r) => setTimeout(r, 0));
  return {
    queue,
    sent,
    saved,
    timers,
    kept: () => kept,
    last: (q: string) => statuses.filter(([x]) => x === q).at(-1)?.[1].state,
    setOnline: (v: boolean) => (online = v),
    settle,
  };
}

describe('the answers on their way (issue 17: saved as given, retried, nothing lost)', () => {
  it('sends one answer at a time in the order questions were first answered, the latest answer of each', async () => {
    const h = harness();
    h.queue.put(body('parent', 'no'));
    h.queue.put(body('child', 'missing'));
    h.queue.put(body('parent', 'yes'));
    expect(h.sent.map((s) => s.body.question_id)).toEqual(['parent']);
    h.sent[0]!.resolve('ok');
    await h.settle();
    // The first save went out with "no"; "yes" was given meanwhile and goes next, still before the child.
    expect(h.sent.map((s) => `${s.body.question_id}:${s.body.cells?.[0]?.choice?.[0]}`)).toEqual(['parent:no', 'parent:yes']);
    h.sent[1]!.resolve('ok');
    await h.settle();
    h.sent[2]!.resolve('ok');
    await h.settle();
    expect(h.saved).toEqual(['parent:no', 'parent:yes', 'child:missing']);
    expect(h.last('parent')).toBe('saved');
    expect(h.kept()).toEqual([]);
  });

  it('keeps what is unsaved while offline and sends it when the connection is back', async () => {
    const h = harness();
    h.setOnline(false);
    h.queue.put(body('q1', 'yes'));
    expect(h.sent).toHaveLength(0);
    expect(h.last('q1')).toBe('offline');
    expect(h.kept()).toEqual([body('q1', 'yes')]);
    h.setOnline(true);
    h.queue.wake();
    h.sent[0]!.resolve('ok');
    await h.settle();
    expect(h.last('q1')).toBe('saved');
    expect(h.kept()).toEqual([]);
  });

  it('retries a lost request later, longer each time, and never drops it', async () => {
    const h = harness();
    h.queue.put(body('q1', 'yes'));
    h.sent[0]!.reject('network');
    await h.settle();
    expect(h.last('q1')).toBe('retrying');
    expect(h.timers.map((t) => t.ms)).toEqual([retryDelay(0)]);
    h.timers[0]!.fn();
    h.sent[1]!.reject('network');
    await h.settle();
    expect(h.timers.at(-1)!.ms).toBe(retryDelay(1));
    expect(retryDelay(1)).toBeGreaterThan(retryDelay(0));
    expect(h.kept()).toEqual([body('q1', 'yes')]);
    h.timers.at(-1)!.fn();
    h.sent[2]!.resolve('ok');
    await h.settle();
    expect(h.last('q1')).toBe('saved');
  });

  it('stops at a refusal (it would be refused again), says why, and goes on with the others', async () => {
    const h = harness();
    h.queue.put(body('q1', 'bad'));
    h.queue.put(body('q2', 'yes'));
    h.sent[0]!.reject('refused');
    await h.settle();
    expect(h.last('q1')).toBe('refused');
    expect(h.sent.map((s) => s.body.question_id)).toEqual(['q1', 'q2']);
    expect(h.kept()).toEqual([body('q2', 'yes')]);
  });

  it('sends at once what a previous visit left unsaved', () => {
    const h = harness([body('q9', 'no')]);
    expect(h.sent.map((s) => s.body.question_id)).toEqual(['q9']);
  });
});

describe('the browser store', () => {
  it('keeps the bodies per audit and forgets them once all are saved; a damaged entry reads as nothing', () => {
    const data = new Map<string, string>();
    const storage = {
      getItem: (k: string) => data.get(k) ?? null,
      setItem: (k: string, v: string) => void data.set(k, v),
      removeItem: (k: string) => void data.delete(k),
    };
    const store = localPendingStore('a1', storage);
    store.save([body('q1', 'yes')]);
    expect(localPendingStore('a1', storage).load()).toEqual([body('q1', 'yes')]);
    expect(localPendingStore('a2', storage).load()).toEqual([]);
    store.save([]);
    expect(data.size).toBe(0);
    data.set('bulwark.audit-answers.a1', '{not json');
    expect(store.load()).toEqual([]);
  });
});

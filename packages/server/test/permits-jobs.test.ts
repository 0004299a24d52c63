import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepPermits } from '../src/modules/permits/sweep.js';
import { createTestApp, type TestApp } from './helpers.js';
import { act, approved, getPermit, hoursFromNow, nightWork, permitWorld, requested, type PermitWorld } from './permits-support.js';

/**
 * The hourly job with the clock moved forward (docs/modules.md "Permits to work"): pending closure at
 * the end time, overdue two hours later (PERMIT_CLOSURE_GRACE_HOURS), each told once per end time to
 * the requester, the issuing officers and the site's head of safety.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwjob');
});
afterAll(() => t?.close());

/** Who got a mail whose subject names this permit and says `what`. */
async function told(number: string, what: string): Promise<string[]> {
  const { rows } = await t.deps.db.ownerPool.query<{ to_address: string }>(
    'select to_address from mail_outbox where organization_id = $1 and subject like $2 order by to_address',
    [w.org.id, `%${number}%${what}%`],
  );
  return rows.map((r) => r.to_address);
}

const minutes = (n: number) => n * 60_000;
const at = (hours: number, extraMinutes = 0) => new Date(hoursFromNow(hours).getTime() + minutes(extraMinutes));

describe('pending closure at the end time, overdue after the grace period', () => {
  it('moves an issued permit on with the clock, telling its people once per step', async () => {
    // Starts in one hour, ends in nine (permits-support requestBody).
    const p = await approved(t, w, w.lifting);
    expect((await sweepPermits(t.deps, at(8, 55))).pendingClosure).not.toContain(p.id);
    expect((await getPermit(t, w.people.reader.s, p.id)).status).toBe('approved');

    expect((await sweepPermits(t.deps, at(9, 5))).pendingClosure).toContain(p.id);
    const ended = await getPermit(t, w.people.reader.s, p.id);
    expect(ended.status).toBe('pending_closure');
    expect(ended.timeline.at(-1)).toMatchObject({ kind: 'pending_closure', actor: null });
    expect(await told(p.number, 'work time has ended')).toEqual(['hos@ptwjob.test', 'issuer@ptwjob.test', 'requester@ptwjob.test']);

    // The next hour changes nothing and tells nobody again.
    expect((await sweepPermits(t.deps, at(10, 5))).pendingClosure).not.toContain(p.id);
    expect(await told(p.number, 'work time has ended')).toHaveLength(3);

    expect((await sweepPermits(t.deps, at(11, 5))).overdue).toContain(p.id);
    expect((await getPermit(t, w.people.reader.s, p.id)).status).toBe('overdue');
    expect(await told(p.number, 'overdue')).toEqual(['hos@ptwjob.test', 'issuer@ptwjob.test', 'requester@ptwjob.test']);
    await sweepPermits(t.deps, at(12, 5));
    expect(await told(p.number, 'overdue')).toHaveLength(3);
  });

  it('a permit the job reaches late goes straight to overdue, with the overdue notice only', async () => {
    const p = await approved(t, w, w.lifting);
    expect((await sweepPermits(t.deps, at(30))).overdue).toContain(p.id);
    expect(await told(p.number, 'work time has ended')).toEqual([]);
    expect(await told(p.number, 'overdue')).toHaveLength(3);
  });

  it('leaves requested, closed and revoked permits alone', async () => {
    const asked = await requested(t, w, w.lifting);
    const revoked = await act(t, w.people.issuer.s, (await approved(t, w, w.lifting)).id, 'revoke', { comment: 'Stop' });
    const result = await sweepPermits(t.deps, at(30));
    expect([...result.pendingClosure, ...result.overdue]).not.toContain(asked.id);
    expect([...result.pendingClosure, ...result.overdue]).not.toContain(revoked.id);
    expect((await getPermit(t, w.people.reader.s, asked.id)).status).toBe('requested');
    expect((await getPermit(t, w.people.reader.s, revoked.id)).status).toBe('revoked');
  });

  it('an extension approved while pending closure makes the permit live again, and arms the notices for its new end', async () => {
    const p = await approved(t, w, w.lifting);
    // The end is moved to a minute from now, so the real clock may approve the extension before its new end.
    await t.deps.db.ownerPool.query(
      `update permits set start_at = now() - interval '1 hour', end_at = now() + interval '1 minute' where id = $1`,
      [p.id],
    );
    await sweepPermits(t.deps, at(0, 2));
    expect((await getPermit(t, w.people.reader.s, p.id)).status).toBe('pending_closure');
    expect(await told(p.number, 'work time has ended')).toHaveLength(3);
    await act(t, w.people.requester.s, p.id, 'extensions', { declaration: 'Two more welds' });
    const extended = await act(t, w.people.issuer.s, p.id, 'approve');
    expect(extended.status).toBe('extended');
    expect((await sweepPermits(t.deps, at(4, 5))).pendingClosure).toContain(p.id);
    expect(await told(p.number, 'work time has ended')).toHaveLength(6);
  });

  it('closing takes a permit off the job', async () => {
    const p = await approved(t, w, w.lifting);
    await sweepPermits(t.deps, at(9, 5));
    const { closure } = await nightWork(t, w.people.requester.s, w.lifting);
    await act(t, w.people.closer.s, p.id, 'close', {
      answers: { [closure[0]!.id]: 'Yes', [closure[1]!.id]: 'Yes', [closure[2]!.id]: 'Yes' },
    });
    const result = await sweepPermits(t.deps, at(30));
    expect(result.overdue).not.toContain(p.id);
    expect((await getPermit(t, w.people.reader.s, p.id)).status).toBe('closed');
  });
});

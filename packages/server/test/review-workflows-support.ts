import { randomUUID } from 'node:crypto';
import type { ReviewState } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { loadPrincipal, type Principal } from '../src/platform/auth/principal.js';
import { inTenant, type Tx } from '../src/platform/db/db.js';
import { AppError } from '../src/platform/errors.js';
import type { AfterCommit } from '../src/platform/http/route.js';
import { registerReviewSubject } from '../src/modules/workflows/review.js';
import { asOrg, userWithRights } from './categories-support.js';
import { call, type Session, type TestApp } from './helpers.js';

/**
 * A probe module for the review engine: records live in memory (per test process), and every decision
 * the engine hands the module is kept, so tests see exactly what a module would be told. It registers
 * as 'audits' (rights subject Audit, which holds an approve right) until the audits module exists.
 */
export type ProbeRecord = { orgId: string; siteId: string; formId: string | null; ownerId: string | null; label: string };
export const records = new Map<string, ProbeRecord>();
export const decided: Array<{ recordId: string; outcome: 'approved' | 'rejected'; userId: string; comment: string | null }> = [];
/** Set to make the module's hook fail, as a module whose own write fails would. */
export const hook = { fail: false };

registerReviewSubject('audits', {
  subject: 'Audit',
  describe: async (_tx, id) => {
    const r = records.get(id);
    if (!r) throw new AppError('not_found');
    return { label: r.label, path: `/audits/${id}/summary`, siteId: r.siteId, formId: r.formId, ownerId: r.ownerId };
  },
  onDecided: async (_tx, recordId, outcome, by) => {
    if (hook.fail) throw new Error('the module refused');
    decided.push({ recordId, outcome, userId: by.userId, comment: by.comment });
  },
  channel: 'actions',
});

let serial = 0;
/** A new probe record; its label is unique in every mail (AUD<n>Q). */
export function newRecord(r: Omit<ProbeRecord, 'label' | 'formId'> & { formId?: string | null }): { id: string; label: string } {
  serial += 1;
  const id = randomUUID();
  const label = `AUD${serial}Q`;
  records.set(id, { formId: null, ...r, label });
  return { id, label };
}

export async function addSite(t: TestApp, orgId: string, name: string): Promise<string> {
  const rows = await asOrg<{ id: string }>(
    t,
    orgId,
    sql`insert into sites (name, time_zone, emergency_phone, address, city, state, country, zip)
    values (${name}, 'Europe/London', '+441234567890', '1 Main St', 'Leeds', 'Yorkshire', 'GB', 'LS1 1AA') returning id`,
  );
  return rows[0]!.id;
}

/** A signed-in member; with `approve`, their role holds Audit approve (the role's is_approve). */
export async function member(
  t: TestApp,
  org: { id: string; subDomain: string },
  approve = false,
): Promise<{ id: string; session: Session }> {
  const u = await userWithRights(t, org, [{ subject: 'Audit', read: true }]);
  if (approve) {
    await asOrg(
      t,
      org.id,
      sql`update role_actions set is_approve = true where name = 'Audit' and role_id = (select role_id from users where id = ${u.id})`,
    );
  }
  return u;
}

/** The principal of a user's latest session, as the router loads it. */
export async function principalOf(tx: Tx, userId: string): Promise<Principal> {
  const { rows } = await tx.execute<{ id: string }>(
    sql`select id from sessions where user_id = ${userId} order by created_at desc limit 1`,
  );
  const p = await loadPrincipal(tx, userId, rows[0]!.id);
  if (!p) throw new Error(`no principal for ${userId}`);
  return p;
}

/** One engine command in its own tenant transaction as `userId`, then its after-commit work, as a route runs it. */
export async function as(
  t: TestApp,
  orgId: string,
  userId: string,
  work: (tx: Tx, p: Principal) => Promise<{ review: ReviewState; afterCommit: AfterCommit }>,
): Promise<ReviewState> {
  const { review, afterCommit } = await inTenant(t.deps.db.app, orgId, async (tx) => work(tx, await principalOf(tx, userId)));
  await afterCommit();
  return review;
}

/** The same command, expected to be refused with this code. */
export async function refused(promise: Promise<unknown>, code: string, messageKey?: string) {
  const err = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(AppError);
  expect((err as AppError).code).toBe(code);
  if (messageKey) expect((err as AppError).options.messageKey).toBe(messageKey);
  return err as AppError;
}

/** Mails of the organisation that name the record (its label), oldest first. */
export async function mailsAbout(t: TestApp, orgId: string, label: string) {
  return asOrg<{ to_address: string; subject: string; body: string }>(
    t,
    orgId,
    sql`select to_address, subject, body from mail_outbox where subject like ${`%${label}%`} or body like ${`%${label}%`} order by created_at, id`,
  );
}

/** In-app notifications that lead to the record. */
export async function notificationsAbout(t: TestApp, orgId: string, recordId: string) {
  return asOrg<{ user_id: string; title: string }>(
    t,
    orgId,
    sql`select user_id, title from notifications where link = ${`/audits/${recordId}/summary`} order by created_at, id`,
  );
}

export async function emailOf(t: TestApp, orgId: string, userId: string): Promise<string> {
  return (await asOrg<{ email: string }>(t, orgId, sql`select email from users where id = ${userId}`))[0]!.email;
}

/** A workflow made through the settings API, as an administrator would. */
export async function workflow(t: TestApp, admin: Session, body: Record<string, unknown>): Promise<{ id: string }> {
  const res = await call(t, admin, 'POST', '/api/workflows', { title: 'Audit review', module: 'audits', type: 'sequential', ...body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string };
}

export const HOUR = 3_600_000;
export const later = (from: Date, hours: number, minutes = 0) => new Date(from.getTime() + hours * HOUR + minutes * 60_000);

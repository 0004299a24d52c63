import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inTenant } from '../src/platform/db/db.js';
import { call, createOrg, createTestApp, signIn, type TestApp } from './helpers.js';

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;

beforeAll(async () => {
  t = await createTestApp();
  org = await createOrg(t, 'outboxed');
});
afterAll(() => t.close());

describe('the outbox an admin reads when no mail server is set', () => {
  it("shows invitations and the admin's own reset link, never another person's reset link", async () => {
    await inTenant(t.deps.db.app, org.id, async (tx) => {
      await t.deps.mail.enqueue(tx, {
        to: org.userEmail,
        subject: 'Reset',
        body: 'Open http://x.test/password-reset/SECRETTOKEN123 within an hour.',
      });
      await t.deps.mail.enqueue(tx, {
        to: org.adminEmail,
        subject: 'Reset',
        body: 'Open http://x.test/password-reset/MYOWNTOKEN456 within an hour.',
      });
      await t.deps.mail.enqueue(tx, {
        to: 'new.person@outboxed.test',
        subject: 'Invited',
        body: 'Open http://x.test/password-reset/INVITETOKEN789?activate=1 to start.',
      });
    });
    const admin = await signIn(t, org.subDomain, org.adminEmail);
    const res = await call(t, admin, 'GET', '/api/mail_outbox');
    expect(res.statusCode).toBe(200);
    const bodies = (res.json().mails as Array<{ to: string; body: string }>).map((m) => `${m.to}: ${m.body}`).join('\n');
    expect(bodies).not.toContain('SECRETTOKEN123');
    expect(bodies).toContain('MYOWNTOKEN456');
    expect(bodies).toContain('INVITETOKEN789?activate=1');
  });
});

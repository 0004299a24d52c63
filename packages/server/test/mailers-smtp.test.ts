import type { AddressInfo } from 'node:net';
import { eq } from 'drizzle-orm';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { MAIL_SWEEP_QUEUE, mailersModule } from '../src/modules/mailers/module.js';
import { dispatchTemplatedMail, sendTemplatedMail } from '../src/modules/mailers/send.js';
import { inTenant } from '../src/platform/db/db.js';
import { mailOutbox } from '../src/platform/db/schema.js';
import { startJobs } from '../src/platform/jobs/jobs.js';
import { createMail, MAIL_QUEUE } from '../src/platform/mail/mail.js';
import { call, createOrg, freshDatabase, signIn, testDeps, type TestApp } from './helpers.js';

/**
 * Delivery end to end: a real SMTP server (smtp-server) in this process, the real nodemailer transport
 * of platform/mail, and the real pg-boss queue from platform/jobs.
 */
type Received = { from: string; to: string[]; raw: string };

/** The message as text: headers kept, the quoted-printable body decoded (soft breaks and =XX bytes). */
function decodeMessage(raw: string): string {
  const bytes = raw.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}
const received: Received[] = [];
let refuse = false;
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onRcptTo(_address, _session, callback) {
    if (refuse) return callback(Object.assign(new Error('Mailbox unavailable'), { responseCode: 550 }));
    return callback();
  },
  onData(stream, session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push({
        from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
        to: session.envelope.rcptTo.map((r) => r.address),
        raw: decodeMessage(Buffer.concat(chunks).toString('latin1')),
      });
      callback();
    });
  },
});

let t: TestApp;
let org: Awaited<ReturnType<typeof createOrg>>;
let drop: () => Promise<void>;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  const database = await freshDatabase();
  drop = database.drop;
  const deps = testDeps(database.appUrl, database.ownerUrl);
  // As runtime.ts wires them when SMTP_URL is set and this node runs job workers.
  deps.mail = createMail({ owner: deps.db.owner, smtpUrl: `smtp://127.0.0.1:${port}`, from: 'ehs@bulwark.test', log: () => {} });
  deps.jobs = await startJobs(database.ownerUrl, { [MAIL_QUEUE]: (data) => deps.mail.deliver(data) }, [], () => {});
  const app = await buildApp(deps, { logger: false });
  await app.ready();
  t = { app, deps, ownerUrl: database.ownerUrl, appUrl: database.appUrl, close: async () => {} };
  org = await createOrg(t, 'smtpco');
});

afterAll(async () => {
  await t.deps.jobs?.stop();
  await t.app.close();
  await t.deps.db.close();
  await drop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

const variables = {
  action_title: 'Replace the guard rail',
  due_date: '2026-12-15',
  assigned_by: 'Admin',
  action_link: 'https://smtpco.example/actions/summary/1',
};
const outboxRow = async (id: string) =>
  (await inTenant(t.deps.db.app, org.id, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.id, id))))[0];

async function waitFor<T>(fn: () => Promise<T | undefined> | T | undefined, ms = 30_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('SMTP delivery of a templated mail', () => {
  it("delivers the organisation's text through the job queue to the SMTP server and marks it sent", async () => {
    const admin = await signIn(t, org.subDomain, org.adminEmail);
    const put = await call(t, admin, 'PUT', `/api/organizations/${org.id}/mailer_modules/3/scenarios/action_assigned`, {
      language: 'en',
      subject: 'Smtpco action: [action_title]',
      in_app: 'New action due [due_date]',
      body: 'Dear [user_name], please act before [due_date]: [action_link]',
      footer: 'Smtpco EHS',
    });
    expect(put.statusCode).toBe(200);

    const queued = await inTenant(t.deps.db.app, org.id, (tx) =>
      sendTemplatedMail(tx, t.deps, { scenario: 'action_assigned', to: org.userEmail, language: 'en', variables, userId: org.userId }),
    );
    expect((await outboxRow(queued.mailId!))?.status).toBe('pending');
    await dispatchTemplatedMail(t.deps, queued);

    const mail = await waitFor(() => received.find((r) => r.raw.includes('Smtpco action: Replace the guard rail')));
    expect(mail.to).toEqual([org.userEmail]);
    expect(mail.from).toBe('ehs@bulwark.test');
    // The due day reads as the recipient's language writes dates (issue 15), not as the ISO '2026-12-15' it was given as.
    expect(mail.raw).toContain('Dear User, please act before Dec 15, 2026: https://smtpco.example/actions/summary/1');
    expect(mail.raw).toContain('Smtpco EHS');
    const row = await waitFor(async () => {
      const r = await outboxRow(queued.mailId!);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
    expect(row.sentAt).toBeInstanceOf(Date);

    const outbox = await call(t, admin, 'GET', '/api/mail_outbox');
    const body = outbox.json() as { smtp_enabled: boolean; mails: Array<{ id: string; status: string; sent_at: string | null }> };
    expect(body.smtp_enabled).toBe(true);
    expect(body.mails.find((m) => m.id === queued.mailId)).toMatchObject({ status: 'sent', sent_at: expect.any(String) });
  });

  it('hides sign-in tokens of delivered mail from the outbox screen', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': org.subDomain },
      payload: { email: org.userEmail },
    });
    expect(res.statusCode).toBe(200);
    const mail = await waitFor(() => received.find((r) => r.to.includes(org.userEmail) && r.raw.includes('/password-reset/')));
    const token = /\/password-reset\/([A-Za-z0-9_-]+)/.exec(mail.raw)?.[1];
    expect(token?.length).toBeGreaterThan(16);
    const admin = await signIn(t, org.subDomain, org.adminEmail);
    const outbox = (await call(t, admin, 'GET', '/api/mail_outbox')).json() as { mails: Array<{ to: string; body: string }> };
    const shown = outbox.mails.find((m) => m.to === org.userEmail && m.body.includes('/password-reset/'));
    expect(shown?.body).toContain('/password-reset/••••••');
    expect(shown?.body).not.toContain(token);
  });

  it('records a refusal as failed with its error, lets the job retry, and sends once the server accepts', async () => {
    refuse = true;
    const queued = await inTenant(t.deps.db.app, org.id, (tx) =>
      sendTemplatedMail(tx, t.deps, {
        scenario: 'action_overdue',
        to: org.adminEmail,
        language: 'en',
        variables: { action_title: 'Refused one', due_date: '2026-11-01', days_overdue: '20', action_link: 'l' },
      }),
    );
    const data = { organizationId: org.id, id: queued.mailId! };
    // The job handler throws so that pg-boss retries it with back-off.
    await expect(t.deps.mail.deliver(data)).rejects.toThrow(/550|Mailbox unavailable/);
    let row = await outboxRow(queued.mailId!);
    expect(row).toMatchObject({ status: 'failed', attempts: 1 });
    expect(row?.lastError).toMatch(/Mailbox unavailable/);
    await expect(t.deps.mail.deliver(data)).rejects.toThrow();
    expect((await outboxRow(queued.mailId!))?.attempts).toBe(2);
    expect(received.some((r) => r.raw.includes('Refused one'))).toBe(false);

    refuse = false;
    await t.deps.mail.deliver(data);
    row = await outboxRow(queued.mailId!);
    expect(row).toMatchObject({ status: 'sent', attempts: 3 });
    expect(received.filter((r) => r.raw.includes('Refused one'))).toHaveLength(1);
    // A repeated job for a sent message sends nothing twice.
    await t.deps.mail.deliver(data);
    expect(received.filter((r) => r.raw.includes('Refused one'))).toHaveLength(1);
  });

  it("does not hand an unsubscribed recipient's mail to the queue at all", async () => {
    const user = await signIn(t, org.subDomain, org.userEmail);
    await call(t, user, 'PUT', '/api/email_subscriptions', { subscriptions: [{ scenario_id: 'action_due_soon', email: false }] });
    const before = received.length;
    const queued = await inTenant(t.deps.db.app, org.id, (tx) =>
      sendTemplatedMail(tx, t.deps, {
        scenario: 'action_due_soon',
        to: org.userEmail,
        language: 'en',
        variables: { action_title: 'Quiet', due_date: 'soon', action_link: 'l' },
        userId: org.userId,
      }),
    );
    await dispatchTemplatedMail(t.deps, queued);
    expect(queued.mailId).toBeNull();
    expect(queued.notificationId).not.toBeNull();
    await new Promise((r) => setTimeout(r, 3_000));
    expect(received.length).toBe(before);
  });

  it('the sweep hands a message that was never queued (e.g. written by a node without workers) to the delivery job', async () => {
    const queued = await inTenant(t.deps.db.app, org.id, (tx) =>
      sendTemplatedMail(tx, t.deps, {
        scenario: 'audit_approved',
        to: org.adminEmail,
        language: 'en',
        variables: { audit_title: 'Forgotten audit', score: '88%', audit_link: 'l' },
      }),
    );
    // No dispatch: only the sweep can deliver it. A fresh one is left alone (its job may still be on the way).
    const sweep = mailersModule.jobs!(t.deps).handlers[MAIL_SWEEP_QUEUE]!;
    await sweep({});
    await new Promise((r) => setTimeout(r, 3_000));
    expect(received.some((r) => r.raw.includes('Forgotten audit'))).toBe(false);
    await t.deps.db.owner
      .update(mailOutbox)
      .set({ createdAt: new Date(Date.now() - 11 * 60_000) })
      .where(eq(mailOutbox.id, queued.mailId!));
    await sweep({});
    await waitFor(() => received.find((r) => r.raw.includes('Forgotten audit')));
    const row = await waitFor(async () => {
      const r = await outboxRow(queued.mailId!);
      return r?.status === 'sent' ? r : undefined;
    });
    expect(row.attempts).toBe(1);
  });
});

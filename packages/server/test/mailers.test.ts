import { randomUUID } from 'node:crypto';
import { mailerScenario } from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dispatchTemplatedMail, sendTemplatedMail } from '../src/modules/mailers/send.js';
import { mailTemplates } from '../src/modules/mailers/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { createMail } from '../src/platform/mail/mail.js';
import { mailOutbox, notifications, users } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let userA: Session;
let adminB: Session;

const scenarioUrl = (orgId: string, moduleId: number, scenario: string) =>
  `/api/organizations/${orgId}/mailer_modules/${moduleId}/scenarios/${scenario}`;
const assigned = mailerScenario('action_assigned');
const esOverride = {
  language: 'es',
  subject: 'ACME: nueva acción [action_title]',
  in_app: 'Acción para usted, vence [due_date]',
  body: 'Hola [user_name], revise [action_link] antes del [due_date]. [organization_name]',
  footer: 'Pie ACME',
};

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'mailalpha');
  b = await createOrg(t, 'mailbravo');
  adminA = await signIn(t, a.subDomain, a.adminEmail);
  userA = await signIn(t, a.subDomain, a.userEmail);
  adminB = await signIn(t, b.subDomain, b.adminEmail);
});
afterAll(() => t.close());

const overrideRows = (orgId: string) => inTenant(t.deps.db.app, orgId, (tx) => tx.select().from(mailTemplates));

describe('access: admin only', () => {
  it.each([
    ['GET', (o: string) => `/api/organizations/${o}/mailer_modules`],
    ['GET', (o: string) => `/api/organizations/${o}/mailer_modules/3/scenarios`],
    ['GET', (o: string) => scenarioUrl(o, 3, 'action_assigned')],
    ['PUT', (o: string) => scenarioUrl(o, 3, 'action_assigned')],
    ['DELETE', (o: string) => `${scenarioUrl(o, 3, 'action_assigned')}?language=en`],
    ['GET', () => '/api/mail_outbox'],
  ] as const)('%s refuses a non-admin with 403', async (method, url) => {
    const res = await call(t, userA, method, url(a.id), method === 'PUT' ? esOverride : undefined);
    expect(res.statusCode).toBe(403);
    expect(res.json()).toMatchObject({ code: 'forbidden' });
  });

  it('refuses an anonymous caller with 401', async () => {
    const res = await call(t, null, 'GET', `/api/organizations/${a.id}/mailer_modules`, undefined, { 'x-tenant': a.subDomain });
    expect(res.statusCode).toBe(401);
  });
});

describe('catalogue calls', () => {
  it('lists the nine modules with their scenario counts', async () => {
    const res = await call(t, adminA, 'GET', `/api/organizations/${a.id}/mailer_modules`);
    expect(res.statusCode).toBe(200);
    const { modules } = res.json() as { modules: Array<{ id: number; key: string; scenario_count: number; customized_count: number }> };
    expect(modules.map((m) => m.key)).toEqual([
      'users',
      'observations',
      'actions',
      'incidents',
      'permits',
      'audits',
      'hira',
      'organization',
      'reviews',
    ]);
    expect(modules.find((m) => m.key === 'actions')).toMatchObject({ id: 3, scenario_count: 4, customized_count: 0 });
    // The review engine's mails (issue 14): requested, reminder, escalated, approved, rejected.
    expect(modules.find((m) => m.key === 'reviews')).toMatchObject({ id: 9, scenario_count: 5 });
  });

  it('lists the scenarios of a module with variables; an unknown module is 404', async () => {
    const res = await call(t, adminA, 'GET', `/api/organizations/${a.id}/mailer_modules/3/scenarios`);
    expect(res.statusCode).toBe(200);
    const body = res.json() as { module: { key: string }; scenarios: Array<{ id: string; variables: string[]; required: string[] }> };
    expect(body.module.key).toBe('actions');
    expect(body.scenarios.map((s) => s.id)).toEqual(['action_assigned', 'action_due_soon', 'action_overdue', 'action_completed']);
    expect(body.scenarios[0]).toMatchObject({ required: ['due_date', 'action_link'], customized_languages: [] });
    expect(body.scenarios[0]?.variables).toContain('organization_name');
    expect((await call(t, adminA, 'GET', `/api/organizations/${a.id}/mailer_modules/99/scenarios`)).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', `/api/organizations/${a.id}/mailer_modules/abc/scenarios`)).statusCode).toBe(400);
  });

  it("shows a scenario's default texts in every language; a scenario of another module or unknown is 404", async () => {
    const res = await call(t, adminA, 'GET', scenarioUrl(a.id, 3, 'action_assigned'));
    expect(res.statusCode).toBe(200);
    const body = res.json() as { templates: Record<string, { subject: string; customized: boolean; footer: string }> };
    for (const lang of ['en', 'es', 'tr', 'zh']) {
      expect(body.templates[lang]).toMatchObject({ subject: assigned.defaults[lang as 'en'].subject, customized: false });
    }
    expect((await call(t, adminA, 'GET', scenarioUrl(a.id, 1, 'action_assigned'))).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', scenarioUrl(a.id, 3, 'no_such'))).statusCode).toBe(404);
    expect((await call(t, adminA, 'GET', scenarioUrl(a.id, 3, 'toString'))).statusCode).toBe(404);
  });
});

describe('saving texts (spec 001 §5: bracketed variables must not be removed)', () => {
  it('refuses a body that removed a required variable, naming it, and writes nothing', async () => {
    const res = await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), {
      ...esOverride,
      body: 'Hola [user_name], revise [action_link].',
    });
    expect(res.statusCode).toBe(400);
    const body = res.json() as { code: string; fields: Record<string, string> };
    expect(body.code).toBe('validation_failed');
    expect(body.fields['body']).toBe('The body must keep [due_date]: put it back before saving.');
    expect(await overrideRows(a.id)).toEqual([]);
  });

  it.each([
    ['es', 'no es una variable'],
    ['tr', 'değişkeni değil'],
    ['zh', '不是此邮件的变量'],
  ])('refuses an unknown variable with a message in %s', async (lang, text) => {
    const res = await call(
      t,
      adminA,
      'PUT',
      scenarioUrl(a.id, 3, 'action_assigned'),
      { ...esOverride, subject: 'Permiso [permit_id]' },
      { 'accept-language': lang },
    );
    expect(res.statusCode).toBe(400);
    const fields = (res.json() as { fields: Record<string, string> }).fields;
    expect(fields['subject']).toContain('[permit_id]');
    expect(fields['subject']).toContain(text);
    expect(await overrideRows(a.id)).toEqual([]);
  });

  it('refuses empty and over-long fields and an unknown language', async () => {
    const empty = await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), { ...esOverride, subject: '  ' });
    expect(empty.statusCode).toBe(400);
    expect((empty.json() as { fields: Record<string, string> }).fields['subject']).toBe('This field is required.');
    const long = await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), { ...esOverride, in_app: 'x'.repeat(301) });
    expect((long.json() as { fields: Record<string, string> }).fields['in_app']).toBe('This is too long.');
    const lang = await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), { ...esOverride, language: 'fr' });
    expect(lang.statusCode).toBe(400);
    expect(await overrideRows(a.id)).toEqual([]);
  });

  it('saves one language and leaves the others on their defaults', async () => {
    const res = await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), esOverride);
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      customized_languages: string[];
      templates: Record<string, { subject: string; customized: boolean; footer: string; defaults: { subject: string } }>;
    };
    expect(body.customized_languages).toEqual(['es']);
    expect(body.templates['es']).toMatchObject({
      subject: esOverride.subject,
      footer: 'Pie ACME',
      customized: true,
      defaults: { subject: assigned.defaults.es.subject },
    });
    expect(body.templates['en']).toMatchObject({ subject: assigned.defaults.en.subject, customized: false });
    const modules = (await call(t, adminA, 'GET', `/api/organizations/${a.id}/mailer_modules`)).json() as {
      modules: Array<{ key: string; customized_count: number }>;
    };
    expect(modules.modules.find((m) => m.key === 'actions')?.customized_count).toBe(1);
    // Saving again updates the same row.
    await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), { ...esOverride, footer: 'Pie 2' });
    const rows = await overrideRows(a.id);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.footer).toBe('Pie 2');
    await call(t, adminA, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), esOverride);
  });
});

describe('tenant isolation', () => {
  it("answers 404 for another organisation's id, exactly like a missing one", async () => {
    for (const url of [
      `/api/organizations/${a.id}/mailer_modules`,
      `/api/organizations/${a.id}/mailer_modules/3/scenarios`,
      scenarioUrl(a.id, 3, 'action_assigned'),
    ]) {
      const res = await call(t, adminB, 'GET', url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found' });
    }
    const missing = await call(t, adminB, 'GET', `/api/organizations/0190f000-0000-7000-8000-000000000000/mailer_modules`);
    expect(missing.statusCode).toBe(404);
    const put = await call(t, adminB, 'PUT', scenarioUrl(a.id, 3, 'action_assigned'), { ...esOverride, subject: 'Hijacked' });
    expect(put.statusCode).toBe(404);
    const reset = await call(t, adminB, 'DELETE', `${scenarioUrl(a.id, 3, 'action_assigned')}?language=es`);
    expect(reset.statusCode).toBe(404);
    expect((await overrideRows(a.id))[0]?.subject).toBe(esOverride.subject);
  });

  it("never shows one organisation's texts to another", async () => {
    const res = await call(t, adminB, 'GET', scenarioUrl(b.id, 3, 'action_assigned'));
    const body = res.json() as { customized_languages: string[]; templates: Record<string, { subject: string }> };
    expect(body.customized_languages).toEqual([]);
    expect(body.templates['es']?.subject).toBe(assigned.defaults.es.subject);
  });
});

describe('sendTemplatedMail', () => {
  const variables = { action_title: 'Fix the rail', due_date: '2026-12-15', assigned_by: 'Sam', action_link: 'https://x/actions/1' };

  async function send(orgId: string, m: Parameters<typeof sendTemplatedMail>[2]) {
    const queued = await inTenant(t.deps.db.app, orgId, (tx) => sendTemplatedMail(tx, t.deps, m));
    await dispatchTemplatedMail(t.deps, queued);
    return queued;
  }
  const outbox = (orgId: string, id: string) =>
    inTenant(t.deps.db.app, orgId, async (tx) => (await tx.select().from(mailOutbox).where(eq(mailOutbox.id, id)))[0]);

  it("uses the organisation's text in the recipient's language and fills the variables", async () => {
    const q = await send(a.id, {
      scenario: 'action_assigned',
      to: a.userEmail,
      language: 'es',
      variables,
      userId: a.userId,
      link: '/actions/summary/1',
    });
    const mail = await outbox(a.id, q.mailId!);
    expect(mail).toMatchObject({ toAddress: a.userEmail, subject: 'ACME: nueva acción Fix the rail', status: 'kept' });
    // A calendar day is written as the recipient's language writes dates (issue 15), never as 2026-12-15.
    expect(mail?.body).toBe('Hola User, revise https://x/actions/1 antes del 15 dic 2026. mailalpha Ltd\n\n-- \nPie ACME');
    const [note] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(notifications).where(eq(notifications.id, q.notificationId!)),
    );
    // The second line names the record (the action) instead of repeating the title as the mail's subject did.
    expect(note).toMatchObject({
      userId: a.userId,
      title: 'Acción para usted, vence 15 dic 2026',
      body: 'Fix the rail',
      link: '/actions/summary/1',
    });
  });

  it('uses the default in a language the organisation did not customise, and in another organisation', async () => {
    const q = await send(a.id, { scenario: 'action_assigned', to: a.userEmail, language: 'en', variables, userId: a.userId });
    const mail = await outbox(a.id, q.mailId!);
    expect(mail?.subject).toBe('Action assigned to you: Fix the rail');
    expect(mail?.body).toContain('Hello User,');
    expect(mail?.body).toContain('mailalpha Ltd EHS team');
    const qb = await send(b.id, { scenario: 'action_assigned', to: b.userEmail, language: 'es', variables, userId: b.userId });
    expect((await outbox(b.id, qb.mailId!))?.subject).toBe('Acción asignada: Fix the rail');
  });

  it("refuses a variable the scenario does not have (a caller's typo)", async () => {
    await expect(send(a.id, { scenario: 'action_assigned', to: 'x@y.test', language: 'en', variables: { due: 'x' } })).rejects.toThrow(
      /unknown variables due/,
    );
  });

  it('falls back to the defaults after "reset to default"', async () => {
    const res = await call(t, adminA, 'DELETE', `${scenarioUrl(a.id, 3, 'action_assigned')}?language=es`);
    expect(res.statusCode).toBe(200);
    expect((res.json() as { customized_languages: string[] }).customized_languages).toEqual([]);
    const q = await send(a.id, { scenario: 'action_assigned', to: a.userEmail, language: 'es', variables, userId: a.userId });
    expect((await outbox(a.id, q.mailId!))?.subject).toBe('Acción asignada: Fix the rail');
    expect((await call(t, adminA, 'DELETE', `${scenarioUrl(a.id, 3, 'action_assigned')}?language=xx`)).statusCode).toBe(400);
  });

  it("respects the recipient's e-mail subscriptions; in-app and mandatory scenarios still arrive", async () => {
    const off = await call(t, userA, 'PUT', '/api/email_subscriptions', {
      subscriptions: [
        { scenario_id: 'action_assigned', email: false },
        { scenario_id: 'user_invited', email: false },
      ],
    });
    expect(off.statusCode).toBe(200);
    const q = await send(a.id, { scenario: 'action_assigned', to: a.userEmail, language: 'en', variables, userId: a.userId });
    expect(q.mailId).toBeNull();
    expect(q.notificationId).not.toBeNull();
    // Found by address when no userId is given.
    const byAddress = await send(a.id, { scenario: 'action_assigned', to: a.userEmail.toUpperCase(), language: 'en', variables });
    expect(byAddress.mailId).toBeNull();
    const invited = await send(a.id, {
      scenario: 'user_invited',
      to: a.userEmail,
      language: 'en',
      variables: { inviter_name: 'Admin', invite_link: 'https://x/i' },
      userId: a.userId,
    });
    expect(invited.mailId).not.toBeNull();
    // Another user of the same organisation is not affected.
    const admin = await send(a.id, { scenario: 'action_assigned', to: a.adminEmail, language: 'en', variables, userId: a.adminId });
    expect(admin.mailId).not.toBeNull();
    await call(t, userA, 'PUT', '/api/email_subscriptions', { subscriptions: [{ scenario_id: 'action_assigned', email: true }] });
    expect(
      (await send(a.id, { scenario: 'action_assigned', to: a.userEmail, language: 'en', variables, userId: a.userId })).mailId,
    ).not.toBeNull();
  });

  it("writes nothing when the caller's transaction rolls back", async () => {
    const before = (await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(mailOutbox))).length;
    await expect(
      inTenant(t.deps.db.app, a.id, async (tx) => {
        await sendTemplatedMail(tx, t.deps, { scenario: 'action_assigned', to: a.userEmail, language: 'en', variables, userId: a.userId });
        throw new Error('the change failed');
      }),
    ).rejects.toThrow('the change failed');
    expect((await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(mailOutbox))).length).toBe(before);
  });

  it('reads once and writes once (the outbox row and the notification together), or not at all when nothing is due', async () => {
    const seen: string[] = [];
    const original = pg.Client.prototype.query;
    async function counted(m: Parameters<typeof sendTemplatedMail>[2], deps: Parameters<typeof sendTemplatedMail>[1] = t.deps) {
      return inTenant(t.deps.db.app, a.id, async (tx) => {
        seen.length = 0;
        pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
          const first = args[0] as string | { text?: string };
          seen.push(typeof first === 'string' ? first : (first?.text ?? '?'));
          return (original as (...a: unknown[]) => unknown).apply(this, args);
        } as typeof pg.Client.prototype.query;
        try {
          return await sendTemplatedMail(tx, deps, m);
        } finally {
          pg.Client.prototype.query = original;
        }
      });
    }
    // To an address that is nobody's: the outbox row alone, with its attachments; without SMTP, logged as kept.
    // (First: the outbox's tests below expect the newest mail to be the user's.)
    const lines: string[] = [];
    const logged = { mail: createMail({ owner: t.deps.db.owner, smtpUrl: null, from: 'x@bulwark.test', log: (l) => lines.push(l) }) };
    const files = [randomUUID(), randomUUID()];
    const nobody = await counted(
      { scenario: 'action_assigned', to: 'someone@elsewhere.test', language: 'en', variables, attachmentFileIds: files },
      logged,
    );
    expect(seen).toHaveLength(2);
    expect(nobody).toMatchObject({ notificationId: null, userId: null });
    expect(await outbox(a.id, nobody.mailId!)).toMatchObject({ toAddress: 'someone@elsewhere.test', attachmentFileIds: files });
    expect(lines).toEqual([expect.stringContaining('mail kept in the outbox (no SMTP_URL): to someone@elsewhere.test: ')]);

    const both = await counted({ scenario: 'action_assigned', to: a.userEmail, language: 'en', variables, userId: a.userId, link: '' });
    expect(seen).toHaveLength(2);
    expect(both).toMatchObject({ organizationId: a.id, userId: a.userId });
    const [note] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(notifications).where(eq(notifications.id, both.notificationId!)),
    );
    expect(note).toMatchObject({ title: 'Sam assigned you an action due Dec 15, 2026', body: 'Fix the rail', link: null, isRead: false });
    expect(await outbox(a.id, both.mailId!)).toMatchObject({ status: 'kept', attachmentFileIds: [], attempts: 0 });

    // A user (found by address) who turned this e-mail off, without an in-app notification: nothing to write.
    await call(t, userA, 'PUT', '/api/email_subscriptions', { subscriptions: [{ scenario_id: 'action_assigned', email: false }] });
    try {
      const off = await counted({ scenario: 'action_assigned', to: a.userEmail, language: 'en', variables });
      expect(seen).toHaveLength(1);
      expect(off).toEqual({ organizationId: a.id, mailId: null, notificationId: null, userId: null });
    } finally {
      await call(t, userA, 'PUT', '/api/email_subscriptions', { subscriptions: [{ scenario_id: 'action_assigned', email: true }] });
    }
  });

  it('needs a tenant transaction', async () => {
    await expect(
      asPlatform(t.deps.db.app, (tx) =>
        sendTemplatedMail(tx, t.deps, { scenario: 'action_assigned', to: 'x@y.test', language: 'en', variables }),
      ),
    ).rejects.toThrow(/needs a tenant transaction/);
  });

  it('refuses a user of another organisation', async () => {
    await expect(send(a.id, { scenario: 'action_assigned', to: b.userEmail, language: 'en', variables, userId: b.userId })).rejects.toThrow(
      /no user/,
    );
  });
});

describe('outbox', () => {
  it("lists the organisation's mail newest first, paginated, with status and body", async () => {
    const res = await call(t, adminA, 'GET', '/api/mail_outbox?per_page=2');
    expect(res.statusCode).toBe(200);
    const body = res.json() as {
      mails: Array<{ id: string; to: string; subject: string; status: string; body: string; created_at: string }>;
      pagination: { total: number; total_pages: number };
      smtp_enabled: boolean;
    };
    expect(body.smtp_enabled).toBe(false);
    expect(body.mails).toHaveLength(2);
    expect(body.mails[0]!.created_at >= body.mails[1]!.created_at).toBe(true);
    expect(body.mails[0]).toMatchObject({ status: 'kept', to: a.userEmail });
    const all = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(mailOutbox));
    expect(body.pagination.total).toBe(all.length);
    const page2 = (await call(t, adminA, 'GET', '/api/mail_outbox?per_page=2&page=2')).json() as { mails: Array<{ id: string }> };
    expect(page2.mails.map((m) => m.id)).not.toContain(body.mails[0]!.id);
  });

  it("never shows another organisation's mail", async () => {
    const res = await call(t, adminB, 'GET', '/api/mail_outbox?per_page=200');
    const mails = (res.json() as { mails: Array<{ to: string }> }).mails;
    expect(mails.length).toBeGreaterThan(0);
    expect(mails.every((m) => m.to.endsWith('@mailbravo.test'))).toBe(true);
  });

  it("shows a kept message whole (without SMTP the outbox is how it reaches anyone), but not another person's reset link", async () => {
    const own = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': a.subDomain },
      payload: { email: a.adminEmail },
    });
    expect(own.statusCode).toBe(200);
    const outbox = (await call(t, adminA, 'GET', '/api/mail_outbox')).json() as { mails: Array<{ body: string }> };
    expect(outbox.mails[0]?.body).toMatch(/\/password-reset\/[A-Za-z0-9_-]{16,}/);
    const other = await t.app.inject({
      method: 'POST',
      url: '/api/v1/password_resets',
      headers: { 'x-tenant': a.subDomain },
      payload: { email: a.userEmail },
    });
    expect(other.statusCode).toBe(200);
    const after = (await call(t, adminA, 'GET', '/api/mail_outbox')).json() as { mails: Array<{ body: string }> };
    expect(after.mails[0]?.body).toContain('/password-reset/••••••');
  });

  it('refuses a bad page size', async () => {
    expect((await call(t, adminA, 'GET', '/api/mail_outbox?per_page=0')).statusCode).toBe(400);
  });
});

// Keeps the import of `users` meaningful: the recipient's full name comes from the users table.
describe('recipient name', () => {
  it('comes from the user record', async () => {
    await inTenant(t.deps.db.app, a.id, (tx) => tx.update(users).set({ fullName: 'Renamed Person' }).where(eq(users.id, a.userId)));
    const q = await inTenant(t.deps.db.app, a.id, (tx) =>
      sendTemplatedMail(tx, t.deps, {
        scenario: 'action_due_soon',
        to: a.userEmail,
        language: 'en',
        variables: { action_title: 'X', due_date: 'tomorrow', action_link: 'l' },
        userId: a.userId,
      }),
    );
    const [mail] = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.id, q.mailId!)));
    expect(mail?.body).toContain('Hello Renamed Person,');
  });
});

import { ACTION_STATUSES, ACTION_TRANSITIONS, actionDateIn, canMoveAction, translate, type ActionDetail } from '@bulwark/domain';
import { desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createActionsFor, registerActionSource } from '../src/modules/actions/service.js';
import { ACTIONS_SWEEP_QUEUE, sweepActions } from '../src/modules/actions/sweep.js';
import { moduleJobs } from '../src/app.js';
import { actions } from '../src/modules/actions/tables.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { sites } from '../src/modules/sites/tables.js';
import { loadPrincipal, type Principal } from '../src/platform/auth/principal.js';
import { AppError } from '../src/platform/errors.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { auditLog, mailOutbox, notifications, organizations } from '../src/platform/db/schema.js';
import { call, createOrg, createTestApp, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

let t: TestApp;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let adminA: Session;
let managerA: Session;
let doerA: Session;
let readerA: Session;
const ids = { manager: '', doer: '', other: '' };
const site = { london: '', kiritimati: '', honolulu: '' };

const en = (key: string, vars?: Record<string, string>) => translate('en', key, vars);

/** Calls made to the audit source's hook: the source ids, and the statuses its actions had inside the transaction. */
const hookCalls: Array<{ ids: string[]; statuses: string[] }> = [];
registerActionSource('audit', {
  async onActionsChanged(tx, sourceIds) {
    const rows = await tx.select({ status: actions.status }).from(actions).where(eq(actions.sourceId, sourceIds[0]!));
    hookCalls.push({ ids: sourceIds, statuses: rows.map((r) => r.status) });
  },
  async describe(_tx, sourceIds) {
    return new Map(sourceIds.map((id) => [id, { serial: 42, label: 'Monthly scaffold audit' }]));
  },
});

function dateFrom(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}
const inDays = (days: number) => dateFrom(actionDateIn('Europe/London'), days);

async function raise(s: Session, over: Record<string, unknown> = {}): Promise<ActionDetail> {
  const res = await call(t, s, 'POST', '/api/actions/', {
    description: 'Repair the loading bay door',
    control_type: 'engineering',
    responsible_id: ids.doer,
    due_date: inDays(5),
    site_id: site.london,
    ...over,
  });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ActionDetail;
}

const patch = (s: Session, id: string, body: Record<string, unknown>, lang = 'en') =>
  call(t, s, 'PATCH', `/api/actions/${id}`, body, { 'accept-language': lang });

async function rowOf(id: string) {
  const [row] = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(actions).where(eq(actions.id, id)));
  return row!;
}

async function mailsTo(email: string) {
  return inTenant(t.deps.db.app, a.id, (tx) =>
    tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email)).orderBy(desc(mailOutbox.createdAt)),
  );
}

async function principalOf(s: Session, orgId: string): Promise<Principal> {
  const claims = await t.deps.tokens.verify(s.token);
  return (await inTenant(t.deps.db.app, orgId, (tx) => loadPrincipal(tx, claims!.sub, claims!.sid)))!;
}

async function addSite(name: string, timeZone: string): Promise<string> {
  return inTenant(t.deps.db.app, a.id, async (tx) => {
    const [row] = await tx
      .insert(sites)
      .values({
        name,
        timeZone,
        emergencyPhone: '020 7946 0958',
        address: '1 Dock Road',
        city: 'Town',
        state: 'State',
        country: 'GB',
        zip: 'E16 2QU',
      })
      .returning({ id: sites.id });
    return row!.id;
  });
}

/** Sets an action's status and dates directly, as if time had passed. */
async function force(id: string, set: Partial<typeof actions.$inferInsert>) {
  await inTenant(t.deps.db.app, a.id, (tx) => tx.update(actions).set(set).where(eq(actions.id, id)));
}

beforeAll(async () => {
  t = await createTestApp();
  a = await createOrg(t, 'flowa');
  b = await createOrg(t, 'flowb');
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${a.id}, true)`);
    const r = (name: 'Action' | 'Observation', view: boolean, add: boolean, edit: boolean) => ({
      name,
      rAdd: add,
      rEdit: edit,
      rView: view,
      rDestroy: false,
      isRevoke: false,
      isExtend: false,
      isClose: false,
      isReject: false,
      isApprove: false,
    });
    await createRole(tx, 'Action manager', [r('Action', true, true, true)]);
    await createRole(tx, 'Doer', [r('Observation', true, false, false)]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  ids.manager = (
    await orgs.createUser('flowa', {
      email: 'manager@flowa.test',
      fullName: 'Priya Manager',
      password: PASSWORD,
      roleName: 'Action manager',
    })
  ).id;
  ids.doer = (
    await orgs.createUser('flowa', {
      email: 'doer@flowa.test',
      fullName: 'Tomasz Doer',
      password: PASSWORD,
      roleName: 'Doer',
      locale: 'es',
    })
  ).id;
  ids.other = (
    await orgs.createUser('flowa', { email: 'other@flowa.test', fullName: 'Olu Other', password: PASSWORD, roleName: 'Doer' })
  ).id;
  site.london = await addSite('London Works', 'Europe/London');
  site.kiritimati = await addSite('Line Islands Depot', 'Pacific/Kiritimati');
  site.honolulu = await addSite('Honolulu Yard', 'Pacific/Honolulu');
  adminA = await signIn(t, 'flowa', a.adminEmail);
  managerA = await signIn(t, 'flowa', 'manager@flowa.test');
  doerA = await signIn(t, 'flowa', 'doer@flowa.test');
  readerA = await signIn(t, 'flowa', a.userEmail);
}, 60_000);

afterAll(async () => {
  await t?.close();
});

describe('the transitions of the domain', () => {
  it('close only from completed, nothing leaves closed, overdue only by the sweep', () => {
    for (const from of ACTION_STATUSES) {
      expect(canMoveAction(from, 'closed')).toBe(from === 'completed');
      expect(canMoveAction('closed', from)).toBe(false);
    }
    expect(ACTION_TRANSITIONS.completed).not.toContain('overdue');
  });
});

describe('PATCH /api/actions/{id}: the responsible person', () => {
  it('starts and completes their own action (with remarks), and the raiser is told', async () => {
    const x = await raise(managerA);
    const started = await patch(doerA, x.id, { status: 'in_progress' });
    expect(started.statusCode, started.body).toBe(200);
    expect(started.json()).toMatchObject({ status: 'in_progress', can: { edit: false, report: true, move_to: ['completed'] } });

    const noRemarks = await patch(doerA, x.id, { status: 'completed' });
    expect(noRemarks.statusCode).toBe(400);
    expect(noRemarks.json().fields.remarks).toBe(en('actions.validation.remarksToComplete'));
    const blank = await patch(doerA, x.id, { status: 'completed', remarks: '   ' });
    expect(blank.json().fields.remarks).toBe(en('actions.validation.remarksToComplete'));
    expect((await rowOf(x.id)).status).toBe('in_progress');

    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    const done = await patch(doerA, x.id, {
      status: 'completed',
      remarks: 'New door fitted and tested',
      image_description: 'Door after repair',
    });
    expect(done.statusCode, done.body).toBe(200);
    const body = done.json() as ActionDetail;
    expect(body).toMatchObject({
      status: 'completed',
      remarks: 'New door fitted and tested',
      completed_by: { id: ids.doer },
      can: { move_to: [] },
    });
    expect(body.completed_at).not.toBeNull();
    expect(pushed).toHaveBeenCalledWith(a.id, { channel: 'actions', change: 'updated', id: x.id });
    pushed.mockRestore();
    expect(body.history.map((h) => h.event)).toEqual(['action_create', 'action_status', 'action_status']);
    expect(body.history.at(-1)).toMatchObject({
      changes: { from: 'in_progress', to: 'completed', remarks: { from: null, to: 'New door fitted and tested' } },
      actor: { id: ids.doer },
    });

    const [mail] = await mailsTo('manager@flowa.test');
    expect(mail?.subject).toBe(`Action completed: #${x.serial} Repair the loading bay door`);
    expect(mail?.body).toContain('Tomasz Doer');
  });

  it('may not edit other fields, reassign, close or touch someone else’s action', async () => {
    const x = await raise(managerA);
    for (const body of [{ description: 'Mine now' }, { due_date: inDays(30) }, { responsible_id: ids.other }, { control_type: 'ppe' }]) {
      const res = await patch(doerA, x.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(403);
      expect(Object.values(res.json().fields)[0]).toBe(en('actions.validation.notAllowed'));
    }
    // Sending back the values as they are changes nothing and is allowed (a form sends every field).
    expect((await patch(doerA, x.id, { description: x.description, remarks: 'Ordered the parts' })).statusCode).toBe(200);
    await patch(doerA, x.id, { status: 'completed' });
    expect((await rowOf(x.id)).status).toBe('completed');
    expect((await patch(doerA, x.id, { status: 'closed' })).statusCode).toBe(403);
    expect((await patch(doerA, x.id, { status: 'in_progress' })).statusCode).toBe(403);

    const notMine = await raise(managerA, { responsible_id: ids.other });
    expect((await patch(doerA, notMine.id, { status: 'in_progress' })).statusCode).toBe(403);
    expect((await patch(readerA, notMine.id, { remarks: 'hello' })).statusCode).toBe(403);
    expect((await rowOf(notMine.id)).remarks).toBeNull();
  });
});

describe('PATCH /api/actions/{id}: when the platform stops writes', () => {
  it('refuses the responsible person’s changes once the free trial has ended or the storage is full, and writes nothing', async () => {
    const x = await raise(managerA);
    await t.deps.db.owner
      .update(organizations)
      .set({ trialEndsAt: new Date(Date.now() - 60_000) })
      .where(eq(organizations.id, a.id));
    try {
      const res = await patch(doerA, x.id, { status: 'in_progress' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('free_trial_expired');
    } finally {
      await t.deps.db.owner
        .update(organizations)
        .set({ trialEndsAt: new Date(Date.now() + 14 * 86_400_000) })
        .where(eq(organizations.id, a.id));
    }
    const [org] = await t.deps.db.owner.select().from(organizations).where(eq(organizations.id, a.id));
    await t.deps.db.owner.update(organizations).set({ storageQuotaBytes: org!.storageUsedBytes }).where(eq(organizations.id, a.id));
    try {
      const res = await patch(doerA, x.id, { remarks: 'Started' });
      expect(res.statusCode).toBe(403);
      expect(res.json().code).toBe('memory_exhausted');
    } finally {
      await t.deps.db.owner.update(organizations).set({ storageQuotaBytes: org!.storageQuotaBytes }).where(eq(organizations.id, a.id));
    }
    expect(await rowOf(x.id)).toMatchObject({ status: 'open', remarks: null });
  });
});

describe('PATCH /api/actions/{id}: Action update', () => {
  it('edits, reassigns (telling the new person), sends back and closes only from completed', async () => {
    const x = await raise(managerA);
    const closeEarly = await patch(managerA, x.id, { status: 'closed' });
    expect(closeEarly.statusCode).toBe(400);
    expect(closeEarly.json().fields.status).toBe(
      en('actions.validation.transition', { from: en('actions.status.open'), to: en('actions.status.closed') }),
    );
    const es = await patch(managerA, x.id, { status: 'closed' }, 'es');
    expect(es.json().fields.status).toBe('Una acción no puede pasar de Abierta a Cerrada.');
    expect((await patch(managerA, x.id, { status: 'overdue' })).json().fields.status).toBe(en('actions.validation.overdueBySystem'));

    const edited = await patch(managerA, x.id, {
      description: 'Replace the loading bay door',
      control_type: 'substitution',
      responsible_id: ids.other,
      due_date: inDays(9),
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json()).toMatchObject({
      description: 'Replace the loading bay door',
      control_type: 'substitution',
      responsible: { id: ids.other },
      due_date: inDays(9),
    });
    const update = (edited.json() as ActionDetail).history.find((h) => h.event === 'action_update');
    expect(update?.changes).toMatchObject({
      responsible_id: { from: ids.doer, to: ids.other },
      control_type: { from: 'engineering', to: 'substitution' },
    });
    const [assigned] = await mailsTo('other@flowa.test');
    expect(assigned?.subject).toBe(`Action assigned to you: #${x.serial} Replace the loading bay door`);
    const [note] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(notifications).where(eq(notifications.userId, ids.other)).orderBy(desc(notifications.createdAt)),
    );
    expect(note?.link).toBe(`/actions/summary/${x.id}`);

    await patch(managerA, x.id, { status: 'completed', remarks: 'Done' });
    const back = await patch(managerA, x.id, { status: 'in_progress' });
    expect(back.json()).toMatchObject({ status: 'in_progress', completed_at: null, completed_by: null });
    // Someone other than the one who completed it closes it (actions-close.test.ts).
    await patch(adminA, x.id, { status: 'completed' });
    const closed = await patch(managerA, x.id, { status: 'closed' });
    expect(closed.json()).toMatchObject({
      status: 'closed',
      closed_by: { id: ids.manager },
      can: { edit: false, report: false, move_to: [] },
    });

    // Closed is final: no edit, no status, no file.
    const again = await patch(managerA, x.id, { remarks: 'More' });
    expect(again.statusCode).toBe(409);
    expect(again.json().errors[0]).toBe(en('actions.validation.closedReadOnly'));
    expect((await patch(adminA, x.id, { status: 'in_progress' })).statusCode).toBe(409);
  });

  it('refuses bad values of every field with translated errors and writes nothing', async () => {
    const x = await raise(managerA);
    const cases: Array<[Record<string, unknown>, string, string]> = [
      [{ description: '' }, 'description', 'validation.required'],
      [{ description: 'x'.repeat(2001) }, 'description', 'validation.tooLong'],
      [{ control_type: 'luck' }, 'control_type', 'actions.validation.controlType'],
      [{ responsible_id: 'bob' }, 'responsible_id', 'actions.validation.responsible'],
      [{ responsible_id: b.userId }, 'responsible_id', 'actions.validation.responsibleUnknown'],
      [{ due_date: '2031-13-01' }, 'due_date', 'actions.validation.dueDate'],
      [{ due_date: '2020-05-05' }, 'due_date', 'actions.validation.dueDatePast'],
      [{ category_id: 'x' }, 'category_id', 'actions.validation.category'],
      [{ category_id: '00000000-0000-4000-8000-000000000000' }, 'category_id', 'actions.validation.categoryUnknown'],
      [{ site_id: 'x' }, 'site_id', 'actions.validation.site'],
      [{ remarks: 'r'.repeat(2001) }, 'remarks', 'validation.tooLong'],
      [{ image_description: 'i'.repeat(2001) }, 'image_description', 'validation.tooLong'],
      [{ status: 'done' }, 'status', 'actions.validation.status'],
    ];
    for (const [body, field, key] of cases) {
      const res = await patch(managerA, x.id, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().fields[field], JSON.stringify(body)).toBe(en(key));
    }
    expect((await patch(managerA, x.id, {})).statusCode).toBe(400);
    const row = await rowOf(x.id);
    expect(row).toMatchObject({
      description: x.description,
      controlType: 'engineering',
      responsibleId: ids.doer,
      dueDate: x.due_date,
      status: 'open',
      remarks: null,
    });
  });

  it('moves an overdue action back to open when its due date is moved on, and not before', async () => {
    const x = await raise(managerA);
    await force(x.id, { status: 'overdue', dueDate: '2024-01-10' });
    const stillLate = await patch(managerA, x.id, { status: 'open' });
    expect(stillLate.json().fields.status).toBe(en('actions.validation.stillOverdue'));
    const moved = await patch(managerA, x.id, { due_date: inDays(3) });
    expect(moved.json()).toMatchObject({ status: 'open', due_date: inDays(3) });
    expect((moved.json() as ActionDetail).history.at(-1)).toMatchObject({
      event: 'action_status',
      changes: { from: 'overdue', to: 'open', due_date: { from: '2024-01-10', to: inDays(3) } },
    });
  });

  it('keeps the site of an action with a source; an action of its own may move to an active site', async () => {
    const x = await raise(managerA);
    expect((await patch(managerA, x.id, { site_id: site.honolulu })).json()).toMatchObject({ site: { id: site.honolulu } });
    const audited = await inTenant(t.deps.db.app, a.id, async (tx) => {
      const p = await principalOf(managerA, a.id);
      return createActionsFor(tx, t.deps, p, { type: 'audit', id: crypto.randomUUID(), siteId: site.london }, [
        {
          description: 'From an audit',
          control_type: 'administrative',
          responsible_id: ids.doer,
          due_date: inDays(4),
          category_id: null,
          remarks: null,
        },
      ]);
    });
    const res = await patch(managerA, audited.actions[0]!.id, { site_id: site.honolulu });
    expect(res.json().fields.site_id).toBe(en('actions.validation.siteOfSource'));
  });
});

describe('source modules (registerActionSource, createActionsFor)', () => {
  it('runs the source hook in the same transaction on create, status change and the sweep; describes the source', async () => {
    const sourceId = crypto.randomUUID();
    hookCalls.length = 0;
    const p = await principalOf(managerA, a.id);
    const created = await inTenant(t.deps.db.app, a.id, (tx) =>
      createActionsFor(tx, t.deps, p, { type: 'audit', id: sourceId, siteId: site.london }, [
        {
          description: 'Fix scaffold tag',
          control_type: 'administrative',
          responsible_id: ids.doer,
          due_date: inDays(2),
          category_id: null,
          remarks: null,
        },
        {
          description: 'Brace bay 3',
          control_type: 'engineering',
          responsible_id: ids.other,
          due_date: inDays(6),
          category_id: null,
          remarks: 'Urgent',
        },
      ]),
    );
    expect(created.actions.map((x) => [x.source_type, x.source_id, x.source_serial, x.status])).toEqual([
      ['audit', sourceId, 42, 'open'],
      ['audit', sourceId, 42, 'open'],
    ]);
    expect(hookCalls).toEqual([{ ids: [sourceId], statuses: ['open', 'open'] }]);
    const pushed = vi.spyOn(t.deps.push, 'toOrganization');
    await created.afterCommit();
    expect(pushed).toHaveBeenCalledTimes(2);
    pushed.mockRestore();

    const [first, second] = created.actions;
    const detail = (await call(t, managerA, 'GET', `/api/actions/${first!.id}?actionable_type=audit`)).json() as ActionDetail;
    expect(detail.source).toEqual({ type: 'audit', id: sourceId, serial: 42, label: 'Monthly scaffold audit' });
    await patch(doerA, first!.id, { status: 'in_progress' });
    expect(hookCalls.at(-1)).toEqual({ ids: [sourceId], statuses: expect.arrayContaining(['in_progress', 'open']) });
    // An edit that leaves the status alone does not call the hook.
    const before = hookCalls.length;
    await patch(managerA, second!.id, { description: 'Brace bays 3 and 4' });
    expect(hookCalls.length).toBe(before);

    await force(second!.id, { dueDate: '2024-03-01' });
    await sweepActions(t.deps, new Date());
    expect(hookCalls.at(-1)!.ids).toEqual([sourceId]);
    expect(hookCalls.at(-1)!.statuses).toContain('overdue');
  });

  it('refuses bad items with field paths under actions.N and writes nothing', async () => {
    const p = await principalOf(managerA, a.id);
    const sourceId = crypto.randomUUID();
    const attempt = inTenant(t.deps.db.app, a.id, (tx) =>
      createActionsFor(tx, t.deps, p, { type: 'audit', id: sourceId, siteId: site.kiritimati }, [
        { description: 'Fine', control_type: 'ppe', responsible_id: ids.doer, due_date: inDays(10), category_id: null, remarks: null },
        {
          description: 'Late',
          control_type: 'ppe',
          responsible_id: b.userId,
          due_date: '2020-01-01',
          category_id: crypto.randomUUID(),
          remarks: null,
        },
      ]),
    );
    await expect(attempt).rejects.toBeInstanceOf(AppError);
    await expect(attempt).rejects.toMatchObject({
      code: 'validation_failed',
      options: {
        fields: {
          'actions.1.responsible_id': 'actions.validation.responsibleUnknown',
          'actions.1.due_date': 'actions.validation.dueDatePast',
          'actions.1.category_id': 'actions.validation.categoryUnknown',
        },
      },
    });
    const rows = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(actions).where(eq(actions.sourceId, sourceId)));
    expect(rows).toEqual([]);
  });
});

describe('the hourly sweep (overdue and due-soon, in each site’s time zone)', () => {
  it('is scheduled hourly through the jobs of the module', () => {
    const jobs = moduleJobs(t.deps);
    expect(jobs.schedules).toContainEqual({ name: ACTIONS_SWEEP_QUEUE, cron: '15 * * * *' });
    expect(typeof jobs.handlers[ACTIONS_SWEEP_QUEUE]).toBe('function');
  });

  it('uses the site’s date: at 12:00 UTC Kiritimati is already on the next day, Honolulu not', async () => {
    // A day ten days ahead, at noon UTC: Kiritimati (UTC+14) reads the next date, Honolulu (UTC-10) the same.
    const due = inDays(10);
    const now = new Date(`${due}T12:00:00Z`);
    expect(actionDateIn('Pacific/Kiritimati', now)).toBe(dateFrom(due, 1));
    expect(actionDateIn('Pacific/Honolulu', now)).toBe(due);

    const lateAtKiritimati = await raise(managerA, { site_id: site.kiritimati, due_date: due, description: 'Kiritimati rail' });
    const dueTodayInHonolulu = await raise(managerA, { site_id: site.honolulu, due_date: due, description: 'Honolulu rail' });
    const tomorrowInHonolulu = await raise(managerA, {
      site_id: site.honolulu,
      due_date: dateFrom(due, 1),
      description: 'Honolulu ladder',
    });
    const tomorrowInKiritimati = await raise(managerA, {
      site_id: site.kiritimati,
      due_date: dateFrom(due, 2),
      description: 'Kiritimati ladder',
    });
    const finished = await raise(managerA, { site_id: site.kiritimati, due_date: due, description: 'Already done' });
    await patch(managerA, finished.id, { status: 'completed', remarks: 'Done early' });

    const mine = new Set([lateAtKiritimati, dueTodayInHonolulu, tomorrowInHonolulu, tomorrowInKiritimati, finished].map((x) => x.id));
    const ours = (list: string[]) => list.filter((id) => mine.has(id));
    const serials = [lateAtKiritimati, tomorrowInHonolulu, tomorrowInKiritimati, dueTodayInHonolulu].map((x) => `#${x.serial} `);
    const ourMails = async () =>
      (await mailsTo('doer@flowa.test')).filter(
        (m) => !m.subject.startsWith('Acción asignada') && serials.some((n) => m.subject.includes(n)),
      );
    const result = await sweepActions(t.deps, now);
    expect(ours(result.overdue)).toEqual([lateAtKiritimati.id]);
    expect(new Set(ours(result.dueSoon))).toEqual(new Set([tomorrowInHonolulu.id, tomorrowInKiritimati.id]));
    expect((await rowOf(lateAtKiritimati.id)).status).toBe('overdue');
    expect((await rowOf(dueTodayInHonolulu.id)).status).toBe('open');
    expect((await rowOf(finished.id)).status).toBe('completed');

    // The responsible person (Spanish) got one overdue and two due-soon messages, in Spanish, and in-app notes.
    const mails = await ourMails();
    expect(mails.map((m) => m.subject).sort()).toEqual(
      [
        `Acción próxima a vencer: #${tomorrowInHonolulu.serial} Honolulu ladder`,
        `Acción próxima a vencer: #${tomorrowInKiritimati.serial} Kiritimati ladder`,
        `Acción vencida: #${lateAtKiritimati.serial} Kiritimati rail`,
      ].sort(),
    );
    expect(mails.find((m) => m.subject.startsWith('Acción vencida'))?.body).toContain('lleva 1 día vencida');
    const notes = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(notifications).where(eq(notifications.userId, ids.doer)));
    for (const x of [lateAtKiritimati, tomorrowInHonolulu, tomorrowInKiritimati]) {
      // One on assignment, one from the sweep.
      expect(notes.filter((n) => n.link === `/actions/summary/${x.id}`)).toHaveLength(2);
    }
    const [log] = await inTenant(t.deps.db.app, a.id, (tx) =>
      tx.select().from(auditLog).where(eq(auditLog.entityId, lateAtKiritimati.id)).orderBy(desc(auditLog.createdAt)).limit(1),
    );
    expect(log).toMatchObject({ action: 'action_overdue', actorUserId: null, changes: { from: 'open', to: 'overdue' } });

    // Once only: the next hour sends nothing more.
    const again = await sweepActions(t.deps, new Date(now.getTime() + 3_600_000));
    expect(ours(again.overdue)).toEqual([]);
    expect(ours(again.dueSoon)).toEqual([]);
    expect(await ourMails()).toHaveLength(3);

    // A day later Honolulu's action is overdue as well.
    const nextDay = await sweepActions(t.deps, new Date(now.getTime() + 86_400_000));
    expect(nextDay.overdue).toContain(dueTodayInHonolulu.id);
  });

  it('leaves other organisations’ actions to their own transaction and never mixes them', async () => {
    const adminB = await signIn(t, 'flowb', b.adminEmail);
    const [siteB] = await inTenant(t.deps.db.app, b.id, (tx) =>
      tx
        .insert(sites)
        .values({
          name: 'B Site',
          timeZone: 'Europe/London',
          emergencyPhone: '020 7946 0958',
          address: 'x',
          city: 'x',
          state: 'x',
          country: 'GB',
          zip: 'E16 2QU',
        })
        .returning({ id: sites.id }),
    );
    const res = await call(t, adminB, 'POST', '/api/actions/', {
      description: 'B action',
      control_type: 'ppe',
      responsible_id: b.userId,
      due_date: inDays(1),
      site_id: siteB!.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const idB = (res.json() as ActionDetail).id;
    const result = await sweepActions(t.deps, new Date(`${inDays(3)}T12:00:00Z`));
    expect(result.overdue).toContain(idB);
    const [mail] = await inTenant(t.deps.db.app, b.id, (tx) =>
      tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.userEmail)).orderBy(desc(mailOutbox.createdAt)),
    );
    expect(mail?.subject).toBe('Action overdue: #1 B action');
    const mailsInA = await inTenant(t.deps.db.app, a.id, (tx) => tx.select().from(mailOutbox).where(eq(mailOutbox.toAddress, b.userEmail)));
    expect(mailsInA).toEqual([]);
  });
});

import { addAuditDays, localDateIn, type AuditCalendar, type AuditSchedule } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runAuditSchedules } from '../src/modules/audits/scheduler.js';
import { call, createTestApp, type TestApp } from './helpers.js';
import { answered, auditWorld, fireTemplate, getAudit, makeFreeAccount, ok, outbox, yes, type World } from './audits-support.js';

/**
 * Issue 17, schedules and their job: each due audit is made once, even by two workers at once (the
 * job called twice concurrently with time moved forward makes one audit), its auditor is told once; an
 * audit whose window has passed at its site (its own time zone) turns overdue once; the month calendar.
 */

let t: TestApp;
let w: World;
let fire: Awaited<ReturnType<typeof fireTemplate>>;
const DAY = 86_400_000;
const utcDate = (at: Date) => at.toISOString().slice(0, 10);
const at = (date: string, hour: number) => new Date(`${date}T${String(hour).padStart(2, '0')}:00:00Z`);

beforeAll(async () => {
  t = await createTestApp();
  w = await auditWorld(t, 'auditjobs');
  fire = await fireTemplate(t, w.people.manager.s);
}, 120_000);
afterAll(() => t?.close());

async function schedule(body: Record<string, unknown>) {
  return (
    await ok<{ schedule: AuditSchedule }>(
      await call(t, w.people.manager.s, 'POST', '/api/audit_schedules', {
        template_id: fire.id,
        auditor_id: w.people.auditor.id,
        ...body,
      }),
      201,
    )
  ).schedule;
}
const auditsOf = async (scheduleId: string) =>
  (
    await t.deps.db.ownerPool.query<{ id: string; site_id: string; due_date: string; status: string; window_end: string }>(
      `select id, site_id, to_char(due_date, 'YYYY-MM-DD') as due_date, to_char(window_end, 'YYYY-MM-DD') as window_end, status
       from audits where schedule_id = $1 order by due_date, site_id`,
      [scheduleId],
    )
  ).rows;

describe('the schedules job makes each due audit once', () => {
  it('makes today’s audit at creation, then each next one when due, once even when two workers run at the same moment', async () => {
    const today = localDateIn('Asia/Tokyo', new Date());
    const s = await schedule({ site_ids: [w.tokyo], frequency: 'weekly', start_date: today });
    expect((await auditsOf(s.id)).map((a) => [a.due_date, a.window_end])).toEqual([[today, addAuditDays(today, 6)]]);
    expect(s).toMatchObject({ audits_count: 1, next_due_date: today });

    // A week later, two app nodes run the job at the same moment.
    const later = new Date(Date.now() + 7 * DAY);
    const mailsBefore = (await outbox(t, w.org.id, 'Audit scheduled')).length;
    const [one, two] = await Promise.all([runAuditSchedules(t.deps, later), runAuditSchedules(t.deps, later)]);
    const made = (await auditsOf(s.id)).map((a) => a.due_date);
    expect(made).toEqual([today, addAuditDays(today, 7)]);
    expect([...one.made, ...two.made]).toHaveLength(1);
    expect((await outbox(t, w.org.id, 'Audit scheduled')).length - mailsBefore).toBe(1);
    // Run again: nothing new.
    expect((await runAuditSchedules(t.deps, later)).made).toEqual([]);
    const serials = await t.deps.db.ownerPool.query<{ serial: number }>(
      'select serial from audits where organization_id = $1 order by serial',
      [w.org.id],
    );
    expect(serials.rows.map((r) => r.serial)).toEqual(serials.rows.map((_, n) => n + 1));
  });

  it('makes one audit per site of the schedule, and none while the schedule is paused or its template switched off', async () => {
    const start = utcDate(new Date(Date.now() + 3 * DAY));
    const s = await schedule({ site_ids: [w.tokyo, w.la], frequency: 'daily', start_date: start });
    expect(await auditsOf(s.id)).toEqual([]);
    await ok(await call(t, w.people.manager.s, 'PATCH', `/api/audit_schedules/${s.id}`, { active: false }));
    await runAuditSchedules(t.deps, at(addAuditDays(start, 1), 12));
    expect(await auditsOf(s.id)).toEqual([]);
    await ok(await call(t, w.people.manager.s, 'PATCH', `/api/audit_schedules/${s.id}`, { active: true }));
    await runAuditSchedules(t.deps, at(start, 12));
    expect((await auditsOf(s.id)).map((a) => [a.due_date, a.site_id]).sort()).toEqual(
      [
        [start, w.la],
        [start, w.tokyo],
      ].sort(),
    );
    // Once it has made audits, its template, sites, frequency and start stay.
    const fixed = await call(t, w.people.manager.s, 'PATCH', `/api/audit_schedules/${s.id}`, { frequency: 'weekly' });
    expect(fixed.statusCode).toBe(409);
    // Deleting it removes its audits not started; a started one stays.
    const [first] = await auditsOf(s.id);
    await t.deps.db.ownerPool.query('update audits set auditor_id = $2 where id = $1', [first!.id, w.people.auditor.id]);
    await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${first!.id}/start`, {}));
    await ok(await call(t, w.people.manager.s, 'DELETE', `/api/audit_schedules/${s.id}`));
    const left = await t.deps.db.ownerPool.query<{ id: string; schedule_id: string | null }>(
      'select id, schedule_id from audits where id = any($1)',
      [
        (await t.deps.db.ownerPool.query<{ id: string }>('select id from audits where organization_id = $1', [w.org.id])).rows.map(
          (r) => r.id,
        ),
      ],
    );
    expect(left.rows.find((r) => r.id === first!.id)).toEqual({ id: first!.id, schedule_id: null });
  });

  it('refuses a start before today at a site, an auditor who may not run audits and an area of another site', async () => {
    const res = await call(t, w.people.manager.s, 'POST', '/api/audit_schedules', {
      template_id: fire.id,
      site_ids: [w.la],
      site_node_id: w.tokyoArea,
      auditor_id: w.people.reader.id,
      frequency: 'monthly',
      start_date: utcDate(new Date(Date.now() - 3 * DAY)),
    });
    expect(res.statusCode).toBe(400);
    expect(Object.keys(res.json().fields).sort()).toEqual(['auditor_id', 'site_node_id', 'start_date']);
  });
});

describe('overdue once the window has passed at the site (its time zone)', () => {
  it('marks the Tokyo audit overdue before the Los Angeles one due the same day, tells each auditor once', async () => {
    const due = utcDate(new Date(Date.now() + 10 * DAY));
    const tokyo = await schedule({ site_ids: [w.tokyo], frequency: 'once', start_date: due });
    const la = await schedule({ site_ids: [w.la], frequency: 'once', start_date: due });
    await runAuditSchedules(t.deps, at(due, 12));
    const [tokyoAudit] = await auditsOf(tokyo.id);
    const [laAudit] = await auditsOf(la.id);
    // Started in Tokyo: still overdue when the window passes, and stays running late.
    await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${tokyoAudit!.id}/start`, {}));

    // The next day 05:00 UTC: 14:00 in Tokyo (window passed), 22:00 the day before in Los Angeles.
    const first = await runAuditSchedules(t.deps, at(addAuditDays(due, 1), 5));
    expect(first.overdue).toContain(tokyoAudit!.id);
    expect(first.overdue).not.toContain(laAudit!.id);
    expect((await getAudit(t, w.people.reader.s, laAudit!.id)).status).toBe('scheduled');
    const late = await getAudit(t, w.people.reader.s, tokyoAudit!.id);
    expect(late).toMatchObject({ status: 'overdue', late: true, permissions: { answer: false } });
    expect((await getAudit(t, w.people.auditor.s, tokyoAudit!.id)).permissions).toMatchObject({ answer: true, complete: true });

    const second = await runAuditSchedules(t.deps, at(addAuditDays(due, 1), 12));
    expect(second.overdue).toContain(laAudit!.id);
    expect((await runAuditSchedules(t.deps, at(addAuditDays(due, 2), 12))).overdue).not.toEqual(expect.arrayContaining([tokyoAudit!.id]));
    const mails = (await outbox(t, w.org.id, 'Audit overdue')).map((m) => m.body);
    expect(mails.filter((b) => b.includes(tokyoAudit!.id) || b.includes(laAudit!.id))).toHaveLength(2);

    // An overdue audit run late completes; it keeps "late".
    await answered(t, w.people.auditor.s, tokyoAudit!.id, fire.placed.id, [yes]);
    await answered(t, w.people.auditor.s, tokyoAudit!.id, fire.exits.id, [yes]);
    await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${tokyoAudit!.id}/complete`, { declaration_accepted: true }));
    expect(await getAudit(t, w.people.reader.s, tokyoAudit!.id)).toMatchObject({ status: 'completed', late: true });
  });
});

describe('the month calendar: scheduled against completed', () => {
  it('counts per day the audits due (made and still to be made) and completed, by site and type', async () => {
    const start = utcDate(new Date(Date.now() + 40 * DAY));
    const month = start.slice(0, 7);
    await schedule({ site_ids: [w.la], frequency: 'weekly', start_date: start });
    const body = await ok<AuditCalendar>(await call(t, w.people.reader.s, 'POST', '/api/audits/schedulesinfo', { month, site_id: w.la }));
    const wanted = [0, 7, 14, 21, 28].map((n) => addAuditDays(start, n)).filter((d) => d.startsWith(month));
    expect(body.days.filter((d) => d.scheduled > 0).map((d) => d.date)).toEqual(wanted);
    expect(body.totals).toEqual({ scheduled: wanted.length, completed: 0, overdue: 0 });
    const other = await ok<AuditCalendar>(
      await call(t, w.people.reader.s, 'POST', '/api/audits/schedulesinfo', { month, site_id: w.la, type: 'ppe' }),
    );
    expect(other.totals.scheduled).toBe(0);
    expect((await call(t, w.people.reader.s, 'POST', '/api/audits/schedulesinfo', { month: '2026-13' })).statusCode).toBe(400);
  });

  it('counts the completed audits on their site’s day', async () => {
    const today = localDateIn('Asia/Tokyo', new Date());
    const s = await schedule({ site_ids: [w.tokyo], frequency: 'once', start_date: today });
    const [a] = await auditsOf(s.id);
    await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${a!.id}/start`, {}));
    await answered(t, w.people.auditor.s, a!.id, fire.placed.id, [yes]);
    await answered(t, w.people.auditor.s, a!.id, fire.exits.id, [yes]);
    await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${a!.id}/complete`, { declaration_accepted: true }));
    const body = await ok<AuditCalendar>(
      await call(t, w.people.reader.s, 'POST', '/api/audits/schedulesinfo', { month: today.slice(0, 7), site_id: w.tokyo }),
    );
    expect(body.days.find((d) => d.date === today)!.completed).toBeGreaterThanOrEqual(1);
  });
});

describe('the free account’s schedule limit', () => {
  it('answers the spec’s message once the limit of schedules at work is reached', async () => {
    const other = await auditWorld(t, 'auditjobsfree');
    const tpl = await fireTemplate(t, other.people.manager.s);
    await makeFreeAccount(t, other.org.id);
    const start = utcDate(new Date(Date.now() + 5 * DAY));
    for (let n = 0; n < 10; n += 1)
      await ok(
        await call(t, other.people.manager.s, 'POST', '/api/audit_schedules', {
          template_id: tpl.id,
          site_ids: [other.la],
          auditor_id: other.people.auditor.id,
          frequency: 'weekly',
          start_date: start,
        }),
        201,
      );
    const refused = await call(t, other.people.manager.s, 'POST', '/api/audit_schedules', {
      template_id: tpl.id,
      site_ids: [other.la],
      auditor_id: other.people.auditor.id,
      frequency: 'weekly',
      start_date: start,
    });
    expect(refused.json()).toMatchObject({
      code: 'plan_limit_reached',
      errors: ['Audit schedule limit reached (10 on the free account), please upgrade.'],
    });
  }, 120_000);
});

import { localDateIn, type Audit } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, upload, type TestApp } from './helpers.js';
import {
  answered,
  auditWorld,
  fireTemplate,
  getAudit,
  makeFreeAccount,
  no,
  ok,
  outbox,
  PNG,
  scheduleOnce,
  yes,
  type World,
} from './audits-support.js';

/**
 * Issue 17: a failed critical question tells the site's head of safety at once (in the app and by
 * mail) while the audit runs, and only once; a question's own notice; key findings become actions of
 * source audit listed at /actions/audits; editing and deleting audits; the free account's monthly limit.
 */

let t: TestApp;
let w: World;
let fire: Awaited<ReturnType<typeof fireTemplate>>;

beforeAll(async () => {
  t = await createTestApp();
  w = await auditWorld(t, 'auditfind');
  fire = await fireTemplate(t, w.people.manager.s);
}, 120_000);
afterAll(() => t?.close());

async function running() {
  const { auditId, scheduleId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
  await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
  return { auditId, scheduleId };
}

const notificationsOf = async (userId: string) =>
  (
    await t.deps.db.ownerPool.query<{ title: string; link: string }>(
      'select title, link from notifications where user_id = $1 order by created_at',
      [userId],
    )
  ).rows;

describe('a failed critical question (beyond the spec)', () => {
  it('tells the head of safety of the site at once, in the app and by mail, while the audit is still running, and once', async () => {
    const { auditId } = await running();
    const before = (await notificationsOf(w.people.safety.id)).length;
    const failed = await answered(t, w.people.auditor.s, auditId, fire.exits.id, [no], { remark: 'Pallets in the corridor' });
    expect(failed.critical_failure).toBe(true);
    const notices = (await notificationsOf(w.people.safety.id)).slice(before);
    expect(notices).toEqual([{ title: 'Critical question failed at Tokyo Works: Exits clear?', link: `/audits/${auditId}/summary` }]);
    const mails = await outbox(t, w.org.id, 'Critical failure');
    expect(mails.at(-1)).toMatchObject({ to_address: `safety@${w.org.subDomain}.test` });
    expect(mails.at(-1)!.body).toContain('Answer: No');
    expect(mails.at(-1)!.body).toContain('Aldo Auditor');
    expect((await getAudit(t, w.people.reader.s, auditId)).status).toBe('in_progress');

    // The same answer again, or another save, tells nobody twice; a pass and a new failure tell again.
    expect(
      (await answered(t, w.people.auditor.s, auditId, fire.exits.id, [no], { remark: 'Pallets in the corridor' })).critical_failure,
    ).toBe(false);
    expect((await notificationsOf(w.people.safety.id)).length).toBe(before + 1);
    await answered(t, w.people.auditor.s, auditId, fire.exits.id, [yes]);
    expect((await answered(t, w.people.auditor.s, auditId, fire.exits.id, [no])).critical_failure).toBe(true);
    expect((await notificationsOf(w.people.safety.id)).length).toBe(before + 2);
    // Its timeline shows it.
    expect((await getAudit(t, w.people.reader.s, auditId)).timeline.filter((e) => e.event === 'critical_failure')).toHaveLength(2);
  });

  it('sends a question’s own notice to the people and roles it names, on the answers it names', async () => {
    const created = await ok<{ template: { id: string; sections: Array<{ id: string }> } }>(
      await call(t, w.people.manager.s, 'POST', '/api/audits', { name: 'Forklift check', icon: 'forklift', type: 'equipment' }),
      201,
    );
    const tid = created.template.id;
    const saved = await ok<{ section: { questions: Array<{ id: string }> } }>(
      await call(t, w.people.manager.s, 'PATCH', `/api/audits/${tid}/sections/${created.template.sections[0]!.id}`, {
        name: 'Truck',
        questions: [
          {
            type: 'yes_no',
            label: 'Horn works?',
            score: 5,
            notify: { when: 'options', options: ['no'], roles: ['auditee'], user_ids: [w.people.manager.id] },
          },
        ],
      }),
    );
    const qid = saved.section.questions[0]!.id;
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, tid);
    await ok(await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/start`, {}));
    const before = (await outbox(t, w.org.id, 'Horn works?')).length;
    await answered(t, w.people.auditor.s, auditId, qid, [yes]);
    expect((await outbox(t, w.org.id, 'Horn works?')).length).toBe(before);
    await answered(t, w.people.auditor.s, auditId, qid, [no]);
    const sent = (await outbox(t, w.org.id, 'Horn works?'))
      .slice(before)
      .map((m) => m.to_address)
      .sort();
    expect(sent).toEqual([`manager@${w.org.subDomain}.test`, `reader@${w.org.subDomain}.test`]);
  });
});

describe('key findings into actions (source audit)', () => {
  it('raises each finding as an action of the audit, with its picture, and lists it at /actions/audits', async () => {
    const { auditId } = await running();
    const pic = await upload(t, w.people.auditor.s, `/api/v2/audits/${auditId}/photos`, 'exit.png', PNG, 'image/png');
    expect(pic.statusCode, pic.body).toBe(201);
    const fileId = pic.json().file.id as string;
    const due = localDateIn('Asia/Tokyo', new Date(Date.now() + 7 * 86_400_000));
    const bad = await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/key_findings`, {
      findings: [
        { description: 'Blocked exit', control_type: 'administrative', responsible_id: w.people.manager.id, due_date: '2020-01-01' },
      ],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields)).toEqual(['findings.0.due_date']);

    const res = await ok<{ audit: Audit }>(
      await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${auditId}/key_findings`, {
        findings: [
          {
            description: 'Blocked exit',
            control_type: 'administrative',
            responsible_id: w.people.manager.id,
            due_date: due,
            question_id: fire.exits.id,
            picture_ids: [fileId],
          },
        ],
      }),
      201,
    );
    const [finding] = res.audit.key_findings;
    expect(finding).toMatchObject({ description: 'Blocked exit', question_id: fire.exits.id, pictures: [{ id: fileId }] });
    expect(finding!.action).toMatchObject({
      description: 'Blocked exit',
      source_type: 'audit',
      source_id: auditId,
      status: 'open',
      responsible: { id: w.people.manager.id },
    });
    expect(res.audit.actions).toHaveLength(1);

    const listed = await ok<{ actions: Array<{ id: string; source_serial: number | null }> }>(
      await call(t, w.people.reader.s, 'GET', '/api/actions/audit_action_datas'),
    );
    expect(listed.actions.find((a) => a.id === finding!.action!.id)?.source_serial).toBe(res.audit.serial);
    const items = await ok<{ actions: Array<{ id: string }> }>(
      await call(t, w.people.reader.s, 'POST', '/api/audits/actionlist', { audit_id: auditId }),
    );
    expect(items.actions.map((a) => a.id)).toEqual([finding!.action!.id]);
    expect((await outbox(t, w.org.id, 'Blocked exit')).map((m) => m.to_address)).toContain(`manager@${w.org.subDomain}.test`);
    // Only its auditor records findings; an audit with actions cannot be deleted.
    expect(
      (
        await call(t, w.people.manager.s, 'POST', `/api/v2/audits/${auditId}/key_findings`, {
          findings: [{ description: 'x', control_type: 'ppe', responsible_id: w.people.manager.id, due_date: due }],
        })
      ).statusCode,
    ).toBe(403);
    expect((await call(t, w.people.manager.s, 'DELETE', `/api/v2/audits/${auditId}`)).statusCode).toBe(409);
  });
});

describe('editing and deleting audits', () => {
  it('Audit update reassigns the audit (the new auditor is told and runs it); Audit delete removes it only before the start', async () => {
    const { auditId } = await scheduleOnce(t, w.people.manager.s, w, fire.id);
    expect((await call(t, w.people.auditor.s, 'PATCH', `/api/v2/audits/${auditId}`, { auditor_id: w.people.auditor2.id })).statusCode).toBe(
      200,
    );
    expect((await call(t, w.people.reader.s, 'PATCH', `/api/v2/audits/${auditId}`, { auditor_id: w.people.auditor.id })).statusCode).toBe(
      403,
    );
    const notAuditor = await call(t, w.people.manager.s, 'PATCH', `/api/v2/audits/${auditId}`, { auditor_id: w.people.reader.id });
    expect(notAuditor.json().fields).toEqual({ auditor_id: 'The auditor must be an active member whose role may update audits.' });
    const a = await getAudit(t, w.people.auditor2.s, auditId);
    expect(a.permissions.start).toBe(true);
    expect(a.timeline.map((e) => e.event)).toContain('reassigned');
    expect((await call(t, w.people.auditor.s, 'DELETE', `/api/v2/audits/${auditId}`)).statusCode).toBe(403);
    expect((await call(t, w.people.manager.s, 'DELETE', `/api/v2/audits/${auditId}`)).statusCode).toBe(200);
    expect((await call(t, w.people.manager.s, 'GET', `/api/v2/audits/${auditId}`)).statusCode).toBe(404);
  });
});

describe('the free account runs 10 audits a month (spec 001 §8-§9)', () => {
  it('refuses the eleventh start of the month with the spec’s message', async () => {
    const other = await auditWorld(t, 'auditfree');
    const tpl = await fireTemplate(t, other.people.manager.s);
    const ids: string[] = [];
    for (let n = 0; n < 11; n += 1)
      ids.push((await scheduleOnce(t, other.people.manager.s, other, tpl.id, { site_ids: [n % 2 ? other.la : other.tokyo] })).auditId);
    await makeFreeAccount(t, other.org.id);
    for (const id of ids.slice(0, 10)) await ok(await call(t, other.people.auditor.s, 'POST', `/api/v2/audits/${id}/start`, {}));
    const refused = await call(t, other.people.auditor.s, 'POST', `/api/v2/audits/${ids[10]}/start`, {});
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({
      code: 'plan_limit_reached',
      errors: ['The free account runs at most 10 audits a month, and this month’s are used. Ask your administrator to upgrade.'],
    });
    expect((await getAudit(t, other.people.auditor.s, ids[10]!)).status).toBe('scheduled');
  }, 120_000);
});

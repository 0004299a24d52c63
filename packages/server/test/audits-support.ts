import { localDateIn, type Audit, type AuditAnswerResult, type AuditQuestionInputRaw } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { siteNodes, sites } from '../src/modules/sites/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { organizations } from '../src/platform/db/schema.js';
import { call, createOrg, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

export { pdfText } from './observations-support.js';
export { PNG } from './helpers.js';

type Flags = { view?: boolean; add?: boolean; edit?: boolean; del?: boolean; approve?: boolean };
const right = (name: 'Audit' | 'Audit Template' | 'Action' | 'Site', r: Flags) => ({
  name,
  rAdd: !!r.add,
  rEdit: !!r.edit,
  rView: !!r.view,
  rDestroy: !!r.del,
  isRevoke: false,
  isExtend: false,
  isClose: false,
  isReject: false,
  isApprove: !!r.approve,
});

/** The people of an audits test, each with a role of its own, signed in. */
export type People = Record<
  'admin' | 'manager' | 'auditor' | 'auditor2' | 'approver' | 'reader' | 'safety' | 'nobody',
  { id: string; s: Session }
>;

export type World = {
  org: Awaited<ReturnType<typeof createOrg>>;
  /** Asia/Tokyo (ahead of UTC; its head of safety is `safety`) and America/Los_Angeles (behind). */
  tokyo: string;
  la: string;
  tokyoArea: string;
  people: People;
};

/** An organisation with two sites in far time zones and people of every kind for audits. */
export async function auditWorld(t: TestApp, sub: string): Promise<World> {
  const org = await createOrg(t, sub);
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${org.id}, true)`);
    await createRole(tx, 'Audit manager', [
      right('Audit', { view: true, add: true, edit: true, del: true }),
      right('Audit Template', { view: true, add: true, edit: true, del: true }),
      right('Action', { view: true }),
    ]);
    await createRole(tx, 'Auditor', [right('Audit', { view: true, edit: true })]);
    await createRole(tx, 'Audit approver', [right('Audit', { view: true, approve: true })]);
    await createRole(tx, 'Audit reader', [right('Audit', { view: true })]);
    await createRole(tx, 'Site only', [right('Site', { view: true })]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  const person = async (key: string, fullName: string, roleName: string) => {
    const email = `${key}@${sub}.test`;
    const u = await orgs.createUser(sub, { email, fullName, password: PASSWORD, roleName });
    return { id: u.id, s: await signIn(t, sub, email) };
  };
  const people: People = {
    admin: { id: org.adminId, s: await signIn(t, sub, org.adminEmail) },
    manager: await person('manager', 'Maya Manager', 'Audit manager'),
    auditor: await person('auditor', 'Aldo Auditor', 'Auditor'),
    auditor2: await person('auditor2', 'Bea Auditor', 'Auditor'),
    approver: await person('approver', 'Ada Approver', 'Audit approver'),
    reader: await person('reader', 'Rui Reader', 'Audit reader'),
    safety: await person('safety', 'Sol Safety', 'Audit reader'),
    nobody: await person('nobody', 'Nora Nobody', 'Site only'),
  };
  const ids = await inTenant(t.deps.db.app, org.id, async (tx) => {
    const site = async (name: string, timeZone: string) =>
      (
        await tx
          .insert(sites)
          .values({
            name,
            timeZone,
            headOfSafetyId: people.safety.id,
            emergencyPhone: '020 7946 0958',
            address: '1 Dock Road',
            city: 'Town',
            state: 'CA',
            country: 'US',
            zip: '90001',
          })
          .returning({ id: sites.id })
      )[0]!.id;
    const tokyo = await site('Tokyo Works', 'Asia/Tokyo');
    const la = await site('Los Angeles Yard', 'America/Los_Angeles');
    const tokyoArea = (
      await tx.insert(siteNodes).values({ siteId: tokyo, level: 'division', name: 'Press shop' }).returning({ id: siteNodes.id })
    )[0]!.id;
    return { tokyo, la, tokyoArea };
  });
  return { org, ...ids, people };
}

/** The free account: the organisation's subscription becomes `cancelled`. */
export async function makeFreeAccount(t: TestApp, orgId: string) {
  await t.deps.db.owner.update(organizations).set({ subscriptionType: 'cancelled' }).where(eq(organizations.id, orgId));
}

export async function ok<T>(res: { statusCode: number; body: string; json: () => unknown }, status = 200): Promise<T> {
  expect(res.statusCode, res.body).toBe(status);
  return res.json() as T;
}

/** A question as the editor sends it: yes/no worth 10 unless said. */
export function question(label: string, over: Partial<AuditQuestionInputRaw> = {}): AuditQuestionInputRaw {
  return { type: 'yes_no', label, score: 10, ...over } as AuditQuestionInputRaw;
}

/**
 * A fire-safety template: "Extinguishers in place?" (yes/no, 10); if no, "Why?" (options: missing 0 and
 * failing, being serviced 5); "Exits clear?" (yes/no, 10, critical); "Notes" (text, optional).
 */
export async function fireTemplate(t: TestApp, s: Session, name = 'Fire safety walk') {
  const created = await ok<{ template: { id: string; sections: Array<{ id: string }> } }>(
    await call(t, s, 'POST', '/api/audits', {
      name,
      icon: 'fire',
      type: 'fire',
      scoring: true,
      declaration: 'I inspected every area listed.',
    }),
    201,
  );
  const id = created.template.id;
  const sectionId = created.template.sections[0]!.id;
  const saved = await ok<{ section: { questions: Array<{ id: string; label: string; options: Array<{ key: string; label: string }> }> } }>(
    await call(t, s, 'PATCH', `/api/audits/${id}/sections/${sectionId}`, {
      name: 'Fire',
      questions: [
        question('Extinguishers in place?', { key: 'placed' }),
        question('Why not?', {
          type: 'choice',
          score: 0,
          options: [
            { label: 'Missing', score: 0, failure: true },
            { label: 'Being serviced', score: 5 },
          ],
          condition: { question: 'placed', option: 'no' },
          add_options: true,
        }),
        question('Exits clear?', { critical: true }),
        question('Notes', { type: 'text', score: 0, required: false }),
      ],
    }),
  );
  const q = (label: string) => saved.section.questions.find((x) => x.label === label)!;
  return { id, sectionId, placed: q('Extinguishers in place?'), why: q('Why not?'), exits: q('Exits clear?'), notes: q('Notes') };
}

/** Schedules a "once" audit due today at the site and answers the audit it made. */
export async function scheduleOnce(t: TestApp, s: Session, w: World, templateId: string, over: Record<string, unknown> = {}) {
  const site = (over['site_ids'] as string[] | undefined)?.[0] ?? w.tokyo;
  const zone = site === w.la ? 'America/Los_Angeles' : 'Asia/Tokyo';
  const { schedule } = await ok<{ schedule: { id: string } }>(
    await call(t, s, 'POST', '/api/audit_schedules', {
      template_id: templateId,
      site_ids: [site],
      auditor_id: w.people.auditor.id,
      auditee_id: w.people.reader.id,
      frequency: 'once',
      start_date: localDateIn(zone, new Date()),
      ...over,
    }),
    201,
  );
  const list = await ok<{ audits: Array<{ id: string }> }>(await call(t, s, 'GET', `/api/v2/audits?search=&per_page=200&site_id=${site}`));
  const rows = await t.deps.db.ownerPool.query<{ id: string }>('select id from audits where schedule_id = $1', [schedule.id]);
  expect(list.audits.some((a) => a.id === rows.rows[0]?.id)).toBe(true);
  return { scheduleId: schedule.id, auditId: rows.rows[0]!.id };
}

export async function getAudit(t: TestApp, s: Session, id: string): Promise<Audit> {
  return (await ok<{ audit: Audit }>(await call(t, s, 'GET', `/api/v2/audits/${id}`))).audit;
}

export const yes = { choice: ['yes'] };
export const no = { choice: ['no'] };
export const na = { na: true };

export function answer(
  t: TestApp,
  s: Session,
  id: string,
  questionId: string,
  cells: unknown[] | null,
  extra: Record<string, unknown> = {},
) {
  return call(t, s, 'PATCH', `/api/modify_audits/${id}`, { question_id: questionId, cells, ...extra });
}

export async function answered(
  t: TestApp,
  s: Session,
  id: string,
  questionId: string,
  cells: unknown[] | null,
  extra: Record<string, unknown> = {},
) {
  return ok<AuditAnswerResult>(await answer(t, s, id, questionId, cells, extra));
}

/** The messages written to the outbox about this organisation for a scenario-like subject. */
export async function outbox(t: TestApp, orgId: string, like: string) {
  const { rows } = await t.deps.db.ownerPool.query<{ to_address: string; subject: string; body: string; attachment_file_ids: string[] }>(
    `select to_address, subject, body, attachment_file_ids from mail_outbox where organization_id = $1 and subject ilike $2 order by created_at`,
    [orgId, `%${like}%`],
  );
  return rows;
}

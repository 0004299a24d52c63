import { localDateTimeIn, type Permit } from '@bulwark/domain';
import { count, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { permitExtensions, permitFiles, permits, permitShares, permitWorkers } from '../src/modules/permits/tables.js';
import { siteNodes, sites } from '../src/modules/sites/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { call, createOrg, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';

export { PNG, pdfText } from './incidents-support.js';

type Flags = Partial<Record<'view' | 'add' | 'edit' | 'del' | 'revoke' | 'extend' | 'close' | 'reject' | 'approve', boolean>>;
const right = (name: 'Permit' | 'Permit Form Setting' | 'Site', r: Flags) => ({
  name,
  rAdd: !!r.add,
  rEdit: !!r.edit,
  rView: !!r.view,
  rDestroy: !!r.del,
  isRevoke: !!r.revoke,
  isExtend: !!r.extend,
  isClose: !!r.close,
  isReject: !!r.reject,
  isApprove: !!r.approve,
});

export type Person = { id: string; s: Session };
/** Every kind of person the permit rules tell apart, each with a role of its own. */
export type People = Record<
  'admin' | 'requester' | 'colleague' | 'issuer' | 'approverOnly' | 'closer' | 'reader' | 'setter' | 'hos' | 'nobody' | 'outsider',
  Person
>;

export type PermitWorld = {
  org: Awaited<ReturnType<typeof createOrg>>;
  zone: string;
  /** A site with a division (Boiler house) holding a unit (Boiler room), and another division. */
  site: string;
  boilerHouse: string;
  boilerRoom: string;
  yard: string;
  /** Templates (created through the API, so with the four default sections): hot work conflicts with confined space. */
  hotWork: string;
  confined: string;
  lifting: string;
  workers: string[];
  people: People;
};

/** An organisation with a site and its areas, people of every kind, three templates and two workers. */
export async function permitWorld(t: TestApp, sub: string): Promise<PermitWorld> {
  const org = await createOrg(t, sub);
  const zone = 'Europe/London';
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${org.id}, true)`);
    await createRole(tx, 'Permit requester', [right('Permit', { view: true, add: true, edit: true, del: true, extend: true })]);
    await createRole(tx, 'Permit issuer', [right('Permit', { view: true, approve: true, reject: true, revoke: true, close: true })]);
    await createRole(tx, 'Permit approver only', [right('Permit', { view: true, approve: true })]);
    await createRole(tx, 'Permit closer', [right('Permit', { view: true, close: true })]);
    await createRole(tx, 'Permit reader', [right('Permit', { view: true })]);
    await createRole(tx, 'Form setter', [right('Permit Form Setting', { view: true, add: true, edit: true, del: true })]);
    await createRole(tx, 'Site only', [right('Site', { view: true })]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  const person = async (key: string, fullName: string, roleName: string): Promise<Person> => {
    const email = `${key}@${sub}.test`;
    const u = await orgs.createUser(sub, { email, fullName, password: PASSWORD, roleName });
    return { id: u.id, s: await signIn(t, sub, email) };
  };
  const people: People = {
    admin: { id: org.adminId, s: await signIn(t, sub, org.adminEmail) },
    requester: await person('requester', 'Rosa Requester', 'Permit requester'),
    colleague: await person('colleague', 'Carl Colleague', 'Permit requester'),
    issuer: await person('issuer', 'Ivan Issuer', 'Permit issuer'),
    approverOnly: await person('approver', 'Ada Approver', 'Permit approver only'),
    closer: await person('closer', 'Cleo Closer', 'Permit closer'),
    reader: await person('reader', 'Rex Reader', 'Permit reader'),
    setter: await person('setter', 'Sam Setter', 'Form setter'),
    hos: await person('hos', 'Hana Safety', 'Permit reader'),
    nobody: await person('nobody', 'Nora Nobody', 'Site only'),
    outsider: { id: org.userId, s: await signIn(t, sub, org.userEmail) },
  };
  const places = await inTenant(t.deps.db.app, org.id, async (tx) => {
    const [s] = await tx
      .insert(sites)
      .values({
        name: 'North Plant',
        timeZone: zone,
        headOfSafetyId: people.hos.id,
        emergencyPhone: '020 7946 0958',
        address: '1 Dock Road',
        city: 'London',
        state: 'London',
        country: 'GB',
        zip: 'E16 2QU',
      })
      .returning({ id: sites.id });
    const node = async (name: string, level: 'division' | 'unit', parentId: string | null) =>
      (await tx.insert(siteNodes).values({ siteId: s!.id, level, name, parentId }).returning({ id: siteNodes.id }))[0]!.id;
    const boilerHouse = await node('Boiler house', 'division', null);
    const dept = (
      await tx
        .insert(siteNodes)
        .values({ siteId: s!.id, level: 'department', name: 'Steam', parentId: boilerHouse })
        .returning({ id: siteNodes.id })
    )[0]!.id;
    return { site: s!.id, boilerHouse, boilerRoom: await node('Boiler room', 'unit', dept), yard: await node('Yard', 'division', null) };
  });
  const template = async (name: string, prefix: string) => {
    const res = await call(t, people.admin.s, 'POST', '/api/permits', { name, description: `${name} permit`, prefix });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { template: { id: string } }).template.id;
  };
  const hotWork = await template('Hot work', 'HW');
  const confined = await template('Confined space', 'CS');
  const lifting = await template('Lifting', 'LF');
  const conflicts = await call(t, people.admin.s, 'PATCH', `/api/permits/${hotWork}`, { conflict_template_ids: [confined, hotWork] });
  expect(conflicts.statusCode, conflicts.body).toBe(200);
  const worker = async (name: string, idNumber: string) => {
    const res = await call(t, people.requester.s, 'POST', '/api/work_profiles', {
      name,
      id_number: idNumber,
      phone: '+44 20 7946 0958',
      gender: 'male',
      age: 35,
    });
    expect(res.statusCode, res.body).toBe(201);
    return (res.json() as { worker: { id: string } }).worker.id;
  };
  const workers = [await worker('Will Welder', 'W-001'), await worker('Finn Fitter', 'F-002')];
  return { org, zone, ...places, hotWork, confined, lifting, workers, people };
}

const HOUR = 3_600_000;
/** The site's wall clock `hours` from now, 'YYYY-MM-DDTHH:mm'. */
export function siteHours(zone: string, hours: number, from = new Date()): string {
  return localDateTimeIn(zone, new Date(from.getTime() + hours * HOUR));
}
export const hoursFromNow = (hours: number) => new Date(Date.now() + hours * HOUR);

/** The questions of a template's night-work checklist, by their position: the radio, then its conditional questions. */
export async function nightWork(t: TestApp, s: Session, templateId: string) {
  const res = await call(t, s, 'GET', `/api/permit_form_questions/${templateId}`);
  expect(res.statusCode, res.body).toBe(200);
  const form = res.json() as { sections: Array<{ kind: string; questions: Array<{ id: string; options: string[]; type: string }> }> };
  const night = form.sections.find((x) => x.kind === 'night_work')!.questions;
  const closure = form.sections.find((x) => x.kind === 'closure')!.questions;
  return { night, closure };
}

/** A complete request body of a template: the site, times from one to nine hours ahead, a worker, "no night work". */
export async function requestBody(t: TestApp, w: PermitWorld, templateId: string, over: Record<string, unknown> = {}) {
  const { night } = await nightWork(t, w.people.requester.s, templateId);
  return {
    template_id: templateId,
    site_id: w.site,
    site_node_id: w.boilerRoom,
    start_at: siteHours(w.zone, 1),
    end_at: siteHours(w.zone, 9),
    description: 'Weld the feed pipe bracket',
    worker_ids: [w.workers[0]],
    answers: { [night[0]!.id]: night[0]!.options[1] },
    attachment_ids: [],
    ...over,
  };
}

export async function createPermit(t: TestApp, s: Session, body: Record<string, unknown>): Promise<Permit> {
  const res = await call(t, s, 'POST', '/api/permit_requests', body);
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { permit: Permit }).permit;
}

export async function getPermit(t: TestApp, s: Session, id: string): Promise<Permit> {
  const res = await call(t, s, 'GET', `/api/permit_requests/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { permit: Permit }).permit;
}

/** A command that must succeed, answering the permit. */
export async function act(t: TestApp, s: Session, id: string, command: string, body: unknown = {}): Promise<Permit> {
  const res = await call(t, s, 'POST', `/api/permit_requests/${id}/${command}`, body);
  expect(res.statusCode, `${command}: ${res.body}`).toBe(200);
  return (res.json() as { permit: Permit }).permit;
}

/** A requested permit of the requester (submitted at once). */
export async function requested(t: TestApp, w: PermitWorld, templateId = w.hotWork, over: Record<string, unknown> = {}): Promise<Permit> {
  return createPermit(t, w.people.requester.s, { ...(await requestBody(t, w, templateId, over)), submit: true });
}

/** An approved permit (no workflow: the issuer's approve right decides). */
export async function approved(t: TestApp, w: PermitWorld, templateId = w.hotWork, over: Record<string, unknown> = {}): Promise<Permit> {
  const p = await requested(t, w, templateId, over);
  return act(t, w.people.issuer.s, p.id, 'approve', {});
}

/** Rows of every table a permit write touches, to prove a refusal wrote nothing. */
export async function footprint(t: TestApp, orgId: string) {
  return inTenant(t.deps.db.app, orgId, async (tx) => {
    const n = async (table: typeof permits | typeof permitWorkers | typeof permitFiles | typeof permitShares | typeof permitExtensions) =>
      Number((await tx.select({ n: count() }).from(table))[0]?.n ?? 0);
    const statuses = await tx.select({ id: permits.id, status: permits.status, end: permits.endAt }).from(permits);
    return {
      permits: await n(permits),
      workers: await n(permitWorkers),
      files: await n(permitFiles),
      shares: await n(permitShares),
      extensions: await n(permitExtensions),
      statuses: statuses.map((r) => `${r.id}:${r.status}:${r.end?.toISOString()}`).sort(),
    };
  });
}

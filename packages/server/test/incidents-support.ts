import type { Incident } from '@bulwark/domain';
import { count, sql } from 'drizzle-orm';
import { expect } from 'vitest';
import { actions } from '../src/modules/actions/tables.js';
import { categories, rootCauseSettings } from '../src/modules/categories/tables.js';
import { incidentAttachments, incidents, incidentVictims } from '../src/modules/incidents/tables.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { siteNodes, sites } from '../src/modules/sites/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { files } from '../src/platform/db/schema.js';
import { call, createOrg, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';
import { siteDate, siteTime } from './observations-support.js';

export { pdfText, siteDate, siteTime } from './observations-support.js';
export { PNG } from './helpers.js';

type Flags = { view?: boolean; add?: boolean; edit?: boolean; del?: boolean; close?: boolean; approve?: boolean };
const right = (name: 'Incident' | 'Action' | 'Site' | 'Observation', r: Flags) => ({
  name,
  rAdd: !!r.add,
  rEdit: !!r.edit,
  rView: !!r.view,
  rDestroy: !!r.del,
  isRevoke: false,
  isExtend: false,
  isClose: !!r.close,
  isReject: false,
  isApprove: !!r.approve,
});

/** The people of an incidents test, each with a role of its own, signed in. */
export type People = Record<
  'admin' | 'manager' | 'lead' | 'member' | 'reporter' | 'approver' | 'reader' | 'nobody',
  { id: string; s: Session }
>;

export type World = {
  org: Awaited<ReturnType<typeof createOrg>>;
  /** Asia/Tokyo (ahead of UTC) and America/Los_Angeles (behind), an area each, an inactive site. */
  tokyo: string;
  la: string;
  inactive: string;
  tokyoArea: string;
  /** Incident categories: a fall (injury) and a spill (environmental), and an inactive one. */
  fall: string;
  spill: string;
  retired: string;
  /** Root-cause tree: People > Training > No induction (a leaf), People > Fatigue (a leaf), an inactive leaf. */
  noInduction: string;
  fatigue: string;
  retiredCause: string;
  people: People;
};

/** An organisation with sites in two zones, incident categories, a root-cause tree and people of every kind. */
export async function incidentWorld(t: TestApp, sub: string): Promise<World> {
  const org = await createOrg(t, sub);
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${org.id}, true)`);
    await createRole(tx, 'Incident manager', [
      right('Incident', { view: true, add: true, edit: true, del: true, close: true }),
      right('Action', { view: true, add: true, edit: true }),
    ]);
    await createRole(tx, 'Investigator', [right('Incident', { view: true })]);
    await createRole(tx, 'Incident reporter', [right('Incident', { view: true, add: true })]);
    await createRole(tx, 'Incident approver', [right('Incident', { view: true, approve: true })]);
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
    manager: await person('manager', 'Priya Manager', 'Incident manager'),
    lead: await person('lead', 'Leo Lead', 'Investigator'),
    member: await person('member', 'Mia Member', 'Investigator'),
    reporter: await person('reporter', 'Rita Reporter', 'Incident reporter'),
    approver: await person('approver', 'Ada Approver', 'Incident approver'),
    reader: { id: org.userId, s: await signIn(t, sub, org.userEmail) },
    nobody: await person('nobody', 'Nora Nobody', 'Site only'),
  };
  const ids = await inTenant(t.deps.db.app, org.id, async (tx) => {
    const site = async (name: string, timeZone: string, isActive = true) =>
      (
        await tx
          .insert(sites)
          .values({
            name,
            timeZone,
            headOfSafetyId: people.manager.id,
            emergencyPhone: '020 7946 0958',
            address: '1 Dock Road',
            city: 'Town',
            state: 'CA',
            country: 'US',
            zip: '90001',
            isActive,
          })
          .returning({ id: sites.id })
      )[0]!.id;
    const tokyo = await site('Tokyo Works', 'Asia/Tokyo');
    const la = await site('Los Angeles Yard', 'America/Los_Angeles');
    const inactive = await site('Closed Plant', 'Europe/London', false);
    const tokyoArea = (
      await tx.insert(siteNodes).values({ siteId: tokyo, level: 'division', name: 'Press shop' }).returning({ id: siteNodes.id })
    )[0]!.id;
    const cat = async (type: 'injury' | 'environmental', name: string, active = true) =>
      (await tx.insert(categories).values({ module: 'incidents', type, name, active }).returning({ id: categories.id }))[0]!.id;
    const node = async (name: string, parentId: string | null, active = true) =>
      (await tx.insert(rootCauseSettings).values({ name, parentId, active }).returning({ id: rootCauseSettings.id }))[0]!.id;
    const peopleType = await node('People', null);
    const training = await node('Training', peopleType);
    return {
      tokyo,
      la,
      inactive,
      tokyoArea,
      fall: await cat('injury', 'Fall from height'),
      spill: await cat('environmental', 'Oil spill'),
      retired: await cat('injury', 'Retired', false),
      noInduction: await node('No induction', training),
      fatigue: await node('Fatigue', peopleType),
      retiredCause: await node('Old cause', peopleType, false),
    };
  });
  return { org, ...ids, people };
}

/** A victim as the form sends it. */
export function victim(over: Record<string, unknown> = {}) {
  return {
    type: 'employee',
    name: 'Kenji Sato',
    employee_id: 'E-1001',
    gender: 'male',
    age_range: '25_34',
    body_parts: ['left_hand', 'left_fingers'],
    injury_details: 'Crushed fingers',
    taken_to_hospital: true,
    treatment: 'Stitches at the clinic',
    return_to_work_date: null,
    ...over,
  };
}

/** A valid report of an injury at Tokyo, 30 minutes ago there. */
export function report(w: World, over: Record<string, unknown> = {}) {
  return {
    type: 'injury',
    category_id: w.fall,
    description: 'Operator fell from the press platform ladder',
    site_id: w.tokyo,
    site_node_id: w.tokyoArea,
    occurred_at: siteTime('Asia/Tokyo', -30),
    shift: 'first',
    severity: 'serious',
    likelihood: 'possible',
    investigation_required: true,
    action_taken: 'First aid given; ladder taped off',
    victims: [victim()],
    attachment_ids: [],
    ...over,
  };
}

export async function createIncident(t: TestApp, s: Session, body: Record<string, unknown>) {
  const res = await call(t, s, 'POST', '/api/incidents', { incident: body });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as { id: string; serial: number; serial_label: string };
}

export async function getIncident(t: TestApp, s: Session, id: string): Promise<Incident> {
  const res = await call(t, s, 'GET', `/api/incidents/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { incident: Incident }).incident;
}

/** A call that must succeed, answering the incident. */
export async function step(t: TestApp, s: Session, method: 'PUT' | 'POST' | 'PATCH', url: string, body?: unknown): Promise<Incident> {
  const res = await call(t, s, method, url, body);
  expect(res.statusCode, res.body).toBeLessThan(300);
  return (res.json() as { incident: Incident }).incident;
}

/** Team, facts, a factor with its why-why and root cause, a CAPA action and the conclusion: ready to submit. */
export async function investigate(t: TestApp, w: World, id: string, s: Session = w.people.manager.s) {
  const zone = (await getIncident(t, s, id)).site.time_zone;
  await step(t, s, 'PUT', `/api/incidents/${id}/team`, {
    lead_id: w.people.lead.id,
    member_ids: [w.people.member.id],
    target_date: siteDate(zone, 7),
  });
  await step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/facts`, {
    timeline: [{ at: siteTime(zone, -40), description: 'Operator climbs the ladder with a tote' }],
    witnesses: [{ name: 'Hana Ito', statement: 'He slipped on the third rung.', user_id: null, contact: null }],
    evidence_ids: [],
  });
  const withFactor = await step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/key_factors`, {
    factors: [{ category: 'man', description: 'Carried a tote while climbing' }],
  });
  await step(t, w.people.member.s, 'PUT', `/api/incidents/${id}/why_analysis`, {
    analyses: [
      {
        factor_id: withFactor.investigation.factors[0]!.id,
        whys: ['He carried the tote up the ladder', 'Nobody showed him the hoist'],
        root_cause_ids: [w.noInduction],
      },
    ],
  });
  await step(t, w.people.lead.s, 'POST', `/api/incidents/${id}/actions`, {
    actions: [
      {
        kind: 'corrective',
        description: 'Induct the operator on the platform hoist',
        control_type: 'administrative',
        responsible_id: w.people.manager.id,
        due_date: siteDate(zone, 10),
      },
    ],
  });
  return step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/record`, {
    conclusion: 'No induction on the hoist.',
    lessons_learned: null,
  });
}

/** Rows of every table an incident write touches, to prove a refusal wrote nothing. */
export async function footprint(t: TestApp, orgId: string) {
  return inTenant(t.deps.db.app, orgId, async (tx) => ({
    incidents: Number((await tx.select({ n: count() }).from(incidents))[0]?.n ?? 0),
    victims: Number((await tx.select({ n: count() }).from(incidentVictims))[0]?.n ?? 0),
    attachments: Number((await tx.select({ n: count() }).from(incidentAttachments))[0]?.n ?? 0),
    actions: Number((await tx.select({ n: count() }).from(actions))[0]?.n ?? 0),
    files: Number((await tx.select({ n: count() }).from(files))[0]?.n ?? 0),
  }));
}

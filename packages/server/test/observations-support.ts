import { actionDateIn, localDateTimeIn } from '@bulwark/domain';
import { count, sql } from 'drizzle-orm';
import { actions } from '../src/modules/actions/tables.js';
import { categories, subCategories } from '../src/modules/categories/tables.js';
import { observationAttachments, observations } from '../src/modules/observations/tables.js';
import { createOrganizationService, createRole } from '../src/modules/organizations/service.js';
import { siteNodes, sites } from '../src/modules/sites/tables.js';
import { asPlatform, inTenant } from '../src/platform/db/db.js';
import { files } from '../src/platform/db/schema.js';
import { PASSWORD, type TestApp } from './helpers.js';

export { PNG } from './helpers.js';

/** The wall-clock time of `zone`, `minutes` from now ('YYYY-MM-DDTHH:mm'). */
export function siteTime(zone: string, minutes: number): string {
  return localDateTimeIn(zone, new Date(Date.now() + minutes * 60_000));
}

/** A date `days` from today at the site. */
export function siteDate(zone: string, days: number): string {
  return new Date(Date.parse(`${actionDateIn(zone)}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);
}

/** Rows of every table an observation write touches, to prove a refusal wrote nothing. */
export async function footprint(t: TestApp, orgId: string) {
  return inTenant(t.deps.db.app, orgId, async (tx) => ({
    observations: Number((await tx.select({ n: count() }).from(observations))[0]?.n ?? 0),
    attachments: Number((await tx.select({ n: count() }).from(observationAttachments))[0]?.n ?? 0),
    actions: Number((await tx.select({ n: count() }).from(actions))[0]?.n ?? 0),
    files: Number((await tx.select({ n: count() }).from(files))[0]?.n ?? 0),
  }));
}

export type Fixture = {
  tokyo: string;
  la: string;
  inactive: string;
  tokyoDivision: string;
  laDivision: string;
  ppe: string;
  gloves: string;
  housekeeping: string;
  retired: string;
  manager: string;
  supervisor: string;
  reporter: string;
  nobody: string;
};

const right = (
  name: 'Action' | 'Observation' | 'Site',
  r: { view?: boolean; add?: boolean; edit?: boolean; del?: boolean; close?: boolean },
) => ({
  name,
  rAdd: !!r.add,
  rEdit: !!r.edit,
  rView: !!r.view,
  rDestroy: !!r.del,
  isRevoke: false,
  isExtend: false,
  isClose: !!r.close,
  isReject: false,
  isApprove: false,
});

/** Sites in a zone ahead of UTC and one behind, an area each, categories, and people with different rights. */
export async function setUpOrganisation(t: TestApp, orgId: string, sub: string): Promise<Fixture> {
  await asPlatform(t.deps.db.app, async (tx) => {
    await tx.execute(sql`select set_config('app.organization_id', ${orgId}, true)`);
    await createRole(tx, 'Safety manager', [
      right('Observation', { view: true, add: true, edit: true, del: true, close: true }),
      right('Action', { view: true, add: true, edit: true, del: true }),
    ]);
    await createRole(tx, 'Supervisor', [
      right('Observation', { view: true, add: true, edit: true }),
      right('Action', { view: true, add: true, edit: true }),
    ]);
    await createRole(tx, 'Reporter', [right('Observation', { view: true, add: true })]);
    await createRole(tx, 'Site only', [right('Site', { view: true })]);
  });
  const orgs = createOrganizationService(t.deps.db.app);
  const manager = (
    await orgs.createUser(sub, { email: `manager@${sub}.test`, fullName: 'Priya Güneş', password: PASSWORD, roleName: 'Safety manager' })
  ).id;
  const supervisor = (
    await orgs.createUser(sub, {
      email: `supervisor@${sub}.test`,
      fullName: 'Tomasz Supervisor',
      password: PASSWORD,
      roleName: 'Supervisor',
    })
  ).id;
  const reporter = (
    await orgs.createUser(sub, { email: `reporter@${sub}.test`, fullName: 'Rita Reporter', password: PASSWORD, roleName: 'Reporter' })
  ).id;
  const nobody = (
    await orgs.createUser(sub, { email: `nobody@${sub}.test`, fullName: 'Nora Nobody', password: PASSWORD, roleName: 'Site only' })
  ).id;
  return inTenant(t.deps.db.app, orgId, async (tx) => {
    const site = async (name: string, timeZone: string, isActive = true) =>
      (
        await tx
          .insert(sites)
          .values({
            name,
            timeZone,
            headOfSafetyId: manager,
            emergencyPhone: '020 7946 0958',
            address: '1 Dock Road',
            city: 'Town',
            state: 'State',
            country: 'GB',
            zip: 'E16 2QU',
            isActive,
          })
          .returning({ id: sites.id })
      )[0]!.id;
    const tokyo = await site('Tokyo Works', 'Asia/Tokyo');
    const la = await site('Los Angeles Yard', 'America/Los_Angeles');
    const inactive = await site('Closed Plant', 'Europe/London', false);
    const node = async (siteId: string, name: string) =>
      (await tx.insert(siteNodes).values({ siteId, level: 'division', name }).returning({ id: siteNodes.id }))[0]!.id;
    const cat = async (type: 'unsafe_act' | 'unsafe_condition', name: string, active = true) =>
      (await tx.insert(categories).values({ module: 'observations', type, name, active }).returning({ id: categories.id }))[0]!.id;
    const ppe = await cat('unsafe_act', 'PPE not used');
    const gloves = (await tx.insert(subCategories).values({ categoryId: ppe, name: 'Gloves' }).returning({ id: subCategories.id }))[0]!.id;
    return {
      tokyo,
      la,
      inactive,
      tokyoDivision: await node(tokyo, 'Assembly'),
      laDivision: await node(la, 'Logistics'),
      ppe,
      gloves,
      housekeeping: await cat('unsafe_condition', 'Housekeeping'),
      retired: await cat('unsafe_act', 'Retired', false),
      manager,
      supervisor,
      reporter,
      nobody,
    };
  });
}

/** The text of a PDF as a reader sees it, page by page (pdfjs, the engine browsers use). */
export async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let i = 1; i <= doc.numPages; i += 1) {
    const page = await doc.getPage(i);
    const content = await page.getTextContent();
    out.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return out.join('\n');
}

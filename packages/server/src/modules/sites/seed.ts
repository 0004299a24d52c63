import { siteSchema } from '@bulwark/domain';
import { and, asc, desc, eq } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { createNode, createSite, setUserSites } from './service.js';
import { sites } from './tables.js';

type DemoTree = Record<string, Record<string, string[]>>;

const DEMO_SITES: Array<{ site: Omit<Parameters<typeof siteSchema.parse>[0], 'head_of_safety_id'>; tree: DemoTree }> = [
  {
    site: {
      name: 'Riverside Manufacturing Plant',
      short_name: 'Riverside',
      site_code: 'RMP-01',
      time_zone: 'Europe/London',
      emergency_phone: '020 7946 0958',
      emergency_email: 'emergency.riverside@demo.test',
      address: '14 Wharf Road, Silvertown',
      city: 'London',
      state: 'Greater London',
      country: 'GB',
      zip: 'E16 2QU',
      latitude: 51.5033,
      longitude: 0.0285,
    },
    tree: {
      Production: { Assembly: ['Line A', 'Line B'], 'Paint Shop': ['Spray Booth 1'] },
      Maintenance: { Mechanical: ['Workshop'], Electrical: ['Substation'] },
      Logistics: { Warehouse: ['Goods In', 'Dispatch'] },
    },
  },
  {
    site: {
      name: 'Lakeside Distribution Centre',
      short_name: 'Lakeside',
      site_code: 'LDC-02',
      time_zone: 'America/Chicago',
      emergency_phone: '(312) 555-0142',
      emergency_email: 'emergency.lakeside@demo.test',
      address: '2200 South Lakeshore Drive',
      city: 'Chicago',
      state: 'Illinois',
      country: 'US',
      zip: '60616',
      latitude: 41.8517,
      longitude: -87.6105,
    },
    tree: {
      Operations: { 'Inbound Receiving': ['Dock 1', 'Dock 2'], 'Order Picking': ['Zone A'] },
      'Fleet Services': { Transport: ['Yard'] },
    },
  },
  {
    site: {
      name: 'Eastern Fabrication Yard',
      short_name: 'Eastern',
      site_code: 'EFY-03',
      time_zone: 'Asia/Singapore',
      emergency_phone: '6123 4567',
      emergency_email: null,
      address: '8 Tuas Avenue 12',
      city: 'Singapore',
      state: 'Singapore',
      country: 'SG',
      zip: '639041',
      latitude: 1.3236,
      longitude: 103.6533,
    },
    tree: {
      Fabrication: { Welding: ['Bay 1', 'Bay 2'], Blasting: [] },
    },
  },
];

/**
 * Demo sites for the organisation of the transaction: three realistic sites with divisions,
 * departments and units; the organisation's first admin is head of safety, every active user is
 * assigned to the first two sites. Does nothing when the organisation already has sites.
 */
export async function seedDemoSites(tx: Tx): Promise<string[]> {
  const existing = await tx.select({ id: sites.id }).from(sites).limit(1);
  if (existing.length > 0) return [];
  const people = await tx
    .select({ id: users.id, isAdmin: users.isAdmin })
    .from(users)
    .where(and(eq(users.status, 'Active'), eq(users.isPlatformAdmin, false)))
    .orderBy(desc(users.isAdmin), asc(users.createdAt));
  const admin = people[0];
  if (!admin) return [];
  const actor = { userId: admin.id };
  const headOfSite = people.find((p) => p.id !== admin.id)?.id ?? null;
  const ids: string[] = [];
  for (const demo of DEMO_SITES) {
    const values = siteSchema.parse({ ...demo.site, head_of_safety_id: admin.id, head_of_site_id: headOfSite });
    const site = await createSite(tx, actor, values);
    ids.push(site.id);
    for (const [division, departments] of Object.entries(demo.tree)) {
      const d = await createNode(tx, actor, site.id, { name: division, head_id: admin.id, supervisor_id: headOfSite, parent_id: null });
      for (const [department, units] of Object.entries(departments)) {
        const dep = await createNode(tx, actor, site.id, { name: department, head_id: null, supervisor_id: null, parent_id: d.id });
        for (const unit of units) {
          await createNode(tx, actor, site.id, { name: unit, head_id: null, supervisor_id: null, parent_id: dep.id });
        }
      }
    }
  }
  for (const p of people) await setUserSites(tx, p.id, ids.slice(0, 2));
  return ids;
}

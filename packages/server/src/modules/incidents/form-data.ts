import {
  BODY_PART_VIEW,
  BODY_PARTS,
  CAPA_KINDS,
  CONTROL_TYPES,
  INCIDENT_LIKELIHOODS,
  INCIDENT_SEVERITIES,
  INCIDENT_SHIFTS,
  INCIDENT_TYPES,
  KEY_FACTOR_CATEGORIES,
  OSHA_INJURY_TYPES,
  OSHA_PRIVACY_REASONS,
  VICTIM_AGE_RANGES,
  VICTIM_GENDERS,
  VICTIM_TYPES,
  type IncidentCategories,
  type IncidentFormData,
  type IncidentGuestFormData,
} from '@bulwark/domain';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import { categories, subCategories } from '../categories/read.js';
import { siteFullNames } from '../sites/service.js';
import { sites } from '../sites/read.js';

/** The choices every incident form offers, staff's and guests'. */
function choices() {
  return {
    types: [...INCIDENT_TYPES],
    severities: [...INCIDENT_SEVERITIES],
    likelihoods: [...INCIDENT_LIKELIHOODS],
    shifts: [...INCIDENT_SHIFTS],
    victim_types: [...VICTIM_TYPES],
    genders: [...VICTIM_GENDERS],
    age_ranges: [...VICTIM_AGE_RANGES],
    body_parts: BODY_PARTS.map((key) => ({ key, view: BODY_PART_VIEW[key] })),
  };
}

async function activeSites(tx: Tx) {
  return tx
    .select({ id: sites.id, name: sites.name, time_zone: sites.timeZone })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id));
}

/** GET /api/incidents/incident_all_categories: the incident types with their active categories and sub-categories. */
export async function incidentCategories(tx: Tx): Promise<IncidentCategories> {
  const cats = await tx
    .select({ id: categories.id, name: categories.name, type: categories.type })
    .from(categories)
    .where(and(eq(categories.module, 'incidents'), eq(categories.active, true)))
    .orderBy(asc(sql`lower(${categories.name})`));
  const subs = cats.length
    ? await tx
        .select({ id: subCategories.id, name: subCategories.name, categoryId: subCategories.categoryId })
        .from(subCategories)
        .where(
          and(
            inArray(
              subCategories.categoryId,
              cats.map((c) => c.id),
            ),
            eq(subCategories.active, true),
          ),
        )
        .orderBy(asc(sql`lower(${subCategories.name})`))
    : [];
  return {
    types: INCIDENT_TYPES.map((type) => ({
      type,
      categories: cats
        .filter((c) => c.type === type)
        .map((c) => ({
          id: c.id,
          name: c.name,
          sub_categories: subs.filter((s) => s.categoryId === c.id).map((s) => ({ id: s.id, name: s.name })),
        })),
    })),
  };
}

/** GET /api/incidents/incident_data: what the report and the steps offer; a guest gets no people. */
export async function incidentFormData(tx: Tx, withPeople = true): Promise<IncidentFormData> {
  const names = await siteFullNames(tx, true);
  const actionCats = await tx
    .select({ id: categories.id, name: categories.name })
    .from(categories)
    .where(and(eq(categories.module, 'actions'), eq(categories.active, true)))
    .orderBy(asc(sql`lower(${categories.name})`));
  const people = withPeople
    ? await tx
        .select({ id: users.id, full_name: users.fullName, email: users.email })
        .from(users)
        .where(and(eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false)))
        .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id))
    : [];
  return {
    sites: (await activeSites(tx)).map((s) => ({
      ...s,
      nodes: names
        .filter((n) => n.site_id === s.id && n.level !== 'site')
        .map((n) => ({ id: n.id, level: n.level as 'division' | 'department' | 'unit', full_name: n.full_name })),
    })),
    categories: (await incidentCategories(tx)).types,
    ...choices(),
    key_factor_categories: [...KEY_FACTOR_CATEGORIES],
    capa_kinds: [...CAPA_KINDS],
    control_types: [...CONTROL_TYPES],
    action_categories: actionCats,
    osha: { injury_types: [...OSHA_INJURY_TYPES], privacy_reasons: [...OSHA_PRIVACY_REASONS] },
    users: people,
  };
}

/** GET /api/incidents/out_incident_data: the guest form of the sub-domain's organisation; no people. */
export async function incidentGuestFormData(tx: Tx): Promise<IncidentGuestFormData> {
  const [org] = await tx
    .select({ name: organizations.name })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return { organization: { name: org?.name ?? '' }, sites: await activeSites(tx), ...choices() };
}

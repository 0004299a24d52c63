import {
  AUDIT_FREQUENCIES,
  AUDIT_ICONS,
  AUDIT_NOTIFY_ROLES,
  AUDIT_RESPONSE_TYPES,
  AUDIT_TYPES,
  CONTROL_TYPES,
  type AuditFormData,
} from '@bulwark/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { categories } from '../categories/read.js';
import { siteFullNames } from '../sites/service.js';
import { sites } from '../sites/read.js';
import { canRunAudits, freeLimits } from './common.js';
import { startedThisMonth } from './run.js';
import { auditTemplates } from './tables.js';

const member = and(eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false));
const person = { id: users.id, full_name: users.fullName, email: users.email };
const byName = [asc(sql`lower(${users.fullName})`), asc(users.id)];

/** GET /api/audits/audit_data: everything the schedule, run and key-finding forms offer. */
export async function auditFormData(tx: Tx, now = new Date()): Promise<AuditFormData> {
  const names = await siteFullNames(tx, true);
  const activeSites = await tx
    .select({ id: sites.id, name: sites.name, time_zone: sites.timeZone })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(asc(sql`lower(${sites.name})`), asc(sites.id));
  const templates = await tx
    .select({
      id: auditTemplates.id,
      name: auditTemplates.name,
      type: auditTemplates.type,
      icon: auditTemplates.icon,
      scoring: auditTemplates.scoring,
      description: auditTemplates.description,
      active: auditTemplates.active,
    })
    .from(auditTemplates)
    .orderBy(asc(sql`lower(${auditTemplates.name})`), asc(auditTemplates.id));
  const limits = await freeLimits(tx);
  return {
    templates,
    sites: activeSites.map((s) => ({
      ...s,
      nodes: names
        .filter((n) => n.site_id === s.id && n.level !== 'site')
        .map((n) => ({ id: n.id, level: n.level as 'division' | 'department' | 'unit', full_name: n.full_name })),
    })),
    auditors: await tx
      .select(person)
      .from(users)
      .where(and(member, canRunAudits))
      .orderBy(...byName),
    users: await tx
      .select(person)
      .from(users)
      .where(member)
      .orderBy(...byName),
    frequencies: [...AUDIT_FREQUENCIES],
    types: [...AUDIT_TYPES],
    icons: [...AUDIT_ICONS],
    response_types: [...AUDIT_RESPONSE_TYPES],
    notify_roles: [...AUDIT_NOTIFY_ROLES],
    control_types: [...CONTROL_TYPES],
    action_categories: await tx
      .select({ id: categories.id, name: categories.name })
      .from(categories)
      .where(and(eq(categories.module, 'actions'), eq(categories.active, true)))
      .orderBy(asc(sql`lower(${categories.name})`)),
    limits: limits
      ? {
          audits_per_month: limits.auditsPerMonth,
          audits_this_month: await startedThisMonth(tx, now),
          templates: limits.templates,
          schedules: limits.schedules,
        }
      : null,
  };
}

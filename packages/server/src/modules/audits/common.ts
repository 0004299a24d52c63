import { auditPath, FREE_ACCOUNT_AUDIT_LIMITS, isFreeAccount, type Language, type MailerScenarioId } from '@bulwark/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, roleActions, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { siteNodes, sites } from '../sites/read.js';

/** The app's collaborators the audit services use (the review engine and the actions module take them whole). */
export type AuditsDeps = AppDeps;
export type AfterCommit = () => Promise<void>;
export type FieldErrors = Record<string, string>;

/** History entity of audits (platform audit log). */
export const AUDIT_ENTITY = 'Audit';
export const TEMPLATE_ENTITY = 'AuditTemplate';
export const SCHEDULE_ENTITY = 'AuditSchedule';

export function refuse(fields: FieldErrors): void {
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });
}

/** The organisation of the transaction: its plan, time zone and address. */
export async function currentOrganization(tx: Tx) {
  const [org] = await tx
    .select({
      id: organizations.id,
      sub: organizations.subDomainName,
      subscriptionType: organizations.subscriptionType,
      timezone: organizations.timezone,
    })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return org!;
}

/** The free account's limits, or null on any other plan. */
export async function freeLimits(tx: Tx): Promise<typeof FREE_ACCOUNT_AUDIT_LIMITS | null> {
  return isFreeAccount((await currentOrganization(tx)).subscriptionType) ? FREE_ACCOUNT_AUDIT_LIMITS : null;
}

/** Refuses with the spec's plan message (spec 001 §8) when the free account has used `limit`. */
export function refuseOverLimit(used: number, limit: number, key: 'monthly' | 'templates' | 'schedules'): void {
  if (used >= limit) throw new AppError('plan_limit_reached', { messageKey: `audits.limits.${key}`, vars: { limit } });
}

/** The address of a path at the organisation's own sub-domain. */
export async function organizationLink(tx: Tx, deps: Pick<AppDeps, 'config'>, path: string): Promise<string> {
  return `${publicUrl(deps.config, (await currentOrganization(tx)).sub)}${path}`;
}

export type SiteInfo = { id: string; name: string; timeZone: string; headOfSafetyId: string | null; isActive: boolean };

export async function sitesByIds(tx: Tx, ids: readonly string[]): Promise<Map<string, SiteInfo>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, headOfSafetyId: sites.headOfSafetyId, isActive: sites.isActive })
    .from(sites)
    .where(inArray(sites.id, [...new Set(ids)]));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Whether `nodeId` is an area (division, department or unit) of the site. */
export async function isAreaOf(tx: Tx, siteId: string, nodeId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: siteNodes.id })
    .from(siteNodes)
    .where(and(eq(siteNodes.id, nodeId), eq(siteNodes.siteId, siteId)));
  return !!row;
}

const member = and(eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false));

/** The active members among `ids` (not guests), with what mails need. */
export async function activeMembers(tx: Tx, ids: readonly (string | null)[]) {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map<string, { id: string; fullName: string; email: string; locale: Language }>();
  const rows = await tx
    .select({ id: users.id, fullName: users.fullName, email: users.email, locale: users.locale })
    .from(users)
    .where(and(inArray(users.id, wanted), member));
  return new Map(rows.map((r) => [r.id, r]));
}

/** Whose role may update audits: who may be an auditor (the run needs Audit update). */
export const canRunAudits = sql<boolean>`exists (select 1 from ${roleActions} ra where ra.organization_id = ${users.organizationId}
  and ra.role_id = ${users.roleId} and ra.name = 'Audit' and ra.r_view and ra.r_edit)`;

/** Whether this person may be an auditor: an active member whose role reads and updates audits. */
export async function isAuditor(tx: Tx, userId: string): Promise<boolean> {
  const [row] = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), member, canRunAudits));
  return !!row;
}

/** Names of people by id (for views), including those no longer active. */
export async function namesOf(tx: Tx, ids: readonly (string | null | undefined)[]): Promise<Map<string, string>> {
  const wanted = [...new Set(ids.filter((x): x is string => !!x))];
  if (wanted.length === 0) return new Map();
  const rows = await tx.select({ id: users.id, fullName: users.fullName }).from(users).where(inArray(users.id, wanted));
  return new Map(rows.map((r) => [r.id, r.fullName]));
}

export function personOf(names: Map<string, string>, id: string | null | undefined) {
  return id && names.has(id) ? { id, full_name: names.get(id)! } : null;
}

type AuditScenario = Extract<
  MailerScenarioId,
  'audit_scheduled' | 'audit_approved' | 'audit_overdue' | 'audit_critical_failure' | 'audit_answer_notice' | 'audit_report_sent'
>;

/**
 * Mails (and notifies in the app) one active member about an audit through the organisation's mail
 * texts, in their language. `variables` may depend on that language.
 */
export async function mailAboutAudit(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  scenario: AuditScenario,
  userId: string | null,
  audit: { id: string },
  variables: (lang: Language) => Record<string, string>,
  attachmentFileIds: readonly string[] = [],
): Promise<QueuedTemplatedMail | null> {
  if (!userId) return null;
  const person = (await activeMembers(tx, [userId])).get(userId);
  if (!person) return null;
  const path = auditPath(audit.id);
  return sendTemplatedMail(tx, deps, {
    scenario,
    to: person.email,
    language: person.locale,
    userId,
    link: path,
    variables: { audit_link: await organizationLink(tx, deps, path), ...variables(person.locale) },
    ...(attachmentFileIds.length > 0 ? { attachmentFileIds } : {}),
  });
}

/** The push event of an audit change, for the `audits` channel. */
export function announce(
  deps: Pick<AppDeps, 'push'>,
  organizationId: string,
  id: string,
  change: 'created' | 'updated' | 'removed' = 'updated',
) {
  deps.push.toOrganization(organizationId, { channel: 'audits', change, id });
}

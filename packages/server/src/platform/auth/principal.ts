import { LICENCE_MODULES, rulesFromRoleActions, type AccessContext, type LicenceModule, type RoleAction, type Rule } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../db/db.js';
import { organizations, roleActions, roles, sessions, users } from '../db/schema.js';

/** The signed-in user as every guard and service sees them. */
export type Principal = {
  userId: string;
  organizationId: string;
  sessionId: string;
  /** When the session began: its thirty days are judged at each use (the principal cache keeps it). */
  sessionStart: Date;
  email: string;
  fullName: string;
  status: 'Active' | 'Inactive' | 'Error' | 'Deleted';
  isAdmin: boolean;
  isPlatformAdmin: boolean;
  canIssuePermit: boolean;
  locale: 'en' | 'es' | 'tr' | 'zh';
  roleName: string | null;
  rules: Rule[];
  access: AccessContext;
  organization: typeof organizations.$inferSelect;
  sessionRevoked: boolean;
  /** Free trial over (spec 001 §4/§8): writes are refused with free_trial_expired; reads and sign-in go on. */
  trialExpired: boolean;
  /**
   * A guest is a principal of its own kind, set from how the account was made (a self-registered
   * visitor, users.is_guest), never from its role's name or rights: it reaches only the routes whose
   * contract admits guests (EndpointDef.guests), whatever its role holds. An integration is a service
   * account (users.is_integration) reached by API tokens: its role's rights, never an administrator's.
   */
  kind: 'member' | 'guest' | 'integration';
};

/** Registration module's trial-expiry rule: a free_trial organisation whose trial_ends_at has passed. */
export function isTrialExpired(
  org: Pick<typeof organizations.$inferSelect, 'subscriptionType' | 'trialEndsAt' | 'isPlatform'>,
  now = Date.now(),
): boolean {
  return !org.isPlatform && org.subscriptionType === 'free_trial' && org.trialEndsAt !== null && org.trialEndsAt.getTime() <= now;
}

/**
 * A session's absolute lifetime: refreshing renews its tokens, never this. Thirty days after sign-in
 * the user signs in again, however active the session was.
 */
export const SESSION_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

export function sessionOutlived(createdAt: Date, now = Date.now()): boolean {
  return createdAt.getTime() + SESSION_MAX_AGE_SECONDS * 1000 <= now;
}

/** Rules of the platform super admin: Organization, and nothing else (spec 000 §5). */
const PLATFORM_RULES: Rule[] = [{ subject: 'Organization', actions: ['read', 'create', 'update', 'delete'] }];

/**
 * The role's matrix rows, read with the user in the same statement: the guard loads the principal on every
 * request, and a second round trip for the rights was a tenth of a cheap request's time.
 */
const roleMatrix = sql<RoleAction[] | null>`(
  select json_agg(json_build_object(
    'name', ra.name, 'r_add', ra.r_add, 'r_edit', ra.r_edit, 'r_view', ra.r_view, 'r_destroy', ra.r_destroy,
    'is_revoke', ra.is_revoke, 'is_extend', ra.is_extend, 'is_close', ra.is_close, 'is_reject', ra.is_reject, 'is_approve', ra.is_approve
  ) order by ra.name)
  from ${roleActions} ra where ra.organization_id = ${users.organizationId} and ra.role_id = ${users.roleId})`;

/**
 * The modules the user holds a licence for, in the same statement: on a paid plan `can()` asks for
 * them on every licensed write (domain access/licences.ts). The table is the users module's.
 */
const licenceModules = sql<LicenceModule[]>`(
  select coalesce(array_agg(ul.module order by ul.module), '{}'::text[])
  from user_licences ul where ul.organization_id = ${users.organizationId} and ul.user_id = ${users.id})`;

export async function loadPrincipal(tx: Tx, userId: string, sessionId: string): Promise<Principal | null> {
  const [row] = await tx
    .select({
      user: users,
      roleName: roles.name,
      roleGrantsAdmin: roles.grantsAdmin,
      org: organizations,
      revokedAt: sessions.revokedAt,
      sessionStart: sessions.createdAt,
      matrix: roleMatrix,
      licences: licenceModules,
    })
    .from(users)
    .innerJoin(organizations, eq(organizations.id, users.organizationId))
    .innerJoin(sessions, and(eq(sessions.organizationId, users.organizationId), eq(sessions.id, sessionId)))
    .leftJoin(roles, and(eq(roles.organizationId, users.organizationId), eq(roles.id, users.roleId)))
    .where(and(eq(users.id, userId), eq(sessions.userId, userId)));
  if (!row) return null;
  const { user, org } = row;
  let rules: Rule[] = [];
  if (user.isPlatformAdmin && org.isPlatform) {
    rules = PLATFORM_RULES;
  } else if (user.roleId) {
    rules = rulesFromRoleActions(row.matrix ?? []);
  }
  const isPlatformAdmin = user.isPlatformAdmin && org.isPlatform;
  const integration = user.isIntegration && !isPlatformAdmin;
  return {
    userId: user.id,
    organizationId: user.organizationId,
    sessionId,
    sessionStart: row.sessionStart,
    email: user.email,
    fullName: user.fullName,
    status: user.status,
    // A role with "grant admin access" adds admin powers; it never takes away the user's own flag.
    // A service account is never an administrator, whatever role it is given (modules/api-tokens).
    isAdmin: !integration && (user.isAdmin || row.roleGrantsAdmin === true),
    isPlatformAdmin,
    canIssuePermit: user.canIssuePermit,
    locale: user.locale,
    roleName: isPlatformAdmin ? 'MasterSuperAdmin' : row.roleName,
    rules,
    access: {
      rules,
      isPlatformAdmin,
      memExhausted: org.storageUsedBytes >= org.storageQuotaBytes,
      subscriptionType: org.subscriptionType,
      // A service account takes no seat and needs no module licence: its reach is its role (docs/modules.md).
      licences: integration ? [...LICENCE_MODULES] : row.licences,
      trialExpired: !isPlatformAdmin && isTrialExpired(org),
    },
    organization: org,
    // An API token's session lives as long as the token (its own expiry and revocation), not thirty days.
    sessionRevoked: row.revokedAt !== null || (!integration && sessionOutlived(row.sessionStart)),
    trialExpired: !isPlatformAdmin && isTrialExpired(org),
    kind: integration ? 'integration' : user.isGuest && !isPlatformAdmin ? 'guest' : 'member',
  };
}

/** Why a loaded principal may not act, in the order a client should hear it; null when it may. */
export function unusableReason(p: Principal | null): 'session_expired' | 'organization_inactive' | 'account_inactive' | null {
  if (!p || p.sessionRevoked) return 'session_expired';
  if (p.organization.deletedAt || p.organization.organizationStatus !== 'Active') return 'organization_inactive';
  if (p.status !== 'Active') return 'account_inactive';
  return null;
}

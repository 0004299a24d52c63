import { PRODUCT_NAME, translate, USER_ACTIVATION_TTL_SECONDS, type GuestSignupBody, type Language } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { randomToken, sha256 } from '../../platform/auth/tokens.js';
import { publicUrl, type Config } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, passwordResetTokens, roles, users } from '../../platform/db/schema.js';
import type { Mail } from '../../platform/mail/mail.js';
import { recordAudit } from '../../platform/audit.js';
import { createRole } from '../organizations/service.js';

const thisOrg = eq(organizations.id, sql`app_current_org()`);

/** The system role guests hold: report observations and incidents, nothing else. */
const GUEST_RIGHTS = (['Observation', 'Incident'] as const).map((name) => ({
  name,
  rAdd: true,
  rEdit: false,
  rView: true,
  rDestroy: false,
  isRevoke: false,
  isExtend: false,
  isClose: false,
  isReject: false,
  isApprove: false,
}));

export async function guestSettings(tx: Tx): Promise<{ enabled: boolean; organization: string; subDomain: string }> {
  const [org] = await tx
    .select({ enabled: organizations.guestSignupEnabled, name: organizations.name, sub: organizations.subDomainName })
    .from(organizations)
    .where(thisOrg);
  return { enabled: org?.enabled ?? false, organization: org?.name ?? '', subDomain: org?.sub ?? '' };
}

export async function setGuestSignup(tx: Tx, enabled: boolean, actorUserId: string) {
  await tx.update(organizations).set({ guestSignupEnabled: enabled, updatedAt: new Date() }).where(thisOrg);
  await recordAudit(tx, { actorUserId, action: 'update', entity: 'Organization', changes: { guest_signup_enabled: enabled } });
}

async function guestRoleId(tx: Tx): Promise<string> {
  const [existing] = await tx
    .select({ id: roles.id })
    .from(roles)
    .where(and(eq(roles.isSystem, true), sql`lower(${roles.name}) = 'guest'`));
  return existing?.id ?? createRole(tx, 'Guest', GUEST_RIGHTS, { isSystem: true });
}

/**
 * Creates a guest (no password, not verified, outside the plan's user limit) and e-mails a 7-day link to
 * choose a password: owning the inbox is the proof. An address already known here gets no second account
 * and no different answer, so the form reveals nobody's membership. Returns the outbox id, if any.
 */
export async function createGuest(
  tx: Tx,
  deps: { config: Config; mail: Mail },
  body: GuestSignupBody,
  lang: Language,
): Promise<string | null> {
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${body.email.toLowerCase()}`);
  if (taken) return null;
  const roleId = await guestRoleId(tx);
  const [created] = await tx
    .insert(users)
    .values({
      email: body.email,
      fullName: body.full_name,
      passwordHash: null,
      status: 'Active',
      roleId,
      locale: lang,
      isGuest: true,
    })
    .returning({ id: users.id });
  const token = randomToken();
  await tx
    .insert(passwordResetTokens)
    .values({ tokenHash: sha256(token), userId: created!.id, expiresAt: new Date(Date.now() + USER_ACTIVATION_TTL_SECONDS * 1000) });
  const settings = await guestSettings(tx);
  const vars = {
    product: PRODUCT_NAME,
    organization: settings.organization,
    name: body.full_name,
    link: `${publicUrl(deps.config, settings.subDomain)}/password-reset/${token}?activate=1`,
  };
  await recordAudit(tx, {
    actorUserId: null,
    action: 'create',
    entity: 'User',
    entityId: created!.id,
    changes: { guest: true, company: body.company ?? null },
  });
  return deps.mail.enqueue(tx, {
    to: body.email,
    subject: translate(lang, 'registration.guest.mailSubject', vars),
    body: translate(lang, 'registration.guest.mailBody', vars),
  });
}

import { PRODUCT_NAME, translate, type Language, type SignInResponse } from '@bulwark/domain';
import { and, eq, gt, sql } from 'drizzle-orm';
import { verifyPassword } from '../../platform/auth/passwords.js';
import { forgetFailures, recordFailure, throttleState, type ThrottleRule } from '../../platform/auth/throttle.js';
import { publicUrl } from '../../platform/config.js';
import { inTenant } from '../../platform/db/db.js';
import { organizations, sessions, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import type { Tenant } from '../../platform/http/tenancy.js';

export type SessionMeta = { ip: string; userAgent: string | undefined };

/**
 * Failed sign-ins per account, from any address: after 5, each further attempt waits 15 s, doubled
 * with every failure up to 15 minutes. The owner's own addresses are let through (KNOWN_ADDRESS_DAYS),
 * so nobody can lock anyone out by guessing wrong on purpose; a stranger's guesses stay slowed down.
 */
export const ACCOUNT_THROTTLE: ThrottleRule = { free: 5, firstWaitSeconds: 15, maxWaitSeconds: 900, forgetSeconds: 86_400 };
/** Failed sign-ins per address, whichever accounts they try. Successes cost nothing (a whole office behind one address). */
export const ADDRESS_THROTTLE: ThrottleRule = { free: 20, firstWaitSeconds: 15, maxWaitSeconds: 900, forgetSeconds: 3_600 };
/** An address the user signed in from within these days passes the account's wait (its own wait still applies). */
const KNOWN_ADDRESS_DAYS = 30;

type OpenSession = (tenant: Tenant, userId: string, meta: SessionMeta) => Promise<SignInResponse>;

/**
 * Sign-in with e-mail and password. Every failure answers `sign_in_failed`, the same text whether the
 * e-mail is unknown, the account was never activated or the password is wrong (DECISIONS.md); what
 * depends on the account ("not registered", inactive) is said only after the right password.
 */
export function createPasswordSignIn(deps: Pick<AppDeps, 'db' | 'config' | 'mail' | 'jobs'>, openSession: OpenSession) {
  const app = deps.db.app;

  async function signIn(tenant: Tenant, email: string, password: string, meta: SessionMeta): Promise<SignInResponse> {
    const addressKey = `signin-fail-ip:${meta.ip}`;
    const accountKey = `signin-fail-account:${tenant.id}:${email}`;
    if ((await throttleState(app, addressKey, ADDRESS_THROTTLE)).waitSeconds > 0) throw new AppError('rate_limited');

    // One statement whether or not the account exists: the user and whether this address is theirs.
    const found = await inTenant(app, tenant.id, async (tx) => {
      const [row] = await tx
        .select({
          user: users,
          knownAddress: sql<boolean>`exists (${tx
            .select({ one: sql`1` })
            .from(sessions)
            .where(
              and(
                eq(sessions.userId, users.id),
                eq(sessions.ip, meta.ip),
                gt(sessions.createdAt, sql`now() - make_interval(days => ${KNOWN_ADDRESS_DAYS})`),
              ),
            )})`,
        })
        .from(users)
        .where(sql`lower(${users.email}) = ${email}`);
      return row;
    });
    const account = await throttleState(app, accountKey, ACCOUNT_THROTTLE);
    if (account.waitSeconds > 0 && !found?.knownAddress) throw new AppError('rate_limited');

    const user = found?.user;
    // Without an account or a password, a dummy hash is verified: the answer takes as long either way.
    if (!(await verifyPassword(user?.passwordHash ?? null, password)) || !user) {
      await recordFailure(app, addressKey, ADDRESS_THROTTLE);
      const failures = await recordFailure(app, accountKey, ACCOUNT_THROTTLE);
      // Once per burst: the failure that starts the waits.
      if (failures === ACCOUNT_THROTTLE.free && user && user.status === 'Active') await alertOwner(tenant, user, failures);
      throw new AppError('sign_in_failed');
    }
    if (user.status === 'Deleted') throw new AppError('not_registered');
    if (tenant.status !== 'Active') throw new AppError('organization_inactive');
    if (user.status !== 'Active') throw new AppError('account_inactive');
    await forgetFailures(app, accountKey);
    return openSession(tenant, user.id, meta);
  }

  /** Tells the owner, in their language, that someone keeps guessing their password. */
  async function alertOwner(tenant: Tenant, user: typeof users.$inferSelect, count: number): Promise<void> {
    const mailId = await inTenant(app, tenant.id, async (tx) => {
      const [org] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, tenant.id));
      const lang: Language = user.locale;
      const vars = {
        product: PRODUCT_NAME,
        organization: org?.name ?? tenant.label,
        count,
        link: `${publicUrl(deps.config, tenant.label)}/password-reset`,
      };
      return deps.mail.enqueue(tx, {
        to: user.email,
        subject: translate(lang, 'mail.signInAlertSubject', vars),
        body: translate(lang, 'mail.signInAlertBody', vars),
      });
    });
    if (deps.mail.smtpEnabled) await deps.jobs?.send(MAIL_QUEUE, { organizationId: tenant.id, id: mailId });
  }

  return { signIn };
}

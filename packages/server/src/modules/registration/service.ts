import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import {
  PRODUCT_NAME,
  PUBLIC_TENANT,
  REGISTRATION_CODE_TTL_MINUTES,
  REGISTRATION_MAX_ATTEMPTS,
  REGISTRATION_MAX_RESENDS,
  REGISTRATION_RESEND_COOLDOWN_SECONDS,
  subdomainProblem,
  suggestSubdomain,
  translate,
  type Language,
  type RegistrationCreated,
  type RegistrationVerified,
  type SubdomainAvailability,
} from '@bulwark/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords.js';
import { publicUrl } from '../../platform/config.js';
import { asPlatform, inTenant, type Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { limit } from '../../platform/http/rate-limit.js';
import { resolveTenant } from '../../platform/http/tenancy.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { createOrganizationIn, OrgInputError } from '../organizations/service.js';
import { businessEmailProblem } from './business-email.js';
import { registrations } from './tables.js';

type Deps = Pick<AppDeps, 'db' | 'config' | 'mail' | 'jobs'>;

export type RegistrationInput = {
  company_name: string;
  full_name: string;
  email: string;
  phone: string;
  password: string;
  sub_domain: string;
};

/** Per-address limits of the public sign-up routes (requests per window). */
export const REGISTRATION_LIMITS = {
  register: { max: 10, windowSeconds: 3600 },
  registerPerEmail: { max: 5, windowSeconds: 3600 },
  verify: { max: 30, windowSeconds: 600 },
  resend: { max: 10, windowSeconds: 3600 },
  availability: { max: 120, windowSeconds: 60 },
} as const;

const CODE_TTL_MS = REGISTRATION_CODE_TTL_MINUTES * 60_000;

async function setTenant(tx: Tx, organizationId: string) {
  await tx.execute(sql`select set_config('app.organization_id', ${organizationId}, true)`);
}

/**
 * Sign-up in two steps: `register` keeps a pending registration in the platform's own tenant and
 * e-mails a 6-digit code; `verify` checks the code and creates the organisation, its Administrator
 * role and its admin in one transaction. `resend` sends a fresh code after a cool-down.
 */
export function createRegistrationService(deps: Deps) {
  const db = deps.db.app;
  let platformOrgId: string | null = null;

  async function platformTenant(): Promise<string> {
    if (platformOrgId) return platformOrgId;
    const tenant = await resolveTenant(db, PUBLIC_TENANT);
    if (!tenant) throw new Error('The platform tenant is missing: the migrations did not run.');
    platformOrgId = tenant.id;
    return platformOrgId;
  }

  /** Keyed by the registration, so a code from one sign-up is worthless for another; the app secret keeps a stolen table from being brute-forced offline. */
  function codeHash(registrationId: string, code: string): string {
    return createHmac('sha256', deps.config.appSecret).update(`${registrationId}:${code}`).digest('base64url');
  }

  function newCode(): string {
    return String(randomInt(0, 1_000_000)).padStart(6, '0');
  }

  async function sendCode(tx: Tx, r: { email: string; fullName: string; companyName: string; locale: Language }, code: string) {
    const vars = { product: PRODUCT_NAME, name: r.fullName, organization: r.companyName, code, minutes: REGISTRATION_CODE_TTL_MINUTES };
    return deps.mail.enqueue(tx, {
      to: r.email,
      subject: translate(r.locale, 'registration.mail.codeSubject', vars),
      body: translate(r.locale, 'registration.mail.codeBody', vars),
    });
  }

  /**
   * What an address that already administers an organisation gets instead of a code: the sign-up
   * answers it exactly as any other (DECISIONS.md), and only its mailbox learns why no code came.
   */
  async function sendAlreadyRegistered(tx: Tx, r: { email: string; locale: Language }) {
    const vars = { product: PRODUCT_NAME };
    return deps.mail.enqueue(tx, {
      to: r.email,
      subject: translate(r.locale, 'mail.alreadyRegisteredSubject', vars),
      body: translate(r.locale, 'mail.alreadyRegisteredBody', vars),
    });
  }

  async function deliver(mailId: string) {
    if (deps.mail.smtpEnabled) await deps.jobs?.send(MAIL_QUEUE, { organizationId: await platformTenant(), id: mailId });
  }

  /** Why a sub-domain cannot be had now: its form, the reserved list, an organisation or a live sign-up holding it. */
  async function subdomainUnavailable(tx: Tx, subDomain: string): Promise<'format' | 'reserved' | 'taken' | null> {
    const problem = subdomainProblem(subDomain);
    if (problem) return problem;
    if (await resolveTenant(db, subDomain)) return 'taken';
    const [pending] = await tx
      .select({ id: registrations.id })
      .from(registrations)
      .where(and(eq(registrations.subDomain, subDomain), isNull(registrations.completedAt), gt(registrations.codeExpiresAt, new Date())))
      .limit(1);
    return pending ? 'taken' : null;
  }

  /** A free sub-domain near `base`: itself, then base-2 ... base-9. */
  async function firstFree(tx: Tx, base: string): Promise<string | null> {
    const root = suggestSubdomain(base);
    if (!root) return null;
    const candidates = [root, ...Array.from({ length: 8 }, (_, i) => `${root.slice(0, 60)}-${i + 2}`)];
    for (const c of candidates) if ((await subdomainUnavailable(tx, c)) === null) return c;
    return null;
  }

  async function availability(query: { sub_domain?: string; company_name?: string }): Promise<SubdomainAvailability> {
    const asked = query.sub_domain?.trim().toLowerCase() || suggestSubdomain(query.company_name ?? '') || '';
    return inTenant(db, await platformTenant(), async (tx) => {
      if (!asked) return { sub_domain: '', available: false, reason: 'format' as const, suggestion: null };
      const reason = await subdomainUnavailable(tx, asked);
      return { sub_domain: asked, available: reason === null, reason, suggestion: reason === null ? asked : await firstFree(tx, asked) };
    });
  }

  /**
   * The per-address limit of each public route, run before the body is even validated, so malformed
   * requests count too.
   */
  async function limitAddress(kind: 'register' | 'verify' | 'resend' | 'availability', ip: string) {
    const { max, windowSeconds } = REGISTRATION_LIMITS[kind];
    await limit(db, `register-${kind}-ip:${ip}`, max, windowSeconds);
  }

  async function register(input: RegistrationInput, lang: Language): Promise<RegistrationCreated> {
    const email = input.email.toLowerCase();
    await limit(
      db,
      `register-email:${email}`,
      REGISTRATION_LIMITS.registerPerEmail.max,
      REGISTRATION_LIMITS.registerPerEmail.windowSeconds,
    );
    if (businessEmailProblem(email)) {
      throw new AppError('validation_failed', { fields: { email: 'registration.validation.businessEmail' } });
    }
    const passwordHash = await hashPassword(input.password);
    const code = newCode();
    const now = Date.now();
    const { created, mailId } = await inTenant(db, await platformTenant(), async (tx) => {
      // Sign-ups are rare: one at a time makes "sub-domain already held" exact without races.
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('bulwark:registration'))`);
      const reason = await subdomainUnavailable(tx, input.sub_domain);
      if (reason) {
        throw new AppError('validation_failed', {
          fields: { sub_domain: reason === 'taken' ? 'registration.validation.subdomainTaken' : `validation.subdomain.${reason}` },
        });
      }
      const [row] = await tx
        .insert(registrations)
        .values({
          companyName: input.company_name,
          fullName: input.full_name,
          email,
          phone: input.phone,
          subDomain: input.sub_domain,
          locale: lang,
          passwordHash,
          codeHash: 'pending',
          codeExpiresAt: new Date(now + CODE_TTL_MS),
          codeSentAt: new Date(now),
        })
        .returning();
      const r = row!;
      await tx
        .update(registrations)
        .set({ codeHash: codeHash(r.id, code) })
        .where(eq(registrations.id, r.id));
      // An address that administers an organisation gets the same answer and a registration like any
      // other (so verify and resend behave alike), but a notice instead of the code: nobody learns from
      // the answer whether the address has an account, and its owner learns it from the mail alone.
      const mail = (await adminEmailTakenElsewhere(tx, email))
        ? await sendAlreadyRegistered(tx, { email, locale: lang })
        : await sendCode(tx, { email, fullName: r.fullName, companyName: r.companyName, locale: lang }, code);
      return { created: r, mailId: mail };
    });
    await deliver(mailId);
    return {
      registration_id: created.id,
      email,
      expires_at: created.codeExpiresAt.toISOString(),
      resend_after: new Date(now + REGISTRATION_RESEND_COOLDOWN_SECONDS * 1000).toISOString(),
    };
  }

  async function lockRegistration(tx: Tx, id: string) {
    const [row] = await tx.select().from(registrations).where(eq(registrations.id, id)).for('update');
    if (!row) throw new AppError('not_found');
    if (row.completedAt) throw new AppError('conflict', { messageKey: 'registration.verify.missing' });
    return row;
  }

  type VerifyOutcome = { kind: 'wrong'; left: number } | { kind: 'done'; result: RegistrationVerified };

  async function verify(id: string, code: string): Promise<RegistrationVerified> {
    const platformId = await platformTenant();
    // The platform path: the new organisation's row may only be written there.
    const outcome = await asPlatform(db, async (tx): Promise<VerifyOutcome> => {
      await setTenant(tx, platformId);
      await tx.execute(sql`select pg_advisory_xact_lock(hashtext('bulwark:registration'))`);
      const r = await lockRegistration(tx, id);
      if (r.failedAttempts >= REGISTRATION_MAX_ATTEMPTS) {
        throw new AppError('link_expired', { fields: { code: 'registration.validation.otpAttempts' } });
      }
      if (r.codeExpiresAt.getTime() <= Date.now()) {
        throw new AppError('link_expired', { fields: { code: 'registration.validation.otpExpired' } });
      }
      const expected = Buffer.from(r.codeHash);
      const given = Buffer.from(codeHash(r.id, code));
      if (expected.length !== given.length || !timingSafeEqual(expected, given)) {
        // Counted in its own commit below: the refusal must not roll the count back.
        await tx
          .update(registrations)
          .set({ failedAttempts: sql`${registrations.failedAttempts} + 1` })
          .where(eq(registrations.id, r.id));
        return { kind: 'wrong', left: REGISTRATION_MAX_ATTEMPTS - r.failedAttempts - 1 };
      }
      // Someone may have taken the address or the name since step 1 (its hold lapses with the code).
      if (await adminEmailTakenElsewhere(tx, r.email)) throw new AppError('email_taken', { fields: { email: 'errors.email_taken' } });
      await tx.update(registrations).set({ completedAt: new Date() }).where(eq(registrations.id, r.id));
      let created;
      try {
        created = await createOrganizationIn(tx, {
          subDomain: r.subDomain,
          name: r.companyName,
          admin: { email: r.email, fullName: r.fullName, passwordHash: r.passwordHash, locale: r.locale },
          onboardingDone: false,
        });
      } catch (err) {
        if (err instanceof OrgInputError && err.code === 'conflict') {
          throw new AppError('validation_failed', { fields: { sub_domain: 'registration.validation.subdomainTaken' } });
        }
        throw err;
      }
      await setTenant(tx, platformId);
      await tx.update(registrations).set({ createdOrganizationId: created.organization.id }).where(eq(registrations.id, r.id));
      const org = created.organization;
      return {
        kind: 'done',
        result: {
          organization_id: org.id,
          organization_name: org.name,
          sub_domain_name: org.subDomainName,
          organization_url: publicUrl(deps.config, org.subDomainName),
          email: r.email,
          trial_ends_at: org.trialEndsAt!.toISOString(),
        },
      };
    });
    if (outcome.kind === 'wrong') {
      throw new AppError('otp_invalid', {
        fields: { code: outcome.left > 0 ? 'registration.validation.otpWrong' : 'registration.validation.otpAttempts' },
        vars: { left: outcome.left },
      });
    }
    return outcome.result;
  }

  async function adminEmailTakenElsewhere(tx: Tx, email: string): Promise<boolean> {
    const result = await tx.execute<{ taken: boolean }>(sql`select app_admin_email_taken(${email}) as taken`);
    return !!result.rows[0]?.taken;
  }

  async function resend(id: string): Promise<{ expires_at: string; resend_after: string }> {
    const code = newCode();
    const { expiresAt, sentAt, mailId } = await inTenant(db, await platformTenant(), async (tx) => {
      const r = await lockRegistration(tx, id);
      if (r.resendCount >= REGISTRATION_MAX_RESENDS) {
        throw new AppError('rate_limited', { messageKey: 'registration.validation.resendLimit' });
      }
      const wait = Math.ceil((r.codeSentAt.getTime() + REGISTRATION_RESEND_COOLDOWN_SECONDS * 1000 - Date.now()) / 1000);
      if (wait > 0) throw new AppError('rate_limited', { messageKey: 'registration.validation.resendWait', vars: { seconds: wait } });
      const now = new Date();
      const expires = new Date(now.getTime() + CODE_TTL_MS);
      await tx
        .update(registrations)
        .set({
          codeHash: codeHash(r.id, code),
          codeExpiresAt: expires,
          codeSentAt: now,
          failedAttempts: 0,
          resendCount: r.resendCount + 1,
        })
        .where(eq(registrations.id, r.id));
      const mail = (await adminEmailTakenElsewhere(tx, r.email))
        ? await sendAlreadyRegistered(tx, r)
        : await sendCode(tx, { email: r.email, fullName: r.fullName, companyName: r.companyName, locale: r.locale }, code);
      return { expiresAt: expires, sentAt: now, mailId: mail };
    });
    await deliver(mailId);
    return {
      expires_at: expiresAt.toISOString(),
      resend_after: new Date(sentAt.getTime() + REGISTRATION_RESEND_COOLDOWN_SECONDS * 1000).toISOString(),
    };
  }

  return { availability, register, verify, resend, limitAddress, platformTenant };
}
export type RegistrationService = ReturnType<typeof createRegistrationService>;

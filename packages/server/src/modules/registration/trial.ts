import { PRODUCT_NAME, translate, trialDaysLeft, type Language, type Plan } from '@bulwark/domain';
import { and, count, eq, isNotNull, isNull, lte, ne } from 'drizzle-orm';
import { isTrialExpired } from '../../platform/auth/principal.js';
import { publicUrl } from '../../platform/config.js';
import { inTenant, type Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { createNotification } from '../notifications/routes.js';
import { extendRequests, trialNotices } from './tables.js';

type Org = typeof organizations.$inferSelect;

/** The plan of spec 001 §9 for one organisation, read in its tenant transaction. */
export async function planOf(tx: Tx, org: Org, now = Date.now()): Promise<Plan> {
  const [usersCount] = await tx
    .select({ n: count() })
    .from(users)
    .where(and(eq(users.organizationId, org.id), ne(users.status, 'Deleted'), eq(users.isPlatformAdmin, false)));
  const [pending] = await tx
    .select({ id: extendRequests.id })
    .from(extendRequests)
    .where(and(eq(extendRequests.organizationId, org.id), eq(extendRequests.status, 'pending')))
    .limit(1);
  const trial = org.subscriptionType === 'free_trial';
  return {
    status: trial ? 'trial' : org.subscriptionType === 'active' ? 'active' : 'cancelled',
    subscription_type: org.subscriptionType,
    trial_ends_at: org.trialEndsAt?.toISOString() ?? null,
    trial_expired: isTrialExpired(org, now),
    trial_days_left: trial && org.trialEndsAt ? trialDaysLeft(org.trialEndsAt, now) : null,
    user_limit: org.userLimit,
    users_count: Number(usersCount?.n ?? 0),
    storage_quota_bytes: org.storageQuotaBytes,
    storage_used_bytes: org.storageUsedBytes,
    extension_request_pending: !!pending,
  };
}

export { saasFeatures } from '../organizations/plan-modules.js';

/** The active admins of the transaction's organisation, to be told about their trial. */
export async function organizationAdmins(tx: Tx) {
  return tx
    .select({ id: users.id, email: users.email, fullName: users.fullName, locale: users.locale })
    .from(users)
    .where(and(eq(users.isAdmin, true), eq(users.status, 'Active')));
}

type Notice = {
  titleKey: string;
  bodyKey: string;
  mailSubjectKey: string;
  mailBodyKey: string;
  vars: Record<string, string | number>;
  link: string;
};

/** In-app notification and e-mail to every admin of the transaction's organisation; returns the outbox ids. */
export async function tellAdmins(tx: Tx, deps: Pick<AppDeps, 'mail'>, notice: Notice): Promise<string[]> {
  const mailIds: string[] = [];
  for (const admin of await organizationAdmins(tx)) {
    const lang = admin.locale as Language;
    const vars = { ...notice.vars, name: admin.fullName, product: PRODUCT_NAME };
    await createNotification(tx, {
      userId: admin.id,
      title: translate(lang, notice.titleKey, vars),
      body: translate(lang, notice.bodyKey, vars),
      link: notice.link,
    });
    mailIds.push(
      await deps.mail.enqueue(tx, {
        to: admin.email,
        subject: translate(lang, notice.mailSubjectKey, vars),
        body: translate(lang, notice.mailBodyKey, vars),
      }),
    );
  }
  return mailIds;
}

export const TRIAL_REMINDER_QUEUE = 'registration-trial-reminders';
const DAY_MS = 86_400_000;

/** Most urgent first: the notice due for a trial ending at `endsAt`, and the milder ones it makes moot. */
function dueNotices(endsAt: Date, now: number): Array<'expired' | '1d' | '3d'> {
  const left = endsAt.getTime() - now;
  if (left <= 0) return ['expired', '1d', '3d'];
  if (left <= DAY_MS) return ['1d', '3d'];
  if (left <= 3 * DAY_MS) return ['3d'];
  return [];
}

/**
 * The hourly sweep: admins of trial organisations hear 3 days and 1 day before the end, and once at the
 * end. Each notice is recorded with the end date it was for, so it goes out once, and an extension
 * (a new end date) arms the reminders again.
 */
export async function sendTrialReminders(deps: Pick<AppDeps, 'db' | 'mail' | 'jobs' | 'config'>, now = Date.now()): Promise<number> {
  // The owner connection finds the organisations due across every tenant; each is then told in its own
  // tenant transaction.
  const due = await deps.db.owner
    .select()
    .from(organizations)
    .where(
      and(
        eq(organizations.isPlatform, false),
        eq(organizations.subscriptionType, 'free_trial'),
        isNull(organizations.deletedAt),
        eq(organizations.organizationStatus, 'Active'),
        isNotNull(organizations.trialEndsAt),
        lte(organizations.trialEndsAt, new Date(now + 3 * DAY_MS)),
      ),
    );
  let sent = 0;
  for (const org of due) {
    const kinds = dueNotices(org.trialEndsAt!, now);
    if (kinds.length === 0) continue;
    const mailIds = await inTenant(deps.db.app, org.id, async (tx) => {
      const inserted = await tx
        .insert(trialNotices)
        .values(kinds.map((kind) => ({ kind, trialEndsAt: org.trialEndsAt! })))
        .onConflictDoNothing()
        .returning({ kind: trialNotices.kind });
      if (!inserted.some((i) => i.kind === kinds[0])) return [];
      const date = org.trialEndsAt!.toISOString().slice(0, 10);
      const url = `${publicUrl(deps.config, org.subDomainName)}/login`;
      if (kinds[0] === 'expired') {
        return tellAdmins(tx, deps, {
          titleKey: 'registration.notifications.expiredTitle',
          bodyKey: 'registration.notifications.expiredBody',
          mailSubjectKey: 'registration.mail.expiredSubject',
          mailBodyKey: 'registration.mail.expiredBody',
          vars: { organization: org.name, date, url },
          link: '/subscriptions',
        });
      }
      const tomorrow = kinds[0] === '1d';
      const days = tomorrow ? 1 : 3;
      return tellAdmins(tx, deps, {
        titleKey: tomorrow ? 'registration.notifications.reminderTomorrowTitle' : 'registration.notifications.reminderTitle',
        bodyKey: 'registration.notifications.reminderBody',
        mailSubjectKey: tomorrow ? 'registration.mail.reminderTomorrowSubject' : 'registration.mail.reminderSubject',
        mailBodyKey: 'registration.mail.reminderBody',
        vars: { organization: org.name, date, url, days },
        link: '/subscriptions',
      });
    });
    if (mailIds.length > 0) sent += 1;
    if (deps.mail.smtpEnabled) for (const id of mailIds) await deps.jobs?.send(MAIL_QUEUE, { organizationId: org.id, id });
  }
  return sent;
}

/** Tells the organisation's open screens that the plan changed. */
export function planChanged(deps: Pick<AppDeps, 'push'>, organizationId: string) {
  deps.push.toOrganization(organizationId, { channel: 'plan', change: 'updated', id: organizationId });
  deps.push.toOrganization(organizationId, { channel: 'subscription_plan', change: 'updated', id: organizationId });
}

import { translate, type Language, type MailerScenarioId } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import type { AfterCommit } from '../../platform/http/route.js';
import { dispatchTemplatedMail, sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { maybeReviewSubject } from './review-registry.js';
import type { RoundRow } from './review-store.js';

export type ReviewDeps = Pick<AppDeps, 'config' | 'mail' | 'jobs' | 'push'>;

/** What a review change leaves for after the commit: the queued mails and the records whose screens must refresh. */
export type ReviewEffects = { mail: QueuedTemplatedMail[]; records: Array<Pick<RoundRow, 'module' | 'recordId'>> };

export const noEffects = (): ReviewEffects => ({ mail: [], records: [] });

type ReviewScenario = Extract<MailerScenarioId, `review_${string}`>;

/** A date in mails: the recipient's language, the record's site's time zone (named, since readers travel). */
export function mailDate(at: Date, language: Language, timeZone: string): string {
  const text = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short', timeZone }).format(at);
  return `${text} (${timeZone})`;
}

/**
 * Mails one user about a round, through the organisation's mail texts, with the in-app notification
 * that links to the record. Only active users are told. `extra` values may depend on the recipient's
 * language (a function), as the module's name and dates do.
 */
export async function mailReview(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  effects: ReviewEffects,
  scenario: ReviewScenario,
  userId: string | null,
  round: RoundRow,
  extra: Record<string, string | ((lang: Language, timeZone: string) => string)> = {},
): Promise<void> {
  if (!userId) return;
  const [user] = await tx
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'Active')));
  if (!user) return;
  const [org] = await tx
    .select({ sub: organizations.subDomainName })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  const [site] = round.siteId ? await tx.select({ timeZone: sites.timeZone }).from(sites).where(eq(sites.id, round.siteId)) : [];
  const language = user.locale as Language;
  const variables: Record<string, string> = {
    module_name: translate(language, `reviews.modules.${round.module}`),
    record_label: round.recordLabel,
    review_link: `${publicUrl(deps.config, org?.sub ?? '')}${round.recordPath}`,
  };
  for (const [name, value] of Object.entries(extra)) {
    variables[name] = typeof value === 'function' ? value(language, site?.timeZone ?? 'UTC') : value;
  }
  effects.mail.push(await sendTemplatedMail(tx, deps, { scenario, to: user.email, language, userId, link: round.recordPath, variables }));
}

/** A user's name for a mail's text. */
export async function nameOf(tx: Tx, userId: string | null): Promise<string> {
  if (!userId) return '';
  const [u] = await tx.select({ fullName: users.fullName }).from(users).where(eq(users.id, userId));
  return u?.fullName ?? '';
}

/** After the commit: hand the mails to delivery, push the notifications, and tell the records' screens. */
export function afterCommitOf(deps: ReviewDeps, organizationId: string, effects: ReviewEffects): AfterCommit {
  return async () => {
    const seen = new Set<string>();
    for (const r of effects.records) {
      const channel = maybeReviewSubject(r.module)?.channel;
      const key = `${r.module}:${r.recordId}`;
      if (!channel || seen.has(key)) continue;
      seen.add(key);
      deps.push.toOrganization(organizationId, { channel, change: 'updated', id: r.recordId });
    }
    if (effects.mail.length > 0) await dispatchTemplatedMail(deps, effects.mail);
  };
}

import type { Language, MailerScenarioId } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { sites } from '../sites/read.js';
import { numberOf, type PermitRow } from './record.js';

export type PermitsDeps = AppDeps;
type PermitScenario = Extract<MailerScenarioId, `permit_${string}`>;

/** Where a permit opens in the web app (notification and mail links). */
export function permitPath(id: string): string {
  return `/permit/${id}/summary`;
}

/** The address of a path at the organisation's own sub-domain. */
export async function organizationUrl(tx: Tx, deps: Pick<AppDeps, 'config'>, path: string): Promise<string> {
  const [org] = await tx
    .select({ sub: organizations.subDomainName })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return `${publicUrl(deps.config, org?.sub ?? '')}${path}`;
}

/** The public status page a printed permit's QR code opens. */
export function statusPath(token: string): string {
  return `/permit-status/${token}`;
}

/** The site's head of safety (told of every permit of the site), if any. */
export async function headOfSafetyOf(tx: Tx, siteId: string | null): Promise<{ id: string | null; name: string; timeZone: string }> {
  if (!siteId) return { id: null, name: '', timeZone: 'UTC' };
  const [s] = await tx
    .select({ id: sites.headOfSafetyId, name: sites.name, timeZone: sites.timeZone })
    .from(sites)
    .where(eq(sites.id, siteId));
  return { id: s?.id ?? null, name: s?.name ?? '', timeZone: s?.timeZone ?? 'UTC' };
}

/** A local time for mails: 'YYYY-MM-DD HH:mm (zone)'. */
export function mailTime(local: string | null, zone: string): string {
  return local ? `${local.slice(0, 16).replace('T', ' ')} (${zone})` : '';
}

/**
 * Mails (and notifies in the app) these members about a permit through the organisation's mail texts,
 * each once, never the one who acted, only active members. `variables` may depend on the language.
 */
export async function tellAbout(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  scenario: PermitScenario,
  userIds: ReadonlyArray<string | null | undefined>,
  actorId: string | null,
  permit: Pick<PermitRow, 'id' | 'prefix' | 'serial'>,
  variables: (lang: Language) => Record<string, string> = () => ({}),
): Promise<QueuedTemplatedMail[]> {
  const out: QueuedTemplatedMail[] = [];
  const path = permitPath(permit.id);
  const link = await organizationUrl(tx, deps, path);
  for (const userId of new Set(userIds.filter((u): u is string => !!u && u !== actorId))) {
    const [user] = await tx
      .select({ email: users.email, locale: users.locale })
      .from(users)
      .where(and(eq(users.id, userId), eq(users.status, 'Active')));
    if (!user) continue;
    const language = user.locale as Language;
    out.push(
      await sendTemplatedMail(tx, deps, {
        scenario,
        to: user.email,
        language,
        userId,
        link: path,
        variables: { permit_id: numberOf(permit), permit_link: link, ...variables(language) },
      }),
    );
  }
  return out;
}

/** A member's name for a mail's text. */
export async function nameOf(tx: Tx, userId: string | null): Promise<string> {
  if (!userId) return '';
  const [u] = await tx.select({ fullName: users.fullName }).from(users).where(eq(users.id, userId));
  return u?.fullName ?? '';
}

import { formatIncidentSerial, translate, type Language, type MailerScenarioId } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { toLocalText } from './checks.js';

/** The app's collaborators the incident services use (the review engine takes them whole). */
export type IncidentsDeps = AppDeps;

/** Where an incident opens in the web app (notification and mail links). */
export function incidentPath(id: string): string {
  return `/incidents/${id}/steps/step1`;
}

/** The address of a path at the organisation's own sub-domain. */
export async function organizationLink(tx: Tx, deps: Pick<AppDeps, 'config'>, path: string): Promise<string> {
  const [org] = await tx
    .select({ sub: organizations.subDomainName })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return `${publicUrl(deps.config, org?.sub ?? '')}${path}`;
}

type Incident = { id: string; serial: number; severity: string | null; occurredLocal: string; targetDate: string | null };

/**
 * Mails (and notifies in the app) one member about an incident through the organisation's mail texts.
 * Only active members are told; `variables` may depend on the recipient's language.
 */
export async function mailMember(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  scenario: Extract<MailerScenarioId, 'incident_reported' | 'investigation_assigned' | 'investigation_overdue' | 'incident_report_sent'>,
  userId: string | null,
  incident: Incident,
  variables: (lang: Language) => Record<string, string>,
  attachmentFileIds: readonly string[] = [],
): Promise<QueuedTemplatedMail | null> {
  if (!userId) return null;
  const [user] = await tx
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'Active')));
  if (!user) return null;
  const language = user.locale as Language;
  const path = incidentPath(incident.id);
  return sendTemplatedMail(tx, deps, {
    scenario,
    to: user.email,
    language,
    userId,
    link: path,
    variables: {
      incident_id: formatIncidentSerial(incident.serial),
      incident_link: await organizationLink(tx, deps, path),
      ...variables(language),
    },
    ...(attachmentFileIds.length > 0 ? { attachmentFileIds } : {}),
  });
}

/** The site's head of safety hears of every new incident, unless they reported it. */
export function tellHeadOfSafety(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  headOfSafetyId: string | null,
  reporterId: string | null,
  siteName: string,
  incident: Incident,
): Promise<QueuedTemplatedMail | null> {
  if (!headOfSafetyId || headOfSafetyId === reporterId) return Promise.resolve(null);
  return mailMember(tx, deps, 'incident_reported', headOfSafetyId, incident, (lang) => ({
    site_name: siteName,
    severity: incident.severity ? translate(lang, `incidents.severities.${incident.severity}`) : translate(lang, 'incidents.ratingPending'),
    incident_date: toLocalText(incident.occurredLocal).replace('T', ' '),
  }));
}

/** New members of the team (and a new lead) hear that they investigate, with the target date. */
export async function tellTeam(
  tx: Tx,
  deps: Pick<AppDeps, 'config' | 'mail'>,
  userIds: readonly string[],
  actorId: string,
  incident: Incident,
): Promise<QueuedTemplatedMail[]> {
  const out: QueuedTemplatedMail[] = [];
  for (const id of userIds) {
    if (id === actorId) continue;
    const m = await mailMember(tx, deps, 'investigation_assigned', id, incident, () => ({ target_date: incident.targetDate ?? '' }));
    if (m) out.push(m);
  }
  return out;
}

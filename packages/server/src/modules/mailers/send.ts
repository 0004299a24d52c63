import { mailerScenario, renderMailerText, type Language, type MailerScenarioId } from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { createNotification } from '../notifications/routes.js';
import { isEmailSubscribed } from '../settings/subscriptions.js';
import { resolveMailerTexts } from './service.js';

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;

function readableDay(day: string, language: Language): string {
  const at = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(at.getTime()) ? day : new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeZone: 'UTC' }).format(at);
}

/** The variables that name the record a message is about, most specific first. */
const RECORD_NAMES = ['action_title', 'record_label', 'audit_title', 'observation_id', 'incident_id', 'permit_id'] as const;

/**
 * The in-app notification's second line: the record it is about, unless the title already names it.
 * (The mail subject was used before, and mostly repeated the title.)
 */
export function notificationBody(title: string, values: Record<string, string | undefined>): string {
  const about = RECORD_NAMES.map((k) => values[k]?.trim()).find((v) => v);
  return about && !title.includes(about) ? about : '';
}

export type TemplatedMail = {
  scenario: MailerScenarioId;
  to: string;
  /** The recipient's language (users.locale); the organisation's texts of that language, else the defaults. */
  language: Language;
  /** Values of the scenario's variables by name, without brackets. [organization_name] is filled here;
   *  [user_name] too when `userId` is given. A variable left out renders as empty text. */
  variables: Partial<Record<string, string>>;
  /** The recipient as a user: gets the in-app notification, and their e-mail subscriptions apply. */
  userId?: string;
  /** Where the in-app notification leads (a path of the app, e.g. /actions/summary/{id}). */
  link?: string;
  /** Stored files attached to the e-mail (e.g. an incident's PDF report). */
  attachmentFileIds?: readonly string[];
};

/** What happened inside the transaction; hand it to `dispatchTemplatedMail` once that has committed. */
export type QueuedTemplatedMail = {
  organizationId: string;
  /** The outbox row, or null when the recipient unsubscribed from this scenario's e-mail. */
  mailId: string | null;
  notificationId: string | null;
  userId: string | null;
};

/**
 * Renders a scenario's mail (the organisation's override or the default, in the recipient's language),
 * writes it to the outbox and, for a user, creates the in-app notification: all in the caller's
 * transaction, so nothing is sent unless its change commits.
 *
 * Contract: after the transaction commits, call `dispatchTemplatedMail(deps, queued)`; it hands the
 * message to the delivery job (when SMTP is configured) and pushes the notification to the user.
 *
 *   const queued = await inTenant(deps.db.app, orgId, async (tx) => {
 *     ...the change...
 *     return sendTemplatedMail(tx, deps, { scenario: 'action_assigned', to, language, variables, userId });
 *   });
 *   await dispatchTemplatedMail(deps, queued);
 */
export async function sendTemplatedMail(tx: Tx, deps: Pick<AppDeps, 'mail'>, m: TemplatedMail): Promise<QueuedTemplatedMail> {
  const scenario = mailerScenario(m.scenario);
  const unknown = Object.keys(m.variables).filter((k) => !scenario.variables.includes(k));
  // A caller's typo would silently send an empty value: fail loudly in development and tests instead.
  if (unknown.length > 0) throw new Error(`sendTemplatedMail(${m.scenario}): unknown variables ${unknown.join(', ')}`);

  const orgRows = await tx.execute<{ id: string }>(sql`select app_current_org() as id`);
  const organizationId = orgRows.rows[0]?.id;
  if (!organizationId) throw new Error('sendTemplatedMail needs a tenant transaction (inTenant)');
  const [org] = await tx.select({ name: organizations.name }).from(organizations).where(eq(organizations.id, organizationId));

  // The recipient as a user: the one named, else the organisation's user with that address (if any).
  const [recipient] = m.userId
    ? await tx.select({ id: users.id, fullName: users.fullName }).from(users).where(eq(users.id, m.userId))
    : await tx
        .select({ id: users.id, fullName: users.fullName })
        .from(users)
        .where(sql`lower(${users.email}) = ${m.to.trim().toLowerCase()}`);
  if (m.userId && !recipient) throw new Error(`sendTemplatedMail(${m.scenario}): no user ${m.userId} in this organisation`);

  const values: Record<string, string | undefined> = Object.fromEntries(scenario.variables.map((v) => [v, '']));
  values['organization_name'] = org?.name ?? '';
  if (m.userId && recipient) values['user_name'] = recipient.fullName;
  Object.assign(values, m.variables);
  // A calendar day ('2026-12-02') reads as the recipient's language writes dates (issue 15), in mail and in the app.
  for (const [name, value] of Object.entries(values)) if (value && ISO_DAY.test(value)) values[name] = readableDay(value, m.language);

  const texts = await resolveMailerTexts(tx, m.scenario, m.language);
  const subject = renderMailerText(texts.subject, values)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const body = renderMailerText(texts.body, values);
  const footer = renderMailerText(texts.footer, values).trim();

  let mailId: string | null = null;
  if (!recipient || (await isEmailSubscribed(tx, recipient.id, m.scenario))) {
    mailId = await deps.mail.enqueue(tx, {
      to: m.to,
      subject,
      body: footer ? `${body}\n\n-- \n${footer}` : body,
      ...(m.attachmentFileIds?.length ? { attachmentFileIds: m.attachmentFileIds } : {}),
    });
  }
  let notificationId: string | null = null;
  if (m.userId) {
    const title = renderMailerText(texts.in_app, values);
    notificationId = await createNotification(tx, {
      userId: m.userId,
      title,
      body: notificationBody(title, values),
      ...(m.link ? { link: m.link } : {}),
    });
  }
  return { organizationId, mailId, notificationId, userId: m.userId ?? null };
}

/**
 * After commit: queue the delivery job for each message (mail.enqueue only writes the outbox row) and
 * push the new notifications. Without SMTP the message stays in the outbox as "kept".
 */
export async function dispatchTemplatedMail(
  deps: Pick<AppDeps, 'mail' | 'jobs' | 'push'>,
  queued: QueuedTemplatedMail | readonly QueuedTemplatedMail[],
): Promise<void> {
  for (const q of [queued].flat()) {
    if (q.mailId && deps.mail.smtpEnabled && deps.jobs)
      await deps.jobs.send(MAIL_QUEUE, { organizationId: q.organizationId, id: q.mailId });
    if (q.notificationId && q.userId) deps.push.toUser(q.userId, { channel: 'notification', change: 'created', id: q.notificationId });
  }
}

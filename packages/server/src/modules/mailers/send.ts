import { mailerScenario, renderMailerText, type Language, type MailerScenarioId, type MailerTexts } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { mailOutbox, notifications, organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { MAIL_QUEUE } from '../../platform/mail/mail.js';
import { emailSubscriptions } from '../settings/read.js';
import { mailTemplates } from './tables.js';

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

  // One read: the organisation, the recipient as a user (the one named, else the organisation's user with
  // that address, if any), the organisation's texts of this scenario and language, and the recipient's
  // choice for its e-mail. Each is at most one row (primary keys and users_email_unique).
  const who = m.userId ? sql`id = ${m.userId}` : sql`lower(email) = ${m.to.trim().toLowerCase()}`;
  const read = await tx.execute<{
    organization_id: string | null;
    organization_name: string | null;
    user_id: string | null;
    full_name: string | null;
    subject: string | null;
    in_app: string | null;
    body: string | null;
    footer: string | null;
    email_enabled: boolean | null;
  }>(sql`select app_current_org() as organization_id,
      (select name from ${organizations} where id = app_current_org()) as organization_name,
      u.id as user_id, u.full_name, t.subject, t.in_app, t.body, t.footer, s.email_enabled
    from (select 1) one
    left join lateral (select id, full_name from ${users} where ${who} limit 1) u on true
    left join ${mailTemplates} t on t.scenario_id = ${m.scenario} and t.language = ${m.language}
    left join ${emailSubscriptions} s on s.user_id = u.id and s.scenario_id = ${m.scenario}`);
  const found = read.rows[0]!;
  const organizationId = found.organization_id;
  if (!organizationId) throw new Error('sendTemplatedMail needs a tenant transaction (inTenant)');
  const recipient = found.user_id ? { id: found.user_id, fullName: found.full_name ?? '' } : undefined;
  if (m.userId && !recipient) throw new Error(`sendTemplatedMail(${m.scenario}): no user ${m.userId} in this organisation`);

  const values: Record<string, string | undefined> = Object.fromEntries(scenario.variables.map((v) => [v, '']));
  values['organization_name'] = found.organization_name ?? '';
  if (m.userId && recipient) values['user_name'] = recipient.fullName;
  Object.assign(values, m.variables);
  // A calendar day ('2026-12-02') reads as the recipient's language writes dates (issue 15), in mail and in the app.
  for (const [name, value] of Object.entries(values)) if (value && ISO_DAY.test(value)) values[name] = readableDay(value, m.language);

  // The organisation's texts of this scenario and language, else the defaults (as resolveMailerTexts).
  const texts: MailerTexts =
    found.subject !== null
      ? { subject: found.subject, in_app: found.in_app!, body: found.body!, footer: found.footer! }
      : scenario.defaults[m.language];
  const subject = renderMailerText(texts.subject, values)
    .replace(/[\r\n]+/g, ' ')
    .trim();
  const body = renderMailerText(texts.body, values);
  const footer = renderMailerText(texts.footer, values).trim();

  // One write: the outbox row unless the recipient turned this e-mail off (a mandatory one always goes),
  // and the named user's in-app notification (which always arrives).
  const writes = [];
  const mails = !recipient || scenario.mandatory || (found.email_enabled ?? true);
  if (mails) {
    const row = deps.mail.outboxRow({
      to: m.to,
      subject,
      body: footer ? `${body}\n\n-- \n${footer}` : body,
      ...(m.attachmentFileIds?.length ? { attachmentFileIds: m.attachmentFileIds } : {}),
    });
    writes.push(
      sql`mail as (insert into ${mailOutbox} (to_address, subject, body, status, attachment_file_ids)
        values (${row.toAddress}, ${row.subject}, ${row.body}, ${row.status}, ${sql.param(row.attachmentFileIds)}::uuid[]) returning id)`,
    );
  }
  if (m.userId) {
    const title = renderMailerText(texts.in_app, values);
    writes.push(
      sql`notice as (insert into ${notifications} (user_id, title, body, link)
        values (${m.userId}::uuid, ${title}, ${notificationBody(title, values)}, ${m.link || null}) returning id)`,
    );
  }
  if (writes.length === 0) return { organizationId, mailId: null, notificationId: null, userId: m.userId ?? null };
  const written = await tx.execute<{ mail_id: string | null; notification_id: string | null }>(
    sql`with ${sql.join(writes, sql`, `)} select ${mails ? sql`(select id from mail)` : sql`null`}::uuid as mail_id,
      ${m.userId ? sql`(select id from notice)` : sql`null`}::uuid as notification_id`,
  );
  const mailId = written.rows[0]!.mail_id;
  const notificationId = written.rows[0]!.notification_id;
  return { organizationId, mailId, notificationId, userId: m.userId ?? null };
}

/**
 * After commit: queue the delivery job for each message (sendTemplatedMail only writes the outbox row) and
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

import { actionPath, type ActionSource, type Language, type MailerScenarioId } from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';

export type NotifyDeps = Pick<AppDeps, 'config' | 'mail'>;

/** What every action mail names. */
export type MailedAction = { id: string; serial: number; description: string; dueDate: string; sourceType: ActionSource };

/** The mail subject's short name of an action: its serial and the start of its description. */
export function actionTitle(a: Pick<MailedAction, 'serial' | 'description'>): string {
  const first = a.description.split(/\r?\n/)[0]!.trim();
  const short = first.length > 80 ? `${first.slice(0, 79).trimEnd()}…` : first;
  return `#${a.serial} ${short}`;
}

/**
 * Mails (and notifies in the app) one user about an action, through the organisation's mail texts.
 * Only active users are told; returns null for anybody else.
 */
export async function mailAboutAction(
  tx: Tx,
  deps: NotifyDeps,
  scenario: Extract<MailerScenarioId, `action_${string}`>,
  userId: string | null,
  action: MailedAction,
  /** Values of the mail's variables; a function is given the recipient's language. */
  extra: Partial<Record<'assigned_by' | 'days_overdue' | 'completed_by', string | ((lang: Language) => string)>> = {},
): Promise<QueuedTemplatedMail | null> {
  if (!userId) return null;
  const [user] = await tx
    .select({ email: users.email, locale: users.locale })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.status, 'Active')));
  if (!user) return null;
  const [org] = await tx
    .select({ sub: organizations.subDomainName })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  const path = actionPath(action.sourceType, action.id);
  const language = user.locale as Language;
  const variables: Record<string, string> = {
    action_title: actionTitle(action),
    action_link: `${publicUrl(deps.config, org?.sub ?? '')}${path}`,
    ...(scenario === 'action_completed' ? {} : { due_date: action.dueDate }),
  };
  for (const [name, value] of Object.entries(extra)) variables[name] = typeof value === 'function' ? value(language) : value;
  return sendTemplatedMail(tx, deps, { scenario, to: user.email, language, userId, link: path, variables });
}

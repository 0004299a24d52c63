import {
  MAILER_MODULES,
  MAILER_SCENARIO_IDS,
  mailerScenario,
  type EmailSubscriptionItem,
  type EmailSubscriptionsInput,
  type MailerScenarioId,
} from '@bulwark/domain';
import { and, eq, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { emailSubscriptions } from './tables.js';

/**
 * E-mail subscriptions: every user receives every scenario's e-mail unless they turned it off; a
 * mandatory scenario (invitation, one-time code) is always sent. In-app notifications always arrive.
 */
export async function isEmailSubscribed(tx: Tx, userId: string, scenario: MailerScenarioId): Promise<boolean> {
  if (mailerScenario(scenario).mandatory) return true;
  const [row] = await tx
    .select({ enabled: emailSubscriptions.emailEnabled })
    .from(emailSubscriptions)
    .where(and(eq(emailSubscriptions.userId, userId), eq(emailSubscriptions.scenarioId, scenario)));
  return row?.enabled ?? true;
}

export async function listEmailSubscriptions(tx: Tx, userId: string): Promise<EmailSubscriptionItem[]> {
  const rows = await tx.select().from(emailSubscriptions).where(eq(emailSubscriptions.userId, userId));
  const chosen = new Map(rows.map((r) => [r.scenarioId, r.emailEnabled]));
  return MAILER_MODULES.flatMap((m) =>
    m.scenarios.map((id) => {
      const mandatory = mailerScenario(id).mandatory;
      return { scenario_id: id, module: m.key, mandatory, email: mandatory ? true : (chosen.get(id) ?? true) };
    }),
  );
}

/** Saves the user's choices; mandatory scenarios cannot be turned off and are not stored. */
export async function saveEmailSubscriptions(tx: Tx, userId: string, input: EmailSubscriptionsInput): Promise<void> {
  const wanted = new Map(input.subscriptions.map((s) => [s.scenario_id, s.email]));
  for (const [scenarioId, email] of wanted) {
    if (!MAILER_SCENARIO_IDS.includes(scenarioId) || mailerScenario(scenarioId).mandatory) continue;
    await tx
      .insert(emailSubscriptions)
      .values({ userId, scenarioId, emailEnabled: email })
      .onConflictDoUpdate({
        target: [emailSubscriptions.organizationId, emailSubscriptions.userId, emailSubscriptions.scenarioId],
        set: { emailEnabled: email, updatedAt: sql`now()` },
      });
  }
}

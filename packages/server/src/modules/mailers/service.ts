import {
  LANGUAGES,
  MAILER_MODULES,
  checkMailerTemplate,
  mailerModuleById,
  mailerScenario,
  translate,
  type Language,
  type MailerModule,
  type MailerScenarioDetail,
  type MailerScenarioId,
  type MailerTemplateInput,
  type MailerTexts,
} from '@bulwark/domain';
import { and, eq, inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { recordAudit } from '../../platform/audit.js';
import { AppError } from '../../platform/errors.js';
import { mailTemplates } from './tables.js';

type Override = typeof mailTemplates.$inferSelect;

const textsOf = (row: Override): MailerTexts => ({ subject: row.subject, in_app: row.inApp, body: row.body, footer: row.footer });

/** The texts a scenario sends in a language: the organisation's own, else the default. */
export async function resolveMailerTexts(tx: Tx, scenario: MailerScenarioId, language: Language): Promise<MailerTexts> {
  const [row] = await tx
    .select()
    .from(mailTemplates)
    .where(and(eq(mailTemplates.scenarioId, scenario), eq(mailTemplates.language, language)));
  return row ? textsOf(row) : mailerScenario(scenario).defaults[language];
}

/** The module of a URL, refused as "not found" when the id names none or the scenario is not in it. */
export function requireModule(moduleId: number, scenarioId?: string): MailerModule {
  const module = mailerModuleById(moduleId);
  if (!module) throw new AppError('not_found');
  if (scenarioId !== undefined && !(module.scenarios as readonly string[]).includes(scenarioId)) throw new AppError('not_found');
  return module;
}

async function overridesOf(tx: Tx, scenarios: readonly string[]): Promise<Override[]> {
  if (scenarios.length === 0) return [];
  return tx
    .select()
    .from(mailTemplates)
    .where(inArray(mailTemplates.scenarioId, [...scenarios]));
}

export async function listMailerModules(tx: Tx) {
  const rows = await overridesOf(
    tx,
    MAILER_MODULES.flatMap((m) => [...m.scenarios]),
  );
  const customized = new Set(rows.map((r) => r.scenarioId));
  return {
    modules: MAILER_MODULES.map((m) => ({
      id: m.id,
      key: m.key,
      scenario_count: m.scenarios.length,
      customized_count: m.scenarios.filter((s) => customized.has(s)).length,
    })),
  };
}

function summary(id: MailerScenarioId, rows: Override[]) {
  const s = mailerScenario(id);
  const languages = new Set(rows.filter((r) => r.scenarioId === id).map((r) => r.language));
  return {
    id,
    mandatory: s.mandatory,
    variables: [...s.variables],
    required: [...s.required],
    customized_languages: LANGUAGES.filter((l) => languages.has(l)),
  };
}

export async function listMailerScenarios(tx: Tx, module: MailerModule) {
  const rows = await overridesOf(tx, module.scenarios);
  return { module: { id: module.id, key: module.key }, scenarios: module.scenarios.map((id) => summary(id, rows)) };
}

export async function mailerScenarioDetail(tx: Tx, module: MailerModule, id: MailerScenarioId): Promise<MailerScenarioDetail> {
  const rows = await overridesOf(tx, [id]);
  const s = mailerScenario(id);
  const templates = Object.fromEntries(
    LANGUAGES.map((lang) => {
      const row = rows.find((r) => r.language === lang);
      const defaults = s.defaults[lang];
      return [
        lang,
        { ...(row ? textsOf(row) : defaults), customized: row !== undefined, updated_at: row?.updatedAt.toISOString() ?? null, defaults },
      ];
    }),
  ) as MailerScenarioDetail['templates'];
  return { ...summary(id, rows), module: { id: module.id, key: module.key }, templates };
}

/**
 * Saves an organisation's texts for one scenario and language. The variable rules of spec 001 §5 are
 * checked here as well as in the browser: a field that uses an unknown variable or a body that lost a
 * required one is refused with a message naming the variable, in the request's language.
 */
export async function saveMailerTemplate(tx: Tx, actorUserId: string, id: MailerScenarioId, input: MailerTemplateInput, lang: Language) {
  const issues = checkMailerTemplate(mailerScenario(id), input);
  if (issues.length > 0) {
    // Already translated with the variable's name: the error handler passes a text that is no key through as is.
    const fields = Object.fromEntries(issues.map((i) => [i.field, translate(lang, i.key, i.vars)]));
    throw new AppError('validation_failed', { fields });
  }
  const values = { subject: input.subject, inApp: input.in_app, body: input.body, footer: input.footer, updatedBy: actorUserId };
  await tx
    .insert(mailTemplates)
    .values({ scenarioId: id, language: input.language, ...values })
    .onConflictDoUpdate({
      target: [mailTemplates.organizationId, mailTemplates.scenarioId, mailTemplates.language],
      set: { ...values, updatedAt: new Date() },
    });
  await recordAudit(tx, {
    actorUserId,
    action: 'mail_template_saved',
    entity: 'MailTemplate',
    entityId: `${id}/${input.language}`,
    changes: { ...input },
  });
}

export async function resetMailerTemplate(tx: Tx, actorUserId: string, id: MailerScenarioId, language: Language) {
  const removed = await tx
    .delete(mailTemplates)
    .where(and(eq(mailTemplates.scenarioId, id), eq(mailTemplates.language, language)))
    .returning({ id: mailTemplates.id });
  if (removed.length > 0) {
    await recordAudit(tx, { actorUserId, action: 'mail_template_reset', entity: 'MailTemplate', entityId: `${id}/${language}` });
  }
}

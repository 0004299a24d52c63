import { z } from 'zod';
import { paginationSchema, pageQuery } from '../api/shared.js';
import { LANGUAGES } from '../constants.js';

/** Response shapes of the mailers calls, shared by the server (serialisation) and the web (types). */
export const mailerModuleSummarySchema = z.object({
  id: z.number(),
  key: z.string(),
  scenario_count: z.number(),
  customized_count: z.number(),
});
export const mailerModulesResponse = z.object({ modules: z.array(mailerModuleSummarySchema) });

export const mailerScenarioSummarySchema = z.object({
  id: z.string(),
  mandatory: z.boolean(),
  variables: z.array(z.string()),
  required: z.array(z.string()),
  customized_languages: z.array(z.enum(LANGUAGES)),
});
export const mailerScenariosResponse = z.object({
  module: z.object({ id: z.number(), key: z.string() }),
  scenarios: z.array(mailerScenarioSummarySchema),
});

export const mailerTextsSchema = z.object({ subject: z.string(), in_app: z.string(), body: z.string(), footer: z.string() });
export const mailerLanguageTemplateSchema = mailerTextsSchema.extend({
  customized: z.boolean(),
  updated_at: z.string().nullable(),
  defaults: mailerTextsSchema,
});
export const mailerScenarioDetailSchema = mailerScenarioSummarySchema.extend({
  module: z.object({ id: z.number(), key: z.string() }),
  templates: z.object({
    en: mailerLanguageTemplateSchema,
    es: mailerLanguageTemplateSchema,
    tr: mailerLanguageTemplateSchema,
    zh: mailerLanguageTemplateSchema,
  }),
});
export type MailerModuleSummary = z.infer<typeof mailerModuleSummarySchema>;
export type MailerScenarioSummary = z.infer<typeof mailerScenarioSummarySchema>;
export type MailerScenarioDetail = z.infer<typeof mailerScenarioDetailSchema>;
export type MailerTexts = z.infer<typeof mailerTextsSchema>;

export const MAIL_OUTBOX_STATUSES = ['pending', 'sent', 'failed', 'kept'] as const;
export const mailOutboxItemSchema = z.object({
  id: z.string(),
  to: z.string(),
  subject: z.string(),
  body: z.string(),
  status: z.enum(MAIL_OUTBOX_STATUSES),
  attempts: z.number(),
  last_error: z.string().nullable(),
  created_at: z.string(),
  sent_at: z.string().nullable(),
});
export type MailOutboxItem = z.infer<typeof mailOutboxItemSchema>;

/** GET /api/mail_outbox: a page of the outbox and whether mail leaves the server at all. */
export const mailOutboxResponse = z.object({
  mails: z.array(mailOutboxItemSchema),
  pagination: paginationSchema,
  smtp_enabled: z.boolean(),
});
export type MailOutboxResponse = z.infer<typeof mailOutboxResponse>;
export const mailOutboxQuery = pageQuery;

// Paths keep the name :id for the organisation: find-my-way needs one parameter name per position,
// and /api/organizations/:id is the organisation route of the platform core.
export const mailerOrganizationParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
export const mailerModuleParams = mailerOrganizationParams.extend({
  moduleId: z.coerce.number({ message: 'validation.invalid' }).int().positive(),
});
export const mailerScenarioParams = mailerModuleParams.extend({ scenarioId: z.string().max(60) });
export type MailerScenarioParams = z.output<typeof mailerScenarioParams>;

/** DELETE .../scenarios/{scenarioId}?language=: the language whose texts go back to the default. */
export const mailerResetQuery = z.object({ language: z.enum(LANGUAGES, { message: 'validation.invalid' }) });

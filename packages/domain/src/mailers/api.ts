import { z } from 'zod';
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

import { z } from 'zod';
import { LANGUAGES } from '../constants.js';
import type { MailerScenario } from './catalogue.js';

/** The four texts of a mail template that an admin edits (spec 001 §3 "Mail template"). */
export const MAILER_TEXT_FIELDS = ['subject', 'in_app', 'body', 'footer'] as const;
export type MailerTextField = (typeof MAILER_TEXT_FIELDS)[number];

export const MAILER_LIMITS = { subject: 200, in_app: 300, body: 10_000, footer: 2_000 } as const;

/** `[name]`: a bracketed variable. Anything else in brackets that looks like a name is checked too. */
const VARIABLE = /\[([A-Za-z0-9_]+)\]/g;

export function mailerVariablesIn(text: string): string[] {
  return [...text.matchAll(VARIABLE)].map((m) => m[1] ?? '');
}

/** Body of PUT .../scenarios/{scenarioId}: one language's texts. */
export const mailerTemplateSchema = z.object({
  language: z.enum(LANGUAGES, { message: 'validation.invalid' }),
  subject: z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(MAILER_LIMITS.subject, { message: 'validation.tooLong' })
    .refine((s) => !/[\r\n]/.test(s), { message: 'mailers.validation.oneLine' }),
  in_app: z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(MAILER_LIMITS.in_app, { message: 'validation.tooLong' }),
  body: z
    .string({ message: 'validation.required' })
    .trim()
    .min(1, { message: 'validation.required' })
    .max(MAILER_LIMITS.body, { message: 'validation.tooLong' }),
  footer: z.string().trim().max(MAILER_LIMITS.footer, { message: 'validation.tooLong' }).default(''),
});
export type MailerTemplateInput = z.infer<typeof mailerTemplateSchema>;

/** A refusal of one field, with the values its message needs (`{{variable}}`). */
export type MailerTemplateIssue = { field: MailerTextField; key: string; vars: Record<string, string> };

/**
 * The variable rules of spec 001 §5: every text may use only the scenario's variables, and the body
 * must keep each required one. Returns the first issue of each field, in field order.
 */
export function checkMailerTemplate(
  scenario: Pick<MailerScenario, 'variables' | 'required'>,
  texts: Record<MailerTextField, string>,
): MailerTemplateIssue[] {
  const issues: MailerTemplateIssue[] = [];
  for (const field of MAILER_TEXT_FIELDS) {
    const unknown = mailerVariablesIn(texts[field]).find((v) => !scenario.variables.includes(v));
    if (unknown !== undefined) {
      issues.push({ field, key: 'mailers.validation.unknownVariable', vars: { variable: `[${unknown}]` } });
      continue;
    }
    if (field === 'body') {
      const present = new Set(mailerVariablesIn(texts.body));
      const missing = scenario.required.filter((v) => !present.has(v));
      if (missing.length > 0) {
        issues.push({ field, key: 'mailers.validation.missingVariable', vars: { variable: missing.map((v) => `[${v}]`).join(', ') } });
      }
    }
  }
  return issues;
}

/** Fills each `[name]` that `values` names (undefined gives empty text); other brackets stay as written. */
export function renderMailerText(text: string, values: Record<string, string | undefined>): string {
  return text.replace(VARIABLE, (whole, name: string) => (Object.hasOwn(values, name) ? (values[name] ?? '') : whole));
}

/** Inserts `[name]` into a text at the cursor (the editor's variable chips), returning text and new cursor. */
export function insertMailerVariable(text: string, start: number, end: number, variable: string): { text: string; cursor: number } {
  const token = `[${variable}]`;
  const from = Math.max(0, Math.min(start, text.length));
  const to = Math.max(from, Math.min(end, text.length));
  return { text: text.slice(0, from) + token + text.slice(to), cursor: from + token.length };
}

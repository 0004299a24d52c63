import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../constants.js';
import { catalogs, translate } from '../i18n/index.js';
import {
  MAILER_MODULES,
  MAILER_SAMPLE_VALUES,
  MAILER_SCENARIO_IDS,
  mailerScenario,
  isMailerScenarioId,
  mailerModuleById,
} from './catalogue.js';
import { checkMailerTemplate, insertMailerVariable, mailerTemplateSchema, mailerVariablesIn, renderMailerText } from './template.js';

describe('mailer catalogue', () => {
  it('puts every scenario in exactly one module, with unique module ids', () => {
    const listed = MAILER_MODULES.flatMap((m) => [...m.scenarios]);
    expect([...listed].sort()).toEqual([...MAILER_SCENARIO_IDS].sort());
    expect(new Set(MAILER_MODULES.map((m) => m.id)).size).toBe(MAILER_MODULES.length);
    expect(mailerModuleById(3)?.key).toBe('actions');
    expect(mailerModuleById(99)).toBeUndefined();
    expect(isMailerScenarioId('action_overdue')).toBe(true);
    expect(isMailerScenarioId('toString')).toBe(false);
  });

  it.each(MAILER_SCENARIO_IDS)('%s: every default text passes its own rules in every language', (id) => {
    const s = mailerScenario(id);
    for (const v of s.required) expect(s.variables).toContain(v);
    for (const lang of LANGUAGES) {
      const d = s.defaults[lang];
      expect(checkMailerTemplate(s, d), `${id}/${lang}`).toEqual([]);
      expect(mailerTemplateSchema.safeParse({ language: lang, ...d }).success, `${id}/${lang}`).toBe(true);
      // The same variables in every language as in English (a translation may not drop one).
      expect(new Set(mailerVariablesIn(d.body))).toEqual(new Set(mailerVariablesIn(s.defaults.en.body)));
    }
  });

  it.each(MAILER_SCENARIO_IDS)('%s: has a sample value for each variable and a name in four languages', (id) => {
    for (const v of mailerScenario(id).variables) expect(MAILER_SAMPLE_VALUES[v], v).toBeTruthy();
    for (const lang of LANGUAGES) expect(translate(lang, `mailers.scenarios.${id}`)).not.toBe(`mailers.scenarios.${id}`);
    expect(catalogs.es.mailers.scenarios[id]).not.toBe(catalogs.en.mailers.scenarios[id]);
  });
});

describe('variable rules (spec 001 §5: bracketed variables must not be removed)', () => {
  const s = mailerScenario('action_assigned');
  const ok = { ...s.defaults.en };

  it('accepts the defaults', () => {
    expect(checkMailerTemplate(s, ok)).toEqual([]);
  });

  it('refuses a body that removed a required variable, naming it', () => {
    const issues = checkMailerTemplate(s, { ...ok, body: 'Hello [user_name], see [action_link].' });
    expect(issues).toEqual([{ field: 'body', key: 'mailers.validation.missingVariable', vars: { variable: '[due_date]' } }]);
    const both = checkMailerTemplate(s, { ...ok, body: 'Hello' });
    expect(both[0]?.vars['variable']).toBe('[due_date], [action_link]');
  });

  it('allows a required variable to be dropped from subject, in-app text and footer', () => {
    expect(checkMailerTemplate(s, { ...ok, subject: 'Action', in_app: 'New action', footer: '' })).toEqual([]);
  });

  it('refuses an unknown variable in any field, naming it', () => {
    for (const field of ['subject', 'in_app', 'body', 'footer'] as const) {
      const issues = checkMailerTemplate(s, { ...ok, [field]: `${ok[field]} [permit_id]` });
      expect(issues).toEqual([{ field, key: 'mailers.validation.unknownVariable', vars: { variable: '[permit_id]' } }]);
    }
    // Case matters: [Due_Date] is not [due_date].
    expect(checkMailerTemplate(s, { ...ok, subject: '[Due_Date]' })[0]?.field).toBe('subject');
  });

  it('ignores brackets that are not variable names', () => {
    expect(checkMailerTemplate(s, { ...ok, footer: 'See [1 of 2] or [ ] or [a-b]' })).toEqual([]);
  });

  it('has messages with the variable in four languages', () => {
    for (const lang of LANGUAGES) {
      expect(translate(lang, 'mailers.validation.missingVariable', { variable: '[due_date]' })).toContain('[due_date]');
      expect(translate(lang, 'mailers.validation.unknownVariable', { variable: '[x]' })).toContain('[x]');
    }
  });

  it('schema: subject is one line, fields required, limits', () => {
    expect(mailerTemplateSchema.safeParse({ ...ok, language: 'en', subject: 'a\nb' }).error?.issues[0]?.message).toBe(
      'mailers.validation.oneLine',
    );
    expect(mailerTemplateSchema.safeParse({ ...ok, language: 'en', body: '   ' }).error?.issues[0]?.message).toBe('validation.required');
    expect(mailerTemplateSchema.safeParse({ ...ok, language: 'fr' }).success).toBe(false);
    expect(mailerTemplateSchema.safeParse({ ...ok, language: 'en', in_app: 'x'.repeat(301) }).error?.issues[0]?.message).toBe(
      'validation.tooLong',
    );
  });
});

describe('rendering', () => {
  it('fills every occurrence, leaves names it was not given', () => {
    expect(renderMailerText('[a] and [a], [b] [c]', { a: 'X', b: undefined })).toBe('X and X,  [c]');
  });

  it('does not re-expand brackets inside values', () => {
    expect(renderMailerText('[a] [b]', { a: '[b]', b: 'B' })).toBe('[b] B');
  });

  it('inserts a variable at the cursor, replacing a selection', () => {
    expect(insertMailerVariable('Due: .', 5, 5, 'due_date')).toEqual({ text: 'Due: [due_date].', cursor: 15 });
    expect(insertMailerVariable('Due: XX.', 5, 7, 'due_date')).toEqual({ text: 'Due: [due_date].', cursor: 15 });
    expect(insertMailerVariable('ab', 99, 99, 'x')).toEqual({ text: 'ab[x]', cursor: 5 });
  });
});

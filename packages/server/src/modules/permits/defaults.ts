import { translate, type Language, type QuestionBinding, type QuestionType, type SectionKind } from '@bulwark/domain';
import { randomUUID } from 'node:crypto';
import type { Tx } from '../../platform/db/db.js';
import { permitTemplateQuestions, permitTemplateSections } from './tables.js';

type DefaultQuestion = {
  key: string;
  type: QuestionType;
  required: boolean;
  binding?: QuestionBinding;
  options?: Array<'yes' | 'no' | 'na'>;
  /** Shown only when the question of this key is answered "yes". */
  showWhenYes?: string;
};

/**
 * The four default sections of every new template (spec 001 §3): Location of Work (site, division,
 * department and unit from the sites master), Duration of Work (start and end date and time), a Night
 * Work Checklist whose questions show only when the work runs at night, and the Closure Checklist.
 * Texts are written in the language of whoever creates the template; they are the template's own
 * data from then on.
 */
const DEFAULTS: Array<{ kind: Exclude<SectionKind, 'custom'>; questions: DefaultQuestion[] }> = [
  {
    kind: 'location',
    questions: [
      { key: 'site', type: 'site', binding: 'site', required: true },
      { key: 'division', type: 'division', binding: 'division', required: false },
      { key: 'department', type: 'department', binding: 'department', required: false },
      { key: 'unit', type: 'unit', binding: 'unit', required: false },
    ],
  },
  {
    kind: 'duration',
    questions: [
      { key: 'start_date', type: 'date_only', binding: 'start_date', required: true },
      { key: 'start_time', type: 'time', binding: 'start_time', required: true },
      { key: 'end_date', type: 'date_only', binding: 'end_date', required: true },
      { key: 'end_time', type: 'time', binding: 'end_time', required: true },
    ],
  },
  {
    kind: 'night_work',
    questions: [
      { key: 'nightWork', type: 'radio_button', required: true, options: ['yes', 'no'] },
      { key: 'lighting', type: 'radio_button', required: true, options: ['yes', 'no'], showWhenYes: 'nightWork' },
      { key: 'buddy', type: 'radio_button', required: true, options: ['yes', 'no'], showWhenYes: 'nightWork' },
      { key: 'emergencyContact', type: 'radio_button', required: true, options: ['yes', 'no'], showWhenYes: 'nightWork' },
    ],
  },
  {
    kind: 'closure',
    questions: [
      { key: 'areaClean', type: 'radio_button', required: true, options: ['yes', 'no'] },
      { key: 'workersOut', type: 'radio_button', required: true, options: ['yes', 'no'] },
      { key: 'isolations', type: 'radio_button', required: true, options: ['yes', 'no', 'na'] },
      { key: 'remarks', type: 'text_area', required: false },
    ],
  },
];

/** Writes the default sections and their questions into a new template. */
export async function writeDefaultSections(tx: Tx, templateId: string, lang: Language): Promise<void> {
  const t = (key: string) => translate(lang, `permits.defaults.${key}`);
  for (const [i, section] of DEFAULTS.entries()) {
    const [row] = await tx
      .insert(permitTemplateSections)
      .values({ templateId, name: t(`sections.${section.kind}`), kind: section.kind, position: i + 1 })
      .returning({ id: permitTemplateSections.id });
    const ids = new Map(section.questions.map((q) => [q.key, randomUUID()]));
    const yes = t('options.yes');
    for (const [j, q] of section.questions.entries()) {
      await tx.insert(permitTemplateQuestions).values({
        id: ids.get(q.key)!,
        templateId,
        sectionId: row!.id,
        position: j + 1,
        type: q.type,
        label: t(`questions.${q.key}`),
        required: q.required,
        options: (q.options ?? []).map((o) => t(`options.${o}`)),
        binding: q.binding ?? null,
        conditionQuestionId: q.showWhenYes ? ids.get(q.showWhenYes)! : null,
        conditionAnswer: q.showWhenYes ? yes : null,
      });
    }
  }
}

import {
  visibleQuestionIds,
  type FormPhase,
  type PermitForm,
  type PermitQuestion,
  type PermitSection,
  type SiteLevel,
} from '@bulwark/domain';
import { Fieldset, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { Upload } from './answer-files.js';
import { QuestionField, type Masters } from './question-field.js';
import {
  addHours,
  answersToSend,
  areaOptions,
  joinLocal,
  pickArea,
  splitLocal,
  type FormAnswer,
  type RequestState,
} from './request-model.js';

type Props = {
  sections: readonly PermitSection[];
  phase: FormPhase;
  state: RequestState;
  onChange: (update: (s: RequestState) => RequestState) => void;
  errors: Record<string, string>;
  sites: PermitForm['sites'];
  masters: Masters | null;
  upload: Upload | null;
  /** Hours from the start to the default end: the end is filled in when the start is first given. */
  defaultHours: number;
  /** The closing answers may depend on the request's answers (a condition on an earlier radio question). */
  otherAnswers?: Record<string, string | string[]>;
};

const LEVEL_OF: Partial<Record<NonNullable<PermitQuestion['binding']>, SiteLevel>> = {
  division: 'division',
  department: 'department',
  unit: 'unit',
};

const TIME_ORDER: readonly string[] = ['start_date', 'start_time', 'end_date', 'end_time', ''];

/**
 * The permit form rendered from its template, section by section, as the requester fills it: the
 * location and time questions set the permit's own site, area, start and end; the others are answers;
 * a conditional question appears when its radio question has the answer it waits for. The closing
 * phase shows the closure checklist alone.
 */
export function PermitFormSections({
  sections,
  phase,
  state,
  onChange,
  errors,
  sites,
  masters,
  upload,
  defaultHours,
  otherAnswers,
}: Props) {
  const { t } = useTranslation();
  const shown = visibleQuestionIds(sections, { ...(otherAnswers ?? {}), ...answersToSend(state.answers) });
  const site = sites.find((s) => s.id === state.site_id);
  const setAnswer = (id: string) => (value: FormAnswer | ((old: FormAnswer | undefined) => FormAnswer)) =>
    onChange((s) => ({ ...s, answers: { ...s.answers, [id]: typeof value === 'function' ? value(s.answers[id]) : value } }));

  function setTime(field: 'start_date' | 'start_time' | 'end_date' | 'end_time', value: string) {
    onChange((s) => {
      const next = { ...s, [field]: value };
      // The end follows the template's default hours until the requester sets it themselves.
      const start = joinLocal(next.start_date, next.start_time);
      if (field.startsWith('start') && start && !s.end_date && !s.end_time) {
        const end = splitLocal(addHours(start, defaultHours));
        next.end_date = end.date;
        next.end_time = end.time;
      }
      return next;
    });
  }

  function bound(q: PermitQuestion) {
    const common = { label: q.label, withAsterisk: q.required || q.binding === 'site' };
    switch (q.binding) {
      case 'site':
        return (
          <Select
            {...common}
            key={q.id}
            withAsterisk
            searchable
            data={sites.map((s) => ({ value: s.id, label: s.name }))}
            value={state.site_id}
            onChange={(v) => onChange((s) => ({ ...s, site_id: v, areas: {} }))}
            error={errors['site_id']}
            comboboxProps={{ withinPortal: true }}
          />
        );
      case 'division':
      case 'department':
      case 'unit': {
        const level = LEVEL_OF[q.binding]!;
        const options = areaOptions(site, level, state.areas);
        if (options.length === 0 && !state.areas[level]) return null;
        return (
          <Select
            {...common}
            key={q.id}
            clearable
            searchable
            data={options.map((a) => ({ value: a.id, label: a.name }))}
            value={state.areas[level] ?? null}
            onChange={(v) => onChange((s) => ({ ...s, areas: pickArea(s.areas, level, v) }))}
            error={level === 'division' ? errors['site_node_id'] : undefined}
            comboboxProps={{ withinPortal: true }}
          />
        );
      }
      case 'start_date':
      case 'end_date':
        return (
          <TextInput
            {...common}
            key={q.id}
            withAsterisk
            type="date"
            value={state[q.binding]}
            onChange={(e) => setTime(q.binding as 'start_date', e.currentTarget.value)}
            error={errors[q.binding === 'start_date' ? 'start_at' : 'end_at']}
          />
        );
      case 'start_time':
      case 'end_time':
        return (
          <TextInput
            {...common}
            key={q.id}
            withAsterisk
            type="time"
            value={state[q.binding]}
            onChange={(e) => setTime(q.binding as 'start_time', e.currentTarget.value)}
          />
        );
      default:
        return null;
    }
  }

  const inPhase = sections.filter((s) => s.active && (phase === 'closure' ? s.kind === 'closure' : s.kind !== 'closure'));
  return (
    <Stack gap="md">
      {inPhase.map((s) => {
        const questions = s.questions.filter((q) => q.binding || shown.has(q.id));
        if (questions.every((q) => q.type === 'hidden_field')) return null;
        const timeGrid = s.kind === 'duration';
        // Start beside its time, end beside its time, whatever order the template keeps them in.
        if (timeGrid) questions.sort((a, b) => TIME_ORDER.indexOf(a.binding ?? '') - TIME_ORDER.indexOf(b.binding ?? ''));
        const body = questions.map((q) =>
          q.binding ? (
            bound(q)
          ) : (
            <QuestionField
              key={q.id}
              question={q}
              value={state.answers[q.id]}
              onChange={setAnswer(q.id)}
              error={errors[`answers.${q.id}`]}
              masters={masters}
              upload={upload}
            />
          ),
        );
        return (
          <Fieldset key={s.id} legend={s.name} radius="md" p={{ base: 'sm', sm: 'md' }} aria-label={s.name}>
            {timeGrid ? (
              <SimpleGrid cols={2} spacing="sm" verticalSpacing="sm">
                {body}
              </SimpleGrid>
            ) : (
              <Stack gap="sm">{body}</Stack>
            )}
          </Fieldset>
        );
      })}
      {inPhase.length === 0 ? <div>{t('permitsWeb.form.noQuestions')}</div> : null}
    </Stack>
  );
}

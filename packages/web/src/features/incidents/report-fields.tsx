import { localDateTimeIn, type IncidentGuestFormData } from '@bulwark/domain';
import { Group, Radio, Select, SimpleGrid, Stack, Text, TextInput, Textarea, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../ui/forms/validation.js';
import { RatingBadge } from './badges.js';
import { ratingPending, type ReportDraft } from './report-model.js';

/**
 * The fields a staff report and a guest report share, so both say the same thing the same way. Each
 * takes the draft and a `set` that records which fields changed.
 */
type FieldProps = {
  draft: ReportDraft;
  set: (change: Partial<ReportDraft>) => void;
  errors: FieldErrors;
};

export function Section({ title, children, id }: { title: string; children: ReactNode; id?: string }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby={id}>
      <Title order={3} size="h5" id={id} mt="xs">
        {title}
      </Title>
      {children}
    </Stack>
  );
}

export function DescriptionField({ draft, set, errors }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('incidents.fields.description')}
      withAsterisk
      autosize
      minRows={3}
      maxLength={4000}
      value={draft.description}
      onChange={(e) => set({ description: e.currentTarget.value })}
      error={errors['description']}
    />
  );
}

export function ActionTakenField({ draft, set, errors }: FieldProps) {
  const { t } = useTranslation();
  return (
    <Textarea
      label={t('incidents.fields.actionTaken')}
      description={t('incidentsWeb.form.actionTakenHint')}
      withAsterisk
      autosize
      minRows={2}
      maxLength={2000}
      value={draft.action_taken}
      onChange={(e) => set({ action_taken: e.currentTarget.value })}
      error={errors['action_taken']}
    />
  );
}

/** The site's local date and time: never after its present minute. */
export function OccurredAtField({ draft, set, errors, zone, now }: FieldProps & { zone: string | undefined; now: Date }) {
  const { t } = useTranslation();
  return (
    <TextInput
      type="datetime-local"
      label={t('incidents.fields.occurredAt')}
      withAsterisk
      description={zone ? t('incidentsWeb.form.siteTime', { zone }) : t('incidentsWeb.form.pickSiteFirst')}
      max={zone ? localDateTimeIn(zone, now) : undefined}
      value={draft.occurred_at}
      onChange={(e) => set({ occurred_at: e.currentTarget.value, occurred_at_touched: true })}
      error={errors['occurred_at']}
    />
  );
}

export function ShiftField({ draft, set, errors, shifts }: FieldProps & { shifts: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <Select
      label={t('incidents.fields.shift')}
      clearable
      data={shifts.map((s) => ({ value: s, label: t(`incidents.shifts.${s}`) }))}
      value={draft.shift}
      onChange={(shift) => set({ shift })}
      error={errors['shift']}
      comboboxProps={{ withinPortal: true }}
    />
  );
}

/** Severity and likelihood, with "Rating pending" shown until both are set. */
export function RatingFields({
  draft,
  set,
  errors,
  choices,
}: FieldProps & { choices: Pick<IncidentGuestFormData, 'severities' | 'likelihoods'> }) {
  const { t } = useTranslation();
  return (
    <Stack gap="xs">
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <Select
          label={t('incidents.fields.severity')}
          clearable
          data={choices.severities.map((s) => ({
            value: s,
            label: `${t(`incidents.severities.${s}`)} — ${t(`incidents.severityHints.${s}`)}`,
          }))}
          value={draft.severity}
          onChange={(severity) => set({ severity })}
          error={errors['severity']}
          comboboxProps={{ withinPortal: true }}
        />
        <Select
          label={t('incidents.fields.likelihood')}
          clearable
          data={choices.likelihoods.map((s) => ({ value: s, label: t(`incidents.likelihoods.${s}`) }))}
          value={draft.likelihood}
          onChange={(likelihood) => set({ likelihood })}
          error={errors['likelihood']}
          comboboxProps={{ withinPortal: true }}
        />
      </SimpleGrid>
      {ratingPending(draft) ? (
        <Group gap="xs" wrap="nowrap" align="flex-start">
          <RatingBadge severity={null} pending />
          <Text size="xs" c="dimmed">
            {t('incidentsWeb.form.ratingPendingHint')}
          </Text>
        </Group>
      ) : null}
    </Stack>
  );
}

/** A yes/no question that starts unanswered (null), so nobody answers it by not looking. */
export function YesNo(props: {
  label: string;
  description?: string;
  value: boolean | null;
  onChange: (v: boolean) => void;
  error?: string | undefined;
  required?: boolean;
  disabledNo?: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Radio.Group
      label={props.label}
      description={props.description}
      withAsterisk={props.required}
      value={props.value === null ? null : props.value ? 'yes' : 'no'}
      onChange={(v) => props.onChange(v === 'yes')}
      error={props.error}
    >
      <Group gap="lg" mt={4}>
        <Radio value="yes" label={t('incidents.fields.yes')} />
        <Radio value="no" label={t('incidents.fields.no')} disabled={props.disabledNo} />
      </Group>
    </Radio.Group>
  );
}

/** After a refusal, the first field that says what is wrong gets the focus (keyboard and screen readers). */
export function focusFirstError() {
  requestAnimationFrame(() => {
    document.querySelector<HTMLElement>('form [aria-invalid="true"]')?.focus();
  });
}

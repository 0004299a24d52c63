import { CONTROL_TYPES, type ActionSummary } from '@bulwark/domain';
import { Anchor, Badge, Group, Paper, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n/setup.js';
import { ActionItemsField } from '../actions/action-items-field.js';
import { emptyActionItem } from '../actions/action-items.js';
import type { ActionRow } from './form-model.js';
import { PeoplePicker } from './people-picker.js';
import { formatDay } from './si-format.js';

/** The actions already agreed, as links into the safety-interaction action list. */
export function AgreedActionList({ actions, links = true }: { actions: ActionSummary[]; links?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  if (actions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('safetyInteractions.form.noActions')}
      </Text>
    );
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {actions.map((a) => (
        <Paper key={a.id} component="li" withBorder p="xs" radius="sm">
          <Group justify="space-between" gap="xs" wrap="wrap">
            {links ? (
              <Anchor component={Link} to={`/actions/safety_interaction/summary/${a.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                {a.description}
              </Anchor>
            ) : (
              <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                {a.description}
              </Text>
            )}
            <Badge variant="light">{t(`actions.status.${a.status}`)}</Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {t(`actions.controlType.${a.control_type}`)} · {a.responsible?.full_name ?? '—'} ·{' '}
            {t('safetyInteractions.report.due', { date: formatDay(a.due_date, lang) })}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

type Props = {
  rows: ActionRow[];
  onChange: (rows: ActionRow[]) => void;
  errors: Record<string, string>;
  minDate: string;
  disabled?: boolean;
};

/** New agreed actions: what, which control, who and by when; they become actions of source safety interaction. */
export function AgreedActionRows({ rows, onChange, errors, minDate, disabled }: Props) {
  const { t } = useTranslation();
  return (
    <ActionItemsField
      rows={rows}
      onChange={onChange}
      onAdd={() => onChange([...rows, emptyActionItem()])}
      errors={errors}
      errorPrefix="actions"
      controlTypes={CONTROL_TYPES}
      people={{
        picker: (field) => (
          <PeoplePicker label={field.label} required value={field.value} onChange={(id) => field.onChange(id)} error={field.error} />
        ),
      }}
      columns={3}
      minDate={minDate}
      disabled={disabled}
      texts={{
        row: (n) => t('safetyInteractions.form.actionRow', { n }),
        removeLabel: (n) => `${t('safetyInteractions.form.remove')}: ${t('safetyInteractions.form.actionRow', { n })}`,
        remove: t('safetyInteractions.form.remove'),
        add: t('safetyInteractions.form.addAction'),
      }}
    />
  );
}

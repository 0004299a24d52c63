import { CONTROL_TYPES, type ActionSummary } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n/setup.js';
import { rowKey, type ActionRow } from './form-model.js';
import { PeoplePicker } from './people-picker.js';
import { formatDay } from './si-api.js';

/** The actions already agreed, as links into the safety-interaction action list. */
export function AgreedActionList({ actions, links = true }: { actions: ActionSummary[]; links?: boolean }) {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  if (actions.length === 0) return <Text size="sm" c="dimmed">{t('safetyInteractions.form.noActions')}</Text>;
  return (
    <Stack gap={6} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
      {actions.map((a) => (
        <Paper key={a.id} component="li" withBorder p="xs" radius="sm">
          <Group justify="space-between" gap="xs" wrap="wrap">
            {links ? (
              <Anchor component={Link} to={`/actions/safety_interaction/summary/${a.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>{a.description}</Anchor>
            ) : <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{a.description}</Text>}
            <Badge variant="light">{t(`actions.status.${a.status}`)}</Badge>
          </Group>
          <Text size="xs" c="dimmed">
            {t(`actions.controlType.${a.control_type}`)} · {a.responsible?.full_name ?? '—'} · {t('safetyInteractions.report.due', { date: formatDay(a.due_date, lang) })}
          </Text>
        </Paper>
      ))}
    </Stack>
  );
}

type Props = { rows: ActionRow[]; onChange: (rows: ActionRow[]) => void; errors: Record<string, string>; minDate: string; disabled?: boolean };

/** New agreed actions: what, which control, who and by when; they become actions of source safety interaction. */
export function AgreedActionRows({ rows, onChange, errors, minDate, disabled }: Props) {
  const { t } = useTranslation();
  const set = (key: string, change: Partial<ActionRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const controls = CONTROL_TYPES.map((c) => ({ value: c, label: t(`actions.controlType.${c}`) }));
  return (
    <Stack gap="sm">
      {rows.map((row, i) => {
        const err = (field: string) => errors[`actions.${i}.${field}`];
        const n = i + 1;
        return (
          <Paper key={row.key} withBorder p="sm" radius="sm" role="group" aria-label={t('safetyInteractions.form.actionRow', { n })}>
            <Group justify="space-between" mb={6} wrap="nowrap">
              <Text fw={600} size="sm">{t('safetyInteractions.form.actionRow', { n })}</Text>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                disabled={disabled}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
                aria-label={`${t('safetyInteractions.form.remove')}: ${t('safetyInteractions.form.actionRow', { n })}`}
              >
                {t('safetyInteractions.form.remove')}
              </Button>
            </Group>
            <Stack gap="xs">
              <Textarea
                label={t('actions.fields.description')}
                withAsterisk
                autosize
                minRows={2}
                maxLength={2000}
                value={row.description}
                onChange={(e) => set(row.key, { description: e.currentTarget.value })}
                error={err('description')}
                disabled={disabled}
              />
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="xs">
                <Select
                  label={t('actions.fields.controlType')}
                  withAsterisk
                  data={controls}
                  value={row.control_type}
                  onChange={(v) => set(row.key, { control_type: v })}
                  error={err('control_type')}
                  comboboxProps={{ withinPortal: true }}
                  disabled={disabled}
                />
                <PeoplePicker
                  label={t('actions.fields.responsible')}
                  required
                  value={row.responsible_id}
                  onChange={(id) => set(row.key, { responsible_id: id })}
                  error={err('responsible_id')}
                />
                <TextInput
                  label={t('actions.fields.dueDate')}
                  withAsterisk
                  type="date"
                  min={minDate}
                  value={row.due_date}
                  onChange={(e) => set(row.key, { due_date: e.currentTarget.value })}
                  error={err('due_date')}
                  disabled={disabled}
                />
              </SimpleGrid>
            </Stack>
          </Paper>
        );
      })}
      <Button
        variant="light"
        w="fit-content"
        disabled={disabled}
        onClick={() => onChange([...rows, { key: rowKey(), description: '', control_type: null, responsible_id: null, due_date: '' }])}
      >
        {t('safetyInteractions.form.addAction')}
      </Button>
    </Stack>
  );
}

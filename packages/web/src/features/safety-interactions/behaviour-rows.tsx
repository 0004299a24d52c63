import type { SiTopic } from '@bulwark/domain';
import { Button, Group, Select, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { rowKey, type BehaviourRow } from './form-model.js';

type Props = {
  kind: 'safe_behaviours' | 'at_risk_behaviours';
  label: string;
  addLabel: string;
  rows: BehaviourRow[];
  topics: SiTopic[];
  onChange: (rows: BehaviourRow[]) => void;
  errors: Record<string, string>;
  disabled?: boolean;
};

/** Behaviours seen, each filed under one of the topics discussed, with a short note. */
export function BehaviourRows({ kind, label, addLabel, rows, topics, onChange, errors, disabled }: Props) {
  const { t } = useTranslation();
  const set = (key: string, change: Partial<BehaviourRow>) => onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
  const options = topics.map((x) => ({ value: x, label: t(`safetyInteractions.topics.${x}`) }));
  return (
    <Stack gap="xs" role="group" aria-label={label}>
      <Text fw={600} size="sm">
        {label}
      </Text>
      {errors[kind] ? (
        <Text c="red" size="sm" role="alert">
          {errors[kind]}
        </Text>
      ) : null}
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('safetyInteractions.form.noBehaviours')}
        </Text>
      ) : null}
      {rows.map((row, i) => (
        <Group key={row.key} align="flex-start" gap="xs" wrap="wrap">
          <Select
            label={t('safetyInteractions.fields.topic')}
            aria-label={`${label} ${i + 1}: ${t('safetyInteractions.fields.topic')}`}
            data={options}
            value={row.topic}
            onChange={(v) => set(row.key, { topic: v as SiTopic | null })}
            error={errors[`${kind}.${i}.topic`]}
            w={{ base: '100%', sm: 200 }}
            comboboxProps={{ withinPortal: true }}
            disabled={disabled}
          />
          <TextInput
            label={t('safetyInteractions.fields.note')}
            aria-label={`${label} ${i + 1}: ${t('safetyInteractions.fields.note')}`}
            value={row.note}
            maxLength={500}
            onChange={(e) => set(row.key, { note: e.currentTarget.value })}
            error={errors[`${kind}.${i}.note`]}
            style={{ flex: '1 1 220px' }}
            disabled={disabled}
          />
          <Button
            variant="subtle"
            color="red"
            mt={{ base: 0, sm: 24 }}
            onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
            aria-label={`${t('safetyInteractions.form.remove')}: ${label} ${i + 1}`}
            disabled={disabled}
          >
            {t('safetyInteractions.form.remove')}
          </Button>
        </Group>
      ))}
      <Button
        variant="light"
        w="fit-content"
        disabled={disabled || topics.length === 0}
        onClick={() => onChange([...rows, { key: rowKey(), topic: topics.length === 1 ? topics[0]! : null, note: '' }])}
      >
        {addLabel}
      </Button>
    </Stack>
  );
}

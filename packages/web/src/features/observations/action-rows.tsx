import type { ObservationFormData } from '@bulwark/domain';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { ActionRow } from './form-model.js';

type Props = {
  rows: ActionRow[];
  onChange: (rows: ActionRow[]) => void;
  onAdd: () => void;
  canRemove: boolean;
  formData: Pick<ObservationFormData, 'control_types' | 'users' | 'action_categories'>;
  /** Errors keyed by the server's paths: `<prefix>.<index>.<field>`. */
  errors: Record<string, string>;
  prefix: 'actions' | 'add_actions';
  /** The earliest due date the site's calendar allows (today there). */
  minDate?: string;
  /** Told the error paths a change makes stale (`<prefix>.<index>.<field>`). */
  onEdit?: (...paths: string[]) => void;
};

/** The corrective actions raised with the observation: one card per action, added and removed freely. */
export function ActionRows({ rows, onChange, onAdd, canRemove, formData, errors, prefix, minDate, onEdit }: Props) {
  const { t } = useTranslation();
  const set = (key: string, change: Partial<ActionRow>) => {
    const index = rows.findIndex((r) => r.key === key);
    onChange(rows.map((r) => (r.key === key ? { ...r, ...change } : r)));
    onEdit?.(...Object.keys(change).map((field) => `${prefix}.${index}.${field}`));
  };
  const controlOptions = formData.control_types.map((c) => ({ value: c, label: t(`actions.controlType.${c}`) }));
  const people = formData.users.map((u) => ({ value: u.id, label: u.full_name && u.full_name !== u.email ? `${u.full_name} (${u.email})` : u.email }));
  const categories = formData.action_categories.map((c) => ({ value: c.id, label: c.name }));

  return (
    <Stack gap="sm">
      {errors[prefix] ? <Text c="red" size="sm" role="alert">{errors[prefix]}</Text> : null}
      {rows.map((row, i) => {
        const err = (field: string) => errors[`${prefix}.${i}.${field}`];
        const n = i + 1;
        return (
          <Paper key={row.key} withBorder p="sm" radius="sm" role="group" aria-label={t('observationsWeb.actions.row', { n })}>
            <Group justify="space-between" mb={6} wrap="nowrap">
              <Text fw={600} size="sm">{t('observationsWeb.actions.row', { n })}</Text>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                disabled={!canRemove}
                onClick={() => onChange(rows.filter((r) => r.key !== row.key))}
                aria-label={t('observationsWeb.actions.removeRow', { n })}
              >
                {t('observations.form.removeAction')}
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
              />
              <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                <Select
                  label={t('actions.fields.controlType')}
                  withAsterisk
                  data={controlOptions}
                  value={row.control_type}
                  onChange={(v) => set(row.key, { control_type: v })}
                  error={err('control_type')}
                  comboboxProps={{ withinPortal: true }}
                />
                <Select
                  label={t('actions.fields.responsible')}
                  withAsterisk
                  searchable
                  data={people}
                  value={row.responsible_id}
                  onChange={(v) => set(row.key, { responsible_id: v })}
                  nothingFoundMessage={t('kit.noResults')}
                  error={err('responsible_id')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  type="date"
                  label={t('actions.fields.dueDate')}
                  withAsterisk
                  min={minDate}
                  value={row.due_date}
                  onChange={(e) => set(row.key, { due_date: e.currentTarget.value })}
                  error={err('due_date')}
                />
                {categories.length > 0 ? (
                  <Select
                    label={t('actions.fields.category')}
                    clearable
                    data={categories}
                    value={row.category_id}
                    onChange={(v) => set(row.key, { category_id: v })}
                    error={err('category_id')}
                    comboboxProps={{ withinPortal: true }}
                  />
                ) : null}
              </SimpleGrid>
            </Stack>
          </Paper>
        );
      })}
      <Button variant="light" onClick={onAdd} w="fit-content">{t('observations.form.addAction')}</Button>
    </Stack>
  );
}

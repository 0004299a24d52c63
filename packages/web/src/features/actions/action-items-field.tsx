import { Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea, type ComboboxItem } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { actionItemError, canRemoveActionItem, editActionItem, removeActionItem, type ActionItemRow } from './action-items.js';

/** What the responsible person's field needs, whichever picker a module uses. */
export type ResponsibleField = {
  label: string;
  value: string | null;
  onChange: (id: string | null) => void;
  error: string | undefined;
  disabled: boolean | undefined;
};

/**
 * Who can be made responsible: a list the form already holds, or the module's own picker (the
 * safety-interaction form searches members on the server as the person types).
 */
export type ActionItemsPeople = { options: ComboboxItem[] } | { picker: (field: ResponsibleField) => ReactNode };

/** The module's own words for the rows (each form names its actions its way). */
export type ActionItemsTexts = {
  row: (n: number) => string;
  removeLabel: (n: number) => string;
  remove: string;
  add: string;
};

type Props<R extends ActionItemRow> = {
  rows: R[];
  onChange: (rows: R[]) => void;
  onAdd: () => void;
  /** Errors keyed by the server's paths: `<errorPrefix>.<index>.<field>`, and the list's own under `<errorPrefix>`. */
  errors: Record<string, string>;
  errorPrefix: string;
  /** At least one action is required: the last row cannot be removed. */
  atLeastOne?: boolean;
  controlTypes: readonly string[];
  people: ActionItemsPeople;
  /** The actions module's categories; the field shows only when there are some. */
  categories?: ComboboxItem[];
  /** Fields side by side from the `sm` width up: the observation form sits in a side panel, the SI form fills the page. */
  columns: 2 | 3;
  /** The earliest due date the site's calendar allows (today there). */
  minDate?: string;
  disabled?: boolean;
  texts: ActionItemsTexts;
  /** Told the error paths a change makes stale (`<errorPrefix>.<index>.<field>`). */
  onEdit?: (...paths: string[]) => void;
};

/** Actions raised with their source record: one card per action (what, which control, who, by when), added and removed freely. */
export function ActionItemsField<R extends ActionItemRow>(props: Props<R>) {
  const {
    rows,
    onChange,
    onAdd,
    errors,
    errorPrefix,
    atLeastOne = false,
    controlTypes,
    people,
    categories = [],
    columns,
    minDate,
    disabled,
    texts,
    onEdit,
  } = props;
  const { t } = useTranslation();
  const set = (key: string, change: Partial<Omit<ActionItemRow, 'key'>>) => {
    const edited = editActionItem(rows, key, change, errorPrefix);
    onChange(edited.rows);
    onEdit?.(...edited.stale);
  };
  const controlOptions = controlTypes.map((c) => ({ value: c, label: t(`actions.controlType.${c}`) }));
  const canRemove = canRemoveActionItem(rows.length, atLeastOne);

  return (
    <Stack gap="sm">
      {errors[errorPrefix] ? (
        <Text c="red" size="sm" role="alert">
          {errors[errorPrefix]}
        </Text>
      ) : null}
      {rows.map((row, i) => {
        const err = (field: keyof Omit<ActionItemRow, 'key'>) => actionItemError(errors, errorPrefix, i, field);
        const n = i + 1;
        const responsible: ResponsibleField = {
          label: t('actions.fields.responsible'),
          value: row.responsible_id,
          onChange: (id) => set(row.key, { responsible_id: id }),
          error: err('responsible_id'),
          disabled,
        };
        return (
          <Paper key={row.key} withBorder p="sm" radius="sm" role="group" aria-label={texts.row(n)}>
            <Group justify="space-between" mb={6} wrap="nowrap">
              <Text fw={600} size="sm">
                {texts.row(n)}
              </Text>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                disabled={disabled || !canRemove}
                onClick={() => onChange(removeActionItem(rows, row.key))}
                aria-label={texts.removeLabel(n)}
              >
                {texts.remove}
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
              <SimpleGrid cols={{ base: 1, sm: columns }} spacing="xs">
                <Select
                  label={t('actions.fields.controlType')}
                  withAsterisk
                  data={controlOptions}
                  value={row.control_type}
                  onChange={(v) => set(row.key, { control_type: v })}
                  error={err('control_type')}
                  comboboxProps={{ withinPortal: true }}
                  disabled={disabled}
                />
                {'picker' in people ? (
                  people.picker(responsible)
                ) : (
                  <Select
                    label={responsible.label}
                    withAsterisk
                    searchable
                    data={people.options}
                    value={responsible.value}
                    onChange={responsible.onChange}
                    nothingFoundMessage={t('kit.noResults')}
                    error={responsible.error}
                    comboboxProps={{ withinPortal: true }}
                    disabled={disabled}
                  />
                )}
                <TextInput
                  type="date"
                  label={t('actions.fields.dueDate')}
                  withAsterisk
                  min={minDate}
                  value={row.due_date}
                  onChange={(e) => set(row.key, { due_date: e.currentTarget.value })}
                  error={err('due_date')}
                  disabled={disabled}
                />
                {categories.length > 0 ? (
                  <Select
                    label={t('actions.fields.category')}
                    clearable
                    data={categories}
                    value={row.category_id ?? null}
                    onChange={(v) => set(row.key, { category_id: v })}
                    error={err('category_id')}
                    comboboxProps={{ withinPortal: true }}
                    disabled={disabled}
                  />
                ) : null}
              </SimpleGrid>
            </Stack>
          </Paper>
        );
      })}
      <Button variant="light" w="fit-content" disabled={disabled} onClick={onAdd}>
        {texts.add}
      </Button>
    </Stack>
  );
}

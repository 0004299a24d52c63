import { ACTION_SOURCES, CONTROL_TYPES, type ActionSource, type ControlType } from '@bulwark/domain';
import { Button, Chip, Collapse, Group, Paper, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SearchInput } from '../../ui/index.js';
import { useActionPeople, useActionRights, useActionSites } from './actions-api.js';
import { activeFilterCount, type ActionScreen, type ListState } from './list-url.js';

type Props = { screen: ActionScreen; state: ListState; onState: (next: ListState) => void };

/**
 * Search, "assigned to me", and the filters of spec 001 §2 (site, responsible person, control type,
 * due date range; the source on the mixed list). Every change goes back to page 1.
 */
export function ActionFilters({ screen, state, onState }: Props) {
  const { t } = useTranslation();
  const rights = useActionRights();
  const sites = useActionSites();
  const people = useActionPeople();
  const count = activeFilterCount(state);
  const [open, setOpen] = useState(count > 0);
  const set = (patch: Partial<ListState>) => onState({ ...state, ...patch, page: 1 });
  const mine = rights.userId !== null && state.responsible_id === rights.userId;
  const rangeWrong = state.due_from !== null && state.due_to !== null && state.due_to < state.due_from;

  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="wrap" align="center">
        <SearchInput value={state.search} onChange={(search) => set({ search })} label={t('actions.list.search')} />
        {rights.userId ? (
          <Chip checked={mine} onChange={(on) => set({ responsible_id: on ? rights.userId : null })} variant="outline">
            {t('actions.list.assignedToMe')}
          </Chip>
        ) : null}
        <Button
          variant={count > 0 ? 'light' : 'default'}
          onClick={() => setOpen((o) => !o)}
          aria-expanded={open}
          aria-controls="action-filters"
        >
          {count > 0 ? t('actionsWeb.list.filtersCount', { count }) : t('actionsWeb.list.filters')}
        </Button>
      </Group>
      <Collapse expanded={open}>
        <Paper withBorder radius="md" p="sm" id="action-filters" component="section" aria-label={t('actionsWeb.list.filters')}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: screen.source === null ? 6 : 5 }} spacing="sm">
            <Select
              label={t('actions.fields.site')}
              placeholder={t('actions.list.anySite')}
              data={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
              value={state.site_id}
              onChange={(site_id) => set({ site_id })}
              clearable
              searchable
              nothingFoundMessage={t('kit.noResults')}
            />
            <Select
              label={t('actions.fields.responsible')}
              placeholder={t('actions.list.anyone')}
              data={(people.data ?? []).map((u) => ({ value: u.id, label: u.full_name }))}
              value={state.responsible_id}
              onChange={(responsible_id) => set({ responsible_id })}
              clearable
              searchable
              nothingFoundMessage={t('kit.noResults')}
            />
            <Select
              label={t('actions.fields.controlType')}
              placeholder={t('actions.list.anyControl')}
              data={CONTROL_TYPES.map((c) => ({ value: c, label: t(`actions.controlType.${c}`) }))}
              value={state.control_type}
              onChange={(v) => set({ control_type: v as ControlType | null })}
              clearable
            />
            {screen.source === null ? (
              <Select
                label={t('actions.fields.source')}
                placeholder={t('actions.list.anySource')}
                data={ACTION_SOURCES.map((s) => ({ value: s, label: t(`actions.source.${s}`) }))}
                value={state.source_type}
                onChange={(v) => set({ source_type: v as ActionSource | null })}
                clearable
              />
            ) : null}
            <TextInput
              type="date"
              label={t('actions.fields.dueFrom')}
              value={state.due_from ?? ''}
              onChange={(e) => set({ due_from: e.currentTarget.value || null })}
            />
            <TextInput
              type="date"
              label={t('actions.fields.dueTo')}
              value={state.due_to ?? ''}
              min={state.due_from ?? undefined}
              onChange={(e) => set({ due_to: e.currentTarget.value || null })}
              error={rangeWrong ? t('actions.validation.dateRange') : undefined}
            />
          </SimpleGrid>
          {count > 0 ? (
            <Group justify="flex-end" mt="sm">
              <Button
                variant="subtle"
                size="compact-sm"
                onClick={() =>
                  set({ site_id: null, responsible_id: null, control_type: null, source_type: null, due_from: null, due_to: null })
                }
              >
                {t('actions.list.clearFilters')}
              </Button>
            </Group>
          ) : null}
        </Paper>
      </Collapse>
    </Stack>
  );
}

import { INCIDENT_STATUS_TABS, INVESTIGATION_STATES, type IncidentListItem } from '@bulwark/domain';
import { Anchor, Button, Group, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { DataTable, ExportButton, SearchInput, type Column } from '../../ui/index.js';
import { useFormats } from '../../ui/format.js';
import { InvestigationBadge, RatingBadge, StatusBadge } from './badges.js';
import { useIncidentCounts, useIncidentExport, useIncidentFormData, useIncidentPage, useIsGuest } from './incidents-api.js';
import {
  countsQuery,
  incidentListSearch,
  isFiltered,
  listQuery,
  rangeReversed,
  readIncidentList,
  withFilters,
  EMPTY_INCIDENT_LIST,
  type IncidentListState,
} from './list-url.js';

/** Where an incident opens: the step the investigation stands at (the report while none is needed). */
export function incidentPath(id: string, step = 1): string {
  return `/incidents/${id}/steps/step${step}`;
}

/**
 * The incidents list: status tabs with totals, filters and search kept in the address, pages of 50,
 * and the Excel export of exactly the filtered rows.
 */
export function IncidentList() {
  const { t } = useTranslation();
  const fmt = useFormats();
  const { search } = useLocation();
  const navigate = useNavigate();
  const state = readIncidentList(search);
  const formData = useIncidentFormData();
  // The search box keeps what is typed; a new key empties it when the filters are cleared.
  const [searchBox, setSearchBox] = useState(0);
  const guest = useIsGuest();
  const page = useIncidentPage(listQuery(state));
  const counts = useIncidentCounts(countsQuery(state));
  const exportQuery = { ...listQuery(state) };
  delete exportQuery.page;
  const exportRows = useIncidentExport(exportQuery);
  const go = (next: IncidentListState) => void navigate(`/incidents${incidentListSearch(next)}`, { replace: true });
  const change = (c: Partial<Omit<IncidentListState, 'page'>>) => go(withFilters(state, c));

  const sites = formData.data?.sites ?? [];
  const categories = (formData.data?.categories ?? [])
    .filter((c) => !state.type || c.type === state.type)
    .flatMap((c) => c.categories.map((x) => ({ value: x.id, label: x.name })));

  const columns: Column<IncidentListItem>[] = [
    {
      key: 'serial',
      header: t('incidents.fields.serial'),
      render: (o) => (
        <Anchor component={Link} to={incidentPath(o.id, o.current_step)} fw={500} style={{ whiteSpace: 'nowrap' }}>
          {o.serial_label}
        </Anchor>
      ),
    },
    {
      key: 'what',
      header: t('incidents.fields.type'),
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm">
            {t(`categories.types.${o.type}`)}
            {o.category ? ` · ${o.category.name}` : ''}
          </Text>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {o.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'where',
      header: `${t('incidents.fields.site')} · ${t('incidents.fields.occurredAt')}`,
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm" style={{ overflowWrap: 'normal' }}>
            {o.site_node_name ?? o.site.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {fmt.local(o.occurred_at)}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'severity',
      header: t('incidents.fields.severity'),
      render: (o) => <RatingBadge severity={o.severity} pending={o.rating_pending} />,
      hideOnPhone: true,
    },
    {
      key: 'investigation',
      header: t('incidents.fields.investigationState'),
      render: (o) => (
        <Stack gap={2}>
          <InvestigationBadge state={o.investigation_state} />
          {o.lead ? (
            <Text size="xs" c="dimmed">
              {o.lead.full_name}
            </Text>
          ) : null}
        </Stack>
      ),
      hideOnPhone: true,
    },
    { key: 'status', header: t('incidents.fields.status'), render: (o) => <StatusBadge status={o.status} /> },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <SearchInput key={searchBox} value={state.search} onChange={(v) => change({ search: v })} label={t('incidentsWeb.list.search')} />
        {guest ? null : <ExportButton download={exportRows} />}
      </Group>
      <Group gap="xs" wrap="wrap" align="flex-end">
        <Select
          label={t('incidents.fields.site')}
          placeholder={t('incidentsWeb.list.allSites')}
          clearable
          searchable
          w={{ base: '100%', xs: 170 }}
          data={sites.map((s) => ({ value: s.id, label: s.name }))}
          value={state.site_id}
          onChange={(v) => change({ site_id: v })}
        />
        <Select
          label={t('incidents.fields.severity')}
          placeholder={t('incidentsWeb.list.allSeverities')}
          clearable
          w={{ base: '100%', xs: 160 }}
          data={[
            ...(formData.data?.severities ?? []).map((s) => ({ value: s, label: t(`incidents.severities.${s}`) })),
            { value: 'pending', label: t('incidents.ratingPending') },
          ]}
          value={state.severity}
          onChange={(v) => change({ severity: v })}
        />
        <Select
          label={t('incidents.fields.type')}
          placeholder={t('incidentsWeb.list.allTypes')}
          clearable
          w={{ base: '100%', xs: 160 }}
          data={(formData.data?.types ?? []).map((x) => ({ value: x, label: t(`categories.types.${x}`) }))}
          value={state.type}
          onChange={(v) => change({ type: v, category_id: null })}
        />
        <Select
          label={t('incidents.fields.category')}
          placeholder={t('incidentsWeb.list.allCategories')}
          clearable
          searchable
          w={{ base: '100%', xs: 170 }}
          data={categories}
          value={state.category_id}
          onChange={(v) => change({ category_id: v })}
        />
        <Select
          label={t('incidents.fields.investigationState')}
          placeholder={t('incidentsWeb.list.allStates')}
          clearable
          w={{ base: '100%', xs: 170 }}
          data={INVESTIGATION_STATES.map((s) => ({ value: s, label: t(`incidents.investigationStates.${s}`) }))}
          value={state.investigation_state}
          onChange={(v) => change({ investigation_state: v })}
        />
        <TextInput
          type="date"
          label={t('incidentsWeb.list.from')}
          w={{ base: '47%', xs: 150 }}
          value={state.from ?? ''}
          onChange={(e) => change({ from: e.currentTarget.value || null })}
        />
        <TextInput
          type="date"
          label={t('incidentsWeb.list.to')}
          w={{ base: '47%', xs: 150 }}
          value={state.to ?? ''}
          min={state.from ?? undefined}
          onChange={(e) => change({ to: e.currentTarget.value || null })}
          error={rangeReversed(state) ? t('incidents.validation.dateRange') : undefined}
        />
        {isFiltered(state) ? (
          <Button
            variant="subtle"
            onClick={() => {
              go({ ...EMPTY_INCIDENT_LIST, status: state.status });
              setSearchBox((k) => k + 1);
            }}
          >
            {t('incidentsWeb.list.clear')}
          </Button>
        ) : null}
      </Group>
      <Tabs value={state.status} onChange={(v) => go(withFilters(state, { status: (v ?? 'all') as IncidentListState['status'] }))}>
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }} aria-label={t('incidents.fields.status')}>
          {INCIDENT_STATUS_TABS.map((s) => (
            <Tabs.Tab key={s} value={s} style={{ whiteSpace: 'nowrap' }}>
              {t(`incidents.statuses.${s}`)}{' '}
              {counts.data ? (
                <Text span c="dimmed" size="sm">
                  ({counts.data[s]})
                </Text>
              ) : null}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      {counts.data && counts.data.rating_pending > 0 && state.severity !== 'pending' ? (
        <Anchor component="button" type="button" size="sm" w="fit-content" onClick={() => change({ severity: 'pending' })}>
          {t('incidentsWeb.list.pendingCount', { count: counts.data.rating_pending })}
        </Anchor>
      ) : null}
      <DataTable
        columns={columns}
        rows={page.data?.rows}
        rowKey={(o) => o.id}
        loading={page.isFetching}
        error={page.isError}
        emptyText={isFiltered(state) ? t('kit.noResults') : t('incidentsWeb.list.empty')}
        pagination={page.data?.pagination}
        onPage={(n) => go({ ...state, page: n })}
        caption={t('incidents.title')}
      />
    </Stack>
  );
}

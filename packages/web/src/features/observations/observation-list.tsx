import { OBSERVATION_PAGE_SIZE, OBSERVATION_STATUSES, type ObservationListItem } from '@bulwark/domain';
import { Anchor, Box, Button, Group, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NavIcon } from '../../app/shell/nav-icons.js';
import { useFormats } from '../../ui/format.js';
import { DataTable, ExportButton, SearchInput, toQuery, usePagedList, type Column } from '../../ui/index.js';
import { ImportDialog } from './import-dialog.js';
import {
  OBSERVATIONS_KEY,
  useFormData,
  useIsGuest,
  useListExport,
  useListLoader,
  useObservationRight,
  useStatusCounts,
  type ListFilters,
  type StatusTab,
} from './observations-api.js';
import { RiskBadge, StatusBadge } from './status-badge.js';

const TABS: StatusTab[] = ['all', ...OBSERVATION_STATUSES];
const NO_FILTERS: ListFilters = { site_id: null, type: null, risk_level: null, from: '', to: '' };

/** The observations list: status tabs with counts, filters, search, pages of 15, export and import. */
export function ObservationList({ selectedId }: { selectedId: string | null }) {
  const { t, i18n } = useTranslation();
  const formData = useFormData();
  const mayCreate = useObservationRight('create');
  const guest = useIsGuest();
  const [tab, setTab] = useState<StatusTab>('all');
  const [filters, setFilters] = useState<ListFilters>(NO_FILTERS);
  const [importing, setImporting] = useState(false);
  // On a phone the filters fold behind one button, so the list comes first.
  const [filtersOpen, setFiltersOpen] = useState(false);
  const f = useFormats();
  // The search box keeps what is typed; a new key empties it when the filters are cleared.
  const [searchBox, setSearchBox] = useState(0);
  const rangeWrong = filters.from !== '' && filters.to !== '' && filters.from > filters.to;
  // A reversed range is said under the field and not sent: the server would refuse the whole list.
  const sent = rangeWrong ? { ...filters, to: '' } : filters;
  const list = usePagedList<ObservationListItem>({
    queryKey: [...OBSERVATIONS_KEY, 'list'],
    load: useListLoader(),
    perPage: OBSERVATION_PAGE_SIZE,
    filters: { status: tab, ...sent },
  });
  const counts = useStatusCounts(toQuery({ ...sent, search: list.search }));
  // A search counts at most 1,000 matches: past them each count is a lower bound, shown "1,000+".
  const number = (n: number) => n.toLocaleString(i18n.language);
  const atLeast = (n: number) => t('observationsWeb.list.countAtLeast', { total: number(n) });
  const exportRows = useListExport(list.exportQuery);

  const change = (next: Partial<ListFilters>) => {
    setFilters((f) => ({ ...f, ...next }));
    list.setPage(1);
  };
  const filterCount = Object.values(filters).filter((v) => v !== null && v !== '').length;
  const filtered = filterCount > 0 || list.search !== '';

  const columns: Column<ObservationListItem>[] = [
    {
      key: 'serial',
      header: t('observations.fields.serial'),
      render: (o) => (
        <Anchor
          component={Link}
          to={`/observations/summary/${o.id}`}
          fw={o.id === selectedId ? 700 : 500}
          aria-current={o.id === selectedId ? 'true' : undefined}
          style={{ whiteSpace: 'nowrap' }}
        >
          {o.serial_label}
        </Anchor>
      ),
    },
    {
      key: 'what',
      header: t('observations.fields.type'),
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {t(`categories.types.${o.type}`)}
          </Text>
          <Text size="sm" c="dimmed" lineClamp={2}>
            {o.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'where',
      header: `${t('observations.fields.site')} · ${t('observations.fields.observedAt')}`,
      // "Site · Area" over the site's date and time; a name breaks between words, never inside one.
      render: (o) => (
        <Stack gap={0}>
          <Text size="sm" style={{ overflowWrap: 'normal' }}>
            {o.site_node_name && o.site_node_name !== o.site.name ? `${o.site.name} · ${o.site_node_name}` : o.site.name}
          </Text>
          <Text size="xs" c="dimmed" style={{ whiteSpace: 'nowrap' }}>
            {f.local(o.observed_at)}
          </Text>
        </Stack>
      ),
      width: '26%',
      hideOnPhone: true,
    },
    { key: 'risk', header: t('observations.fields.riskLevel'), render: (o) => <RiskBadge level={o.risk_level} />, hideOnPhone: true },
    { key: 'status', header: t('observations.fields.status'), render: (o) => <StatusBadge status={o.status} /> },
  ];

  return (
    <Stack gap="sm">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <SearchInput key={searchBox} value={list.search} onChange={list.setSearch} label={t('observations.list.search')} />
        {/* Import and export are desk work: not on a phone. */}
        <Group gap="xs" wrap="wrap" visibleFrom="sm">
          {mayCreate && !guest ? (
            <Button variant="default" onClick={() => setImporting(true)}>
              {t('observations.list.import')}
            </Button>
          ) : null}
          {guest ? null : <ExportButton download={exportRows} />}
        </Group>
      </Group>
      <Button
        hiddenFrom="sm"
        variant={filterCount > 0 ? 'light' : 'default'}
        leftSection={<NavIcon name="filter" size={16} />}
        onClick={() => setFiltersOpen((o) => !o)}
        aria-expanded={filtersOpen}
        aria-controls="observation-filters"
      >
        {filterCount > 0 ? t('home.list.filtersActive', { count: filterCount }) : t('home.list.filters')}
      </Button>
      <Box id="observation-filters" display={{ base: filtersOpen ? 'block' : 'none', sm: 'block' }}>
        <Group gap="xs" wrap="wrap" align="flex-end">
          <Select
            label={t('observations.fields.site')}
            placeholder={t('observations.list.allSites')}
            clearable
            searchable
            w={{ base: '100%', xs: 170 }}
            data={(formData.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
            value={filters.site_id}
            onChange={(v) => change({ site_id: v })}
          />
          <Select
            label={t('observations.fields.type')}
            placeholder={t('observations.list.allTypes')}
            clearable
            w={{ base: '100%', xs: 160 }}
            data={(formData.data?.types ?? []).map((x) => ({ value: x.type, label: t(`categories.types.${x.type}`) }))}
            value={filters.type}
            onChange={(v) => change({ type: v })}
          />
          <Select
            label={t('observations.fields.riskLevel')}
            placeholder={t('observations.list.allRiskLevels')}
            clearable
            w={{ base: '100%', xs: 150 }}
            data={(formData.data?.risk_levels ?? []).map((r) => ({ value: r, label: t(`observations.riskLevels.${r}`) }))}
            value={filters.risk_level}
            onChange={(v) => change({ risk_level: v })}
          />
          <TextInput
            type="date"
            label={t('observations.list.from')}
            w={{ base: '47%', xs: 150 }}
            value={filters.from}
            onChange={(e) => change({ from: e.currentTarget.value })}
          />
          <TextInput
            type="date"
            label={t('observations.list.to')}
            w={{ base: '47%', xs: 150 }}
            value={filters.to}
            min={filters.from || undefined}
            onChange={(e) => change({ to: e.currentTarget.value })}
            error={rangeWrong ? t('observations.validation.dateRange') : undefined}
          />
          {filtered ? (
            <Button
              variant="subtle"
              onClick={() => {
                setFilters(NO_FILTERS);
                list.setSearch('');
                setSearchBox((k) => k + 1);
              }}
            >
              {t('observationsWeb.list.clear')}
            </Button>
          ) : null}
        </Group>
      </Box>
      <Tabs
        value={tab}
        onChange={(v) => {
          setTab((v ?? 'all') as StatusTab);
          list.setPage(1);
        }}
        keepMounted={false}
      >
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }} aria-label={t('observations.fields.status')}>
          {TABS.map((s) => (
            <Tabs.Tab key={s} value={s} style={{ whiteSpace: 'nowrap' }}>
              {t(`observations.statuses.${s}`)} {/* A capped search's zero says nothing ("0+"): that tab shows no count. */}
              {counts.data && !(counts.data.counts_capped && counts.data.counts[s] === 0) ? (
                <Text span c="dimmed" size="sm">
                  ({counts.data.counts_capped ? atLeast(counts.data.counts[s]) : counts.data.counts[s]})
                </Text>
              ) : null}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(o) => o.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={filtered ? t('kit.noResults') : t('observations.list.empty')}
        emptyAction={
          !filtered && mayCreate ? (
            <Button component={Link} to="/observations/new" variant="light">
              {t('observations.form.newTitle')}
            </Button>
          ) : null
        }
        pagination={list.pagination}
        totalLabel={
          list.pagination?.total_capped
            ? t('observationsWeb.list.totalAtLeast', { count: list.pagination.total, total: number(list.pagination.total) })
            : undefined
        }
        onPage={list.setPage}
        caption={t('observations.title')}
      />
      <ImportDialog opened={importing} onClose={() => setImporting(false)} />
    </Stack>
  );
}

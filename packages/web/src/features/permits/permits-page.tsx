import { PERMIT_FLAGS, PERMIT_PAGE_SIZE, PERMIT_TABS, type PermitFlag, type PermitListItem, type PermitTab } from '@bulwark/domain';
import { Anchor, Badge, Button, Chip, Group, Select, Stack, Tabs, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { DataTable, ExportButton, PageHeader, SearchInput, toQuery, usePagedList, type Column } from '../../ui/index.js';
import { useMySites } from './permit-settings-api.js';
import { PERMITS_KEY, useMe, usePermitCounts, usePermitListExport, usePermitListLoader, useRight } from './permits-api.js';
import { PermitStatusBadge } from './status-badge.js';

type Filters = { site_id: string | null; flag: PermitFlag | null; from: string; to: string };
const NO_FILTERS: Filters = { site_id: null, flag: null, from: '', to: '' };

/**
 * /permits (spec 001 §2): the seven tabs with their counts, extended / overdue / pending closure as
 * filters and badges, keyword search, the last six months unless a range is chosen, Excel export of
 * exactly these rows. Live: a push on the permits channel refreshes it.
 */
export function PermitsPage() {
  const { t } = useTranslation();
  const f = useFormats();
  const me = useMe();
  const sites = useMySites();
  const mayRequest = useRight('Permit', 'create') && (me.isAdmin || me.canIssuePermit);
  const [tab, setTab] = useState<PermitTab>('all');
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [searchBox, setSearchBox] = useState(0);
  const rangeWrong = filters.from !== '' && filters.to !== '' && filters.from > filters.to;
  const sent = rangeWrong ? { ...filters, to: '' } : filters;
  const list = usePagedList<PermitListItem>({
    queryKey: [...PERMITS_KEY, 'list'],
    load: usePermitListLoader(),
    perPage: PERMIT_PAGE_SIZE,
    filters: { tab, ...sent },
  });
  const counts = usePermitCounts(toQuery({ ...sent, search: list.search }));
  const exportRows = usePermitListExport(list.exportQuery);
  const change = (next: Partial<Filters>) => {
    setFilters((x) => ({ ...x, ...next }));
    list.setPage(1);
  };
  const filtered = Object.values(filters).some((v) => v !== null && v !== '') || list.search !== '';

  const columns: Column<PermitListItem>[] = [
    {
      key: 'number',
      header: t('permits.fields.number'),
      render: (p) => (
        <Stack gap={4} align="flex-start">
          <Anchor component={Link} to={`/permit/${p.id}/summary`} fw={600} style={{ whiteSpace: 'nowrap' }}>
            {p.number}
          </Anchor>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {p.template.name}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'what',
      header: `${t('permits.fields.type')} · ${t('permits.fields.description')}`,
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm">{p.template.name}</Text>
          {p.description ? (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {p.description}
            </Text>
          ) : null}
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'where',
      header: `${t('permits.fields.site')} · ${t('permits.fields.timeOfWork')}`,
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm" style={{ overflowWrap: 'normal' }}>
            {[p.site?.name, p.area_name].filter(Boolean).join(' / ') || '—'}
          </Text>
          <Text size="xs" c="dimmed">
            {p.start_at ? `${f.local(p.start_at)} → ${p.end_at ? f.local(p.end_at) : '…'}` : '—'}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'people',
      header: `${t('permits.fields.requester')} · ${t('permits.fields.workers')}`,
      render: (p) => (
        <Stack gap={0}>
          <Text size="sm">{p.requester.full_name}</Text>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {p.worker_names.join(', ') || '—'}
          </Text>
        </Stack>
      ),
      hideOnPhone: true,
    },
    {
      key: 'status',
      header: t('permits.fields.status'),
      render: (p) => (
        <Group gap={4}>
          <PermitStatusBadge status={p.status} size="sm" />
          {p.extension_pending ? (
            <Badge size="sm" color="orange" variant="outline">
              {t('permitsWeb.list.extensionPending')}
            </Badge>
          ) : null}
          {p.shared_with_me ? (
            <Badge size="sm" color="gray" variant="outline">
              {t('permitsWeb.list.sharedWithMe')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="sm">
      <PageHeader
        title={t('permits.title')}
        actions={
          <>
            <Button component={Link} to="/permits/board" variant="default">
              {t('permitsWeb.board.open')}
            </Button>
            {mayRequest ? (
              <Button component={Link} to="/permit-form-questions/new">
                {t('permitsWeb.list.request')}
              </Button>
            ) : null}
          </>
        }
      />
      <Group justify="space-between" gap="xs" wrap="wrap">
        <SearchInput key={searchBox} value={list.search} onChange={list.setSearch} label={t('permitsWeb.list.search')} />
        <ExportButton download={exportRows} />
      </Group>
      <Group gap="xs" wrap="wrap" align="flex-end">
        <Select
          label={t('permits.fields.site')}
          placeholder={t('permitsWeb.list.allSites')}
          clearable
          searchable
          w={{ base: '100%', xs: 200 }}
          data={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={filters.site_id}
          onChange={(v) => change({ site_id: v })}
        />
        <TextInput
          type="date"
          label={t('permitsWeb.list.from')}
          w={{ base: '47%', xs: 150 }}
          value={filters.from}
          onChange={(e) => change({ from: e.currentTarget.value })}
        />
        <TextInput
          type="date"
          label={t('permitsWeb.list.to')}
          w={{ base: '47%', xs: 150 }}
          value={filters.to}
          min={filters.from || undefined}
          onChange={(e) => change({ to: e.currentTarget.value })}
          error={rangeWrong ? t('permits.validation.dateRange') : undefined}
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
            {t('permitsWeb.list.clear')}
          </Button>
        ) : null}
      </Group>
      {filters.from === '' && filters.to === '' ? (
        <Text size="xs" c="dimmed">
          {t('permitsWeb.list.sixMonths')}
        </Text>
      ) : null}
      <Tabs
        value={tab}
        onChange={(v) => {
          setTab((v ?? 'all') as PermitTab);
          list.setPage(1);
        }}
        keepMounted={false}
      >
        <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto', overflowY: 'hidden' }} aria-label={t('permits.fields.status')}>
          {PERMIT_TABS.map((s) => (
            <Tabs.Tab key={s} value={s} style={{ whiteSpace: 'nowrap' }}>
              {t(`permits.tabs.${s}`)}{' '}
              {counts.data ? (
                <Text span c="dimmed" size="sm">
                  ({counts.data[s]})
                </Text>
              ) : null}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <Group gap={6} aria-label={t('permitsWeb.list.flags')} role="group">
        {PERMIT_FLAGS.map((flag) => (
          <Chip
            key={flag}
            size="sm"
            variant="outline"
            checked={filters.flag === flag}
            onChange={() => change({ flag: filters.flag === flag ? null : flag })}
          >
            {t(`permits.flags.${flag}`)} {counts.data ? `(${counts.data[flag]})` : ''}
          </Chip>
        ))}
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(p) => p.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={filtered ? t('kit.noResults') : t('permitsWeb.list.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t('permits.title')}
      />
    </Stack>
  );
}

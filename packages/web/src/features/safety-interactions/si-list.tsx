import { SI_PAGE_SIZE, SI_STATUSES, SI_TOPICS, siSerial, type SiListItem } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, Select, Stack, TextInput } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { currentLanguage } from '../../i18n/setup.js';
import { DataTable, ExportButton, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { PeoplePicker } from './people-picker.js';
import { SI_LIST_KEY, useSiCommands, useSiListExport, useSiListLoader, useSiOptions } from './safety-interactions-api.js';
import { formatLocal } from './si-format.js';
import { SiNav } from './si-nav.js';
import { useSiRights } from './use-si-rights.js';

export const STATUS_COLORS = { draft: 'gray', completed: 'teal' } as const;

/** /safety-interactions: every interaction, filtered, searched, paged and exported; deleting asks first. */
export function SiList() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  const commands = useSiCommands();
  const rights = useSiRights();
  const options = useSiOptions();
  const [siteId, setSiteId] = useState<string | null>(null);
  const [topic, setTopic] = useState<string | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  const [observerId, setObserverId] = useState<string | null>(null);
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const load = useSiListLoader();
  const list = usePagedList({
    queryKey: SI_LIST_KEY,
    load,
    perPage: SI_PAGE_SIZE,
    filters: { site_id: siteId, topic, status, observer_id: observerId, from, to },
  });
  const exportList = useSiListExport(list.exportQuery);
  const [confirm, dialog] = useConfirm();
  const [busyId, setBusyId] = useState<string | null>(null);
  const filter =
    <T,>(setter: (v: T) => void) =>
    (v: T) => {
      setter(v);
      list.setPage(1);
    };

  async function remove(row: SiListItem) {
    const ok = await confirm({
      title: t('safetyInteractions.list.confirmDeleteTitle', { serial: siSerial(row.serial) }),
      message: t('safetyInteractions.list.confirmDeleteBody'),
      confirmLabel: t('safetyInteractions.list.delete'),
      danger: true,
    });
    if (!ok) return;
    setBusyId(row.id);
    try {
      await commands.remove(row.id);
      notifySuccess(t('safetyInteractions.list.deleted'));
      await commands.refresh();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  const columns: Column<SiListItem>[] = [
    {
      key: 'serial',
      header: t('safetyInteractions.fields.serial'),
      render: (r) => (
        <Anchor component={Link} to={`/safety-interactions/edit/${r.id}`} fw={500} style={{ whiteSpace: 'nowrap' }}>
          {siSerial(r.serial)}
        </Anchor>
      ),
    },
    { key: 'held', header: t('safetyInteractions.fields.heldAt'), render: (r) => formatLocal(r.held_at, lang) },
    { key: 'site', header: t('safetyInteractions.fields.site'), render: (r) => r.area?.full_name ?? r.site.name, hideOnPhone: true },
    { key: 'observer', header: t('safetyInteractions.fields.observer'), render: (r) => r.observer?.full_name ?? '—', hideOnPhone: true },
    {
      key: 'topics',
      header: t('safetyInteractions.fields.topics'),
      render: (r) => r.topics.map((x) => t(`safetyInteractions.topics.${x}`)).join(', ') || '—',
      hideOnPhone: true,
    },
    {
      key: 'behaviours',
      header: t('safetyInteractions.list.safeAtRisk'),
      render: (r) => (
        <Group gap={4} wrap="nowrap">
          <Badge color="teal" variant="light">
            {r.safe_count}
          </Badge>
          <Badge color="orange" variant="light">
            {r.at_risk_count}
          </Badge>
        </Group>
      ),
    },
    {
      key: 'status',
      header: t('safetyInteractions.fields.status'),
      render: (r) => (
        <Badge color={STATUS_COLORS[r.status]} variant="light">
          {t(`safetyInteractions.statuses.${r.status}`)}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('safetyInteractions.list.moreActions'),
      render: (r) => (
        <Group gap={6} wrap="wrap">
          <Button
            component={Link}
            to={`/safety-interactions/${r.id}/report`}
            size="compact-sm"
            variant="light"
            aria-label={`${t('safetyInteractions.list.report')}: ${siSerial(r.serial)}`}
          >
            {t('safetyInteractions.list.report')}
          </Button>
          {rights.remove ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              loading={busyId === r.id}
              onClick={() => void remove(r)}
              aria-label={`${t('safetyInteractions.list.delete')}: ${siSerial(r.serial)}`}
            >
              {t('safetyInteractions.list.delete')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <SiNav />
      <PageHeader
        title={t('safetyInteractions.title')}
        actions={
          <>
            <ExportButton download={exportList} />
            {rights.create ? (
              <Button component={Link} to="/safety-interactions/new">
                {t('safetyInteractions.list.newInteraction')}
              </Button>
            ) : null}
          </>
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('safetyInteractions.list.search')} />
        <Select
          label={t('safetyInteractions.fields.site')}
          placeholder={t('safetyInteractions.list.allSites')}
          clearable
          data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={siteId}
          onChange={filter(setSiteId)}
          w={{ base: '100%', xs: 200 }}
        />
        <Select
          label={t('safetyInteractions.fields.topic')}
          placeholder={t('safetyInteractions.list.allTopics')}
          clearable
          data={SI_TOPICS.map((x) => ({ value: x, label: t(`safetyInteractions.topics.${x}`) }))}
          value={topic}
          onChange={filter(setTopic)}
          w={{ base: '100%', xs: 200 }}
        />
        <Select
          label={t('safetyInteractions.fields.status')}
          placeholder={t('safetyInteractions.list.allStatuses')}
          clearable
          data={SI_STATUSES.map((x) => ({ value: x, label: t(`safetyInteractions.statuses.${x}`) }))}
          value={status}
          onChange={filter(setStatus)}
          w={{ base: '100%', xs: 160 }}
        />
        <div style={{ width: 'min(100%, 240px)' }}>
          <PeoplePicker
            label={t('safetyInteractions.fields.observer')}
            placeholder={t('safetyInteractions.list.everyone')}
            value={observerId}
            onChange={filter((id: string | null) => setObserverId(id))}
          />
        </div>
        <TextInput
          type="date"
          label={t('safetyInteractions.list.from')}
          value={from}
          onChange={(e) => filter(setFrom)(e.currentTarget.value)}
          w={{ base: '100%', xs: 160 }}
        />
        <TextInput
          type="date"
          label={t('safetyInteractions.list.to')}
          value={to}
          onChange={(e) => filter(setTo)(e.currentTarget.value)}
          w={{ base: '100%', xs: 160 }}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(r) => r.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={
          list.search || siteId || topic || status || observerId || from || to ? t('kit.noResults') : t('safetyInteractions.list.empty')
        }
        pagination={list.pagination}
        totalLabel={
          // A search counts at most 1,000 matches: past them the total is a lower bound.
          list.pagination?.total_capped
            ? t('safetyInteractions.list.totalAtLeast', {
                count: list.pagination.total,
                total: list.pagination.total.toLocaleString(i18n.language),
              })
            : undefined
        }
        onPage={list.setPage}
        caption={t('safetyInteractions.title')}
      />
      {dialog}
    </Stack>
  );
}

import type { SiteResponse } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, SegmentedControl, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { DataTable, ExportButton, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { SITES_KEY, useSiteCommands, useSiteListExport, useSiteListLoader, useSitesRefresh } from './sites-api.js';
import { useSiteRight } from './use-site-rights.js';

type ActiveFilter = 'all' | 'active' | 'inactive';

/** /sites: the organisation's sites, searched, filtered by status, paged, exported; deactivation asks first. */
export function SiteList() {
  const { t } = useTranslation();
  const commands = useSiteCommands();
  const refresh = useSitesRefresh();
  const [active, setActive] = useState<ActiveFilter>('all');
  const list = usePagedList<SiteResponse>({
    queryKey: SITES_KEY,
    load: useSiteListLoader(),
    filters: { active: active === 'all' ? undefined : active },
  });
  const exportList = useSiteListExport(list.exportQuery);
  const [confirm, dialog] = useConfirm();
  const [busyId, setBusyId] = useState<string | null>(null);

  const mayCreate = useSiteRight('create');
  const mayUpdate = useSiteRight('update');

  async function toggle(site: SiteResponse) {
    if (site.is_active) {
      const ok = await confirm({
        title: t('sites.list.confirmDeactivateTitle', { name: site.name }),
        message: t('sites.list.confirmDeactivateBody'),
        confirmLabel: t('sites.list.deactivate'),
        danger: true,
      });
      if (!ok) return;
    }
    setBusyId(site.id);
    try {
      await commands.setActive(site.id, !site.is_active);
      notifySuccess(t(site.is_active ? 'sites.list.deactivated' : 'sites.list.activated'));
      await refresh();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  const columns: Column<SiteResponse>[] = [
    {
      key: 'name',
      header: t('sites.fields.name'),
      render: (s) => (
        <Anchor component={Link} to={`/sites/edit/${s.id}`} fw={500}>
          {s.name}
        </Anchor>
      ),
    },
    { key: 'code', header: t('sites.fields.siteCode'), render: (s) => s.site_code ?? '—', hideOnPhone: true },
    { key: 'city', header: t('sites.fields.city'), render: (s) => `${s.city}, ${s.country}`, hideOnPhone: true },
    { key: 'tz', header: t('sites.fields.timeZone'), render: (s) => s.time_zone, hideOnPhone: true },
    { key: 'hos', header: t('sites.fields.headOfSafety'), render: (s) => s.head_of_safety?.full_name ?? '—', hideOnPhone: true },
    {
      key: 'status',
      header: t('sites.fields.status'),
      render: (s) => (
        <Badge color={s.is_active ? 'teal' : 'gray'} variant="light">
          {t(s.is_active ? 'sites.list.active' : 'sites.list.inactive')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('sites.list.actions'),
      render: (s) => (
        <Group gap={6} wrap="wrap">
          <Button
            component={Link}
            to={`/sites/edit/${s.id}`}
            size="compact-sm"
            variant="light"
            aria-label={`${t('sites.list.edit')}: ${s.name}`}
          >
            {t('sites.list.edit')}
          </Button>
          <Button
            component={Link}
            to={`/sites/${s.id}/divisions`}
            size="compact-sm"
            variant="light"
            aria-label={`${t('sites.list.divisions')}: ${s.name}`}
          >
            {t('sites.list.divisions')}
          </Button>
          {mayUpdate ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color={s.is_active ? 'red' : 'teal'}
              loading={busyId === s.id}
              onClick={() => void toggle(s)}
              aria-label={`${t(s.is_active ? 'sites.list.deactivate' : 'sites.list.activate')}: ${s.name}`}
            >
              {t(s.is_active ? 'sites.list.deactivate' : 'sites.list.activate')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t('sites.title')}
        actions={
          <>
            <ExportButton download={exportList} />
            {mayCreate ? (
              <Button component={Link} to="/sites/new">
                {t('sites.list.newSite')}
              </Button>
            ) : null}
          </>
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('sites.list.search')} />
        <SegmentedControl
          aria-label={t('sites.list.filter')}
          value={active}
          onChange={(v) => {
            setActive(v as ActiveFilter);
            list.setPage(1);
          }}
          data={[
            { value: 'all', label: t('sites.list.all') },
            { value: 'active', label: t('sites.list.activeOnly') },
            { value: 'inactive', label: t('sites.list.inactiveOnly') },
          ]}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(s) => s.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={list.search ? t('kit.noResults') : t('sites.list.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
      />
      {dialog}
    </Stack>
  );
}

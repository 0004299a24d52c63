import { ehsOcpSchema, type EhsOcp } from '@bulwark/domain';
import { Alert, Badge, Button, Group, Modal, MultiSelect, SegmentedControl, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { DataTable, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { OCP_KEY, useOcpListLoader, useOcpSiteOptions, useSettingsCommands } from './settings-api.js';

type ActiveFilter = 'all' | 'true' | 'false';
type Editing = { mode: 'add' } | { mode: 'edit'; ocp: EhsOcp };

/** /ehs-ocp (admin): the EHS operational control procedures with their sites; deactivated, never deleted. */
export function EhsOcpPage() {
  const { t } = useTranslation();
  const commands = useSettingsCommands();
  const [active, setActive] = useState<ActiveFilter>('all');
  const list = usePagedList<EhsOcp>({
    queryKey: OCP_KEY,
    load: useOcpListLoader(),
    filters: { active: active === 'all' ? undefined : active },
  });
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirm, dialog] = useConfirm();
  const [busyId, setBusyId] = useState<string | null>(null);

  async function toggle(ocp: EhsOcp) {
    if (ocp.active) {
      const ok = await confirm({
        title: t('settings.ocp.deactivateTitle'),
        message: t('settings.ocp.deactivateConfirm', { code: ocp.code }),
        confirmLabel: t('settings.ocp.deactivate'),
        danger: true,
      });
      if (!ok) return;
    }
    setBusyId(ocp.id);
    try {
      await commands.setOcpActive(ocp.id, !ocp.active);
      notifySuccess(t('settings.ocp.updated'));
      await commands.refreshOcps();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  const columns: Column<EhsOcp>[] = [
    { key: 'code', header: t('settings.ocp.code'), render: (o) => <Text fw={500}>{o.code}</Text>, width: 120 },
    { key: 'title', header: t('settings.ocp.name'), render: (o) => o.title },
    {
      key: 'sites',
      header: t('settings.ocp.sites'),
      hideOnPhone: true,
      render: (o) => (o.sites.length === 0 ? '—' : o.sites.map((s) => s.name).join(', ')),
    },
    {
      key: 'status',
      header: t('settings.ocp.status'),
      render: (o) => (
        <Badge color={o.active ? 'teal' : 'gray'} variant="light">
          {t(o.active ? 'settings.ocp.active' : 'settings.ocp.inactive')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('settings.ocp.actions'),
      render: (o) => (
        <Group gap={6} wrap="wrap">
          <Button
            size="compact-sm"
            variant="light"
            onClick={() => setEditing({ mode: 'edit', ocp: o })}
            aria-label={`${t('settings.ocp.edit')}: ${o.code}`}
          >
            {t('kit.edit')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color={o.active ? 'red' : undefined}
            loading={busyId === o.id}
            onClick={() => void toggle(o)}
            aria-label={`${t(o.active ? 'settings.ocp.deactivate' : 'settings.ocp.activate')}: ${o.code}`}
          >
            {t(o.active ? 'settings.ocp.deactivate' : 'settings.ocp.activate')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <>
      <PageHeader
        title={t('screen.ehsOcp')}
        description={t('settings.ocp.intro')}
        actions={<Button onClick={() => setEditing({ mode: 'add' })}>{t('settings.ocp.add')}</Button>}
      />
      <Group mb="sm" gap="sm" wrap="wrap">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('settings.ocp.search')} />
        <SegmentedControl
          value={active}
          onChange={(v) => setActive(v as ActiveFilter)}
          aria-label={t('settings.ocp.status')}
          data={[
            { value: 'all', label: t('kit.all') },
            { value: 'true', label: t('settings.ocp.active') },
            { value: 'false', label: t('settings.ocp.inactive') },
          ]}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(o) => o.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={list.search || active !== 'all' ? t('settings.ocp.noMatch') : t('settings.ocp.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
      />
      {editing ? <OcpDialog editing={editing} onClose={() => setEditing(null)} /> : null}
      {dialog}
    </>
  );
}

function OcpDialog({ editing, onClose }: { editing: Editing; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useSettingsCommands();
  const current = editing.mode === 'edit' ? editing.ocp : null;
  const [code, setCode] = useState(current?.code ?? '');
  const [title, setTitle] = useState(current?.title ?? '');
  const [description, setDescription] = useState(current?.description ?? '');
  const [siteIds, setSiteIds] = useState<string[]>(current?.sites.map((s) => s.id) ?? []);
  const [active, setActive] = useState(current?.active ?? true);
  const form = useFormSubmit();
  const sites = useOcpSiteOptions();
  // Sites already linked stay choosable even when inactive.
  const options = [
    ...(sites.data ?? []).map((s) => ({ value: s.id, label: s.name })),
    ...(current?.sites ?? []).map((s) => ({ value: s.id, label: s.name })),
  ].filter((o, i, all) => all.findIndex((x) => x.value === o.value) === i);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(ehsOcpSchema, { code, title, description, site_ids: siteIds, active }, t);
    const ocp = checked.data;
    if (form.refuse(checked.errors) || !ocp) return;
    await form.run(async () => {
      if (current) await commands.updateOcp(current.id, ocp);
      else await commands.createOcp(ocp);
      notifySuccess(t(current ? 'settings.ocp.updated' : 'settings.ocp.created'));
      await commands.refreshOcps();
      onClose();
    });
  }

  return (
    <Modal opened onClose={onClose} title={t(current ? 'settings.ocp.edit' : 'settings.ocp.add')} size="lg">
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <TextInput
            label={t('settings.ocp.code')}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={form.errors['code']}
            required
            maxLength={30}
            data-autofocus
          />
          <TextInput
            label={t('settings.ocp.name')}
            value={title}
            onChange={(e) => setTitle(e.currentTarget.value)}
            error={form.errors['title']}
            required
            maxLength={200}
          />
          <Textarea
            label={t('settings.ocp.description')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={form.errors['description']}
            autosize
            minRows={3}
            maxLength={5000}
          />
          <MultiSelect
            label={t('settings.ocp.sites')}
            data={options}
            value={siteIds}
            onChange={setSiteIds}
            searchable
            clearable
            placeholder={siteIds.length === 0 ? t('settings.ocp.allSites') : undefined}
            error={form.errors['site_ids']}
            nothingFoundMessage={t('kit.noResults')}
          />
          <Switch label={t('settings.ocp.active')} checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('common.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

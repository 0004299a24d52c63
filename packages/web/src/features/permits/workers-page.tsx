import type { Worker } from '@bulwark/domain';
import { Badge, Button, Group, Modal, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useFormats } from '../../ui/format.js';
import { DataTable, ExportButton, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { WORKERS_KEY, useWorkerCommands, useWorkerListLoader } from './permit-settings-api.js';
import { useRight } from './permits-api.js';
import { WorkerForm } from './worker-form.js';
import { WorkerLine } from './workers-step.js';

type Status = 'active' | 'inactive' | 'all';

/**
 * /worker-profile (spec 001 §2, §3): the worker profiles permits name, searched by name, phone or ID;
 * a new profile (Permit create) and edits or switching off (Permit Form Setting update).
 */
export function WorkersPage() {
  const { t } = useTranslation();
  const f = useFormats();
  const commands = useWorkerCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [status, setStatus] = useState<Status>('active');
  const [editing, setEditing] = useState<Worker | 'new' | null>(null);
  const mayCreate = useRight('Permit', 'create');
  const mayEdit = useRight('Permit Form Setting', 'update');
  const list = usePagedList<Worker>({ queryKey: [...WORKERS_KEY, 'list'], load: useWorkerListLoader(), filters: { status } });

  async function switchActive(w: Worker) {
    if (w.active && !(await confirm({ message: t('permitsWeb.workers.offConfirm', { name: w.name }), danger: true }))) return;
    try {
      await commands.update(w.id, { active: !w.active });
      notifySuccess(t('kit.saved'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  const columns: Column<Worker>[] = [
    { key: 'worker', header: t('permits.fields.name'), render: (w) => <WorkerLine worker={w} /> },
    {
      key: 'more',
      header: `${t('permits.fields.age')} · ${t('permits.fields.gender')}`,
      render: (w) => [w.age ?? null, w.gender ? t(`permits.genders.${w.gender}`) : null].filter((x) => x !== null).join(' · ') || '—',
      hideOnPhone: true,
    },
    {
      key: 'used',
      header: t('permits.fields.lastUsed'),
      render: (w) => (w.last_used_at ? f.instant(w.last_used_at) : '—'),
      hideOnPhone: true,
    },
    {
      key: 'status',
      header: t('permits.fields.active'),
      render: (w) => (
        <Badge variant="light" color={w.active ? 'teal' : 'gray'}>
          {w.active ? t('kit.active') : t('kit.inactive')}
        </Badge>
      ),
      hideOnPhone: true,
    },
    ...(mayEdit
      ? [
          {
            key: 'actions',
            header: t('kit.actions'),
            render: (w: Worker) => (
              <Group gap={4} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => setEditing(w)}
                  aria-label={t('permitsWeb.workers.editOf', { name: w.name })}
                >
                  {t('kit.edit')}
                </Button>
                <Button size="compact-sm" variant="subtle" color={w.active ? 'red' : 'teal'} onClick={() => void switchActive(w)}>
                  {w.active ? t('permitsWeb.masters.off') : t('permitsWeb.masters.on')}
                </Button>
              </Group>
            ),
          },
        ]
      : []),
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t('screen.workerProfile')}
        description={t('permitsWeb.workers.help')}
        actions={
          <>
            <ExportButton download={() => commands.exportRows(list.exportQuery)} />
            {mayCreate ? <Button onClick={() => setEditing('new')}>{t('permitsWeb.workers.formTitle')}</Button> : null}
          </>
        }
      />
      <Group gap="xs" wrap="wrap">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('permitsWeb.request.searchWorkers')} />
        <SegmentedControl
          value={status}
          onChange={(v) => {
            setStatus(v as Status);
            list.setPage(1);
          }}
          data={[
            { value: 'active', label: t('kit.active') },
            { value: 'inactive', label: t('kit.inactive') },
            { value: 'all', label: t('kit.all') },
          ]}
        />
      </Group>
      <Text size="xs" c="dimmed">
        {t('permitsWeb.request.searchWorkersHint')}
      </Text>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(w) => w.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={list.search ? t('kit.noResults') : t('permitsWeb.workers.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t('screen.workerProfile')}
      />
      <Modal
        opened={editing !== null}
        onClose={() => setEditing(null)}
        title={editing === 'new' ? t('permitsWeb.workers.formTitle') : t('permitsWeb.workers.editTitle')}
      >
        {editing ? (
          <WorkerForm
            worker={editing === 'new' ? null : editing}
            onCancel={() => setEditing(null)}
            onSaved={(w) => {
              notifySuccess(t('permitsWeb.workers.saved', { name: w.name }));
              setEditing(null);
            }}
          />
        ) : null}
      </Modal>
      {confirmDialog}
    </Stack>
  );
}

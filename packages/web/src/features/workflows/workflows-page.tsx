import { WORKFLOW_MODULES, type Workflow, type WorkflowModule } from '@bulwark/domain';
import { Badge, Button, Group, Select, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useRight } from '../categories/categories-api.js';
import { DataTable, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { WorkflowForm } from './workflow-form.js';
import { WORKFLOWS_KEY, useWorkflowCommands, useWorkflowListLoader } from './workflows-api.js';

/** /workflows: the review workflows, filtered by module, searched, paged; added and changed in a dialog. */
export function WorkflowsPage() {
  const { t } = useTranslation();
  const commands = useWorkflowCommands();
  const queryClient = useQueryClient();
  const [module, setModule] = useState<WorkflowModule | null>(null);
  const list = usePagedList<Workflow>({ queryKey: WORKFLOWS_KEY, load: useWorkflowListLoader(), filters: { module } });
  const [editing, setEditing] = useState<{ workflow: Workflow | null; key: number } | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirm, dialog] = useConfirm();
  const mayCreate = useRight('WorkFlow', 'create');
  const mayUpdate = useRight('WorkFlow', 'update');
  const mayDelete = useRight('WorkFlow', 'delete');

  async function remove(w: Workflow) {
    const ok = await confirm({
      title: t('workflows.confirm.deleteTitle', { title: w.title }),
      message: t('workflows.confirm.deleteBody'),
      confirmLabel: t('workflows.actions.delete'),
      danger: true,
    });
    if (!ok) return;
    setBusyId(w.id);
    try {
      await commands.remove(w.id);
      notifySuccess(t('workflows.notices.deleted', { title: w.title }));
      await queryClient.invalidateQueries({ queryKey: WORKFLOWS_KEY });
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  const columns: Column<Workflow>[] = [
    {
      key: 'title',
      header: t('workflows.fields.title'),
      render: (w) => (
        <Text fw={500} size="sm">
          {w.title}
        </Text>
      ),
    },
    { key: 'module', header: t('workflows.fields.module'), render: (w) => t(`workflows.modules.${w.module}`) },
    {
      key: 'type',
      header: t('workflows.fields.type'),
      render: (w) => <Badge variant="light">{t(`workflows.types.${w.type}`)}</Badge>,
      hideOnPhone: true,
    },
    {
      key: 'reviewers',
      header: t('workflows.fields.reviewers'),
      render: (w) => (
        <Text size="sm">
          {w.reviewers
            .map((r) => (r.status === 'Active' ? r.full_name : t('workflows.reviewers.deletedUser', { name: r.full_name })))
            .join(w.type === 'sequential' ? ' → ' : ', ')}
        </Text>
      ),
    },
    {
      key: 'lead',
      header: t('workflows.fields.leadTime'),
      render: (w) => t('workflows.list.hours', { count: w.lead_time_hours }),
      hideOnPhone: true,
    },
    {
      key: 'applies',
      header: t('workflows.fields.appliesTo'),
      render: (w) =>
        [
          w.site_ids.length ? t('workflows.list.sitesCount', { count: w.site_ids.length }) : null,
          w.form_ids.length ? t('workflows.list.formsCount', { count: w.form_ids.length }) : null,
        ]
          .filter(Boolean)
          .join(', '),
      hideOnPhone: true,
    },
    {
      key: 'actions',
      header: t('kit.actions'),
      render: (w) => (
        <Group gap={6} wrap="wrap">
          {mayUpdate ? (
            <Button
              size="compact-sm"
              variant="light"
              onClick={() => setEditing({ workflow: w, key: Date.now() })}
              aria-label={`${t('workflows.actions.edit')}: ${w.title}`}
            >
              {t('workflows.actions.edit')}
            </Button>
          ) : null}
          {mayDelete ? (
            <Button
              size="compact-sm"
              variant="subtle"
              color="red"
              loading={busyId === w.id}
              onClick={() => void remove(w)}
              aria-label={`${t('workflows.actions.delete')}: ${w.title}`}
            >
              {t('workflows.actions.delete')}
            </Button>
          ) : null}
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t('workflows.title')}
        description={t('workflows.subtitle')}
        actions={
          mayCreate ? <Button onClick={() => setEditing({ workflow: null, key: Date.now() })}>{t('workflows.actions.add')}</Button> : null
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('workflows.list.search')} />
        <Select
          label={t('workflows.fields.module')}
          placeholder={t('workflows.list.allModules')}
          data={WORKFLOW_MODULES.map((m) => ({ value: m, label: t(`workflows.modules.${m}`) }))}
          value={module}
          onChange={(v) => {
            setModule(v as WorkflowModule | null);
            list.setPage(1);
          }}
          clearable
          w={200}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(w) => w.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={list.search || module ? t('workflows.list.emptyFilter') : t('workflows.list.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t('workflows.title')}
      />
      {editing ? <WorkflowForm key={editing.key} workflow={editing.workflow} opened onClose={() => setEditing(null)} /> : null}
      {dialog}
    </Stack>
  );
}

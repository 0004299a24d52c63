import { CONTROL_LEVELS, masterCreateBody, type MasterEntry, type MasterKind } from '@bulwark/domain';
import { Alert, Badge, Button, Group, Modal, SegmentedControl, Select, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import {
  DataTable,
  ExcelImportDialog,
  ExportButton,
  PageHeader,
  SearchInput,
  useConfirm,
  usePagedList,
  type Column,
} from '../../ui/index.js';
import { MASTERS_KEY, useMasterCommands, useMasterListLoader } from './permit-settings-api.js';

type Status = 'active' | 'inactive' | 'all';

/** Each master's screen: its page is titled as its menu entry (`screen.*`). */
const SCREEN_OF: Record<MasterKind, string> = {
  hierarchy_of_controls: 'hierarchyOfControls',
  activity: 'activityMasters',
  equipment: 'equipmentMaster',
  rescue: 'rescueMaster',
};

/**
 * One of the four permit masters (admin only, spec 000 §6): its entries with search and status,
 * create, edit, switch off (an entry is never deleted: permits that picked it keep reading it), and
 * Excel import and export.
 */
function MastersPage({ kind }: { kind: MasterKind }) {
  const { t } = useTranslation();
  const commands = useMasterCommands(kind);
  const [confirm, confirmDialog] = useConfirm();
  const [status, setStatus] = useState<Status>('active');
  const [editing, setEditing] = useState<MasterEntry | 'new' | null>(null);
  const [importing, setImporting] = useState(false);
  const list = usePagedList<MasterEntry>({
    queryKey: [...MASTERS_KEY, kind, 'list'],
    load: useMasterListLoader(kind),
    filters: { status },
  });
  const hoc = kind === 'hierarchy_of_controls';

  async function switchOff(e: MasterEntry) {
    const on = !e.active;
    if (!on && !(await confirm({ message: t('permitsWeb.masters.offConfirm', { name: e.name }), danger: true }))) return;
    try {
      await commands.update(e.id, { active: on });
      notifySuccess(on ? t('permitsWeb.masters.switchedOn', { name: e.name }) : t('permitsWeb.masters.switchedOff', { name: e.name }));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  const columns: Column<MasterEntry>[] = [
    {
      key: 'name',
      header: t('permits.fields.name'),
      render: (e) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {e.name}
          </Text>
          {e.description ? (
            <Text size="xs" c="dimmed" lineClamp={2}>
              {e.description}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    ...(hoc
      ? [
          {
            key: 'level',
            header: t('permits.fields.controlLevel'),
            render: (e: MasterEntry) => (e.control_level ? t(`actions.controlType.${e.control_level}`) : '—'),
            hideOnPhone: true,
          },
        ]
      : []),
    {
      key: 'active',
      header: t('permits.fields.active'),
      render: (e) => (
        <Badge variant="light" color={e.active ? 'teal' : 'gray'}>
          {e.active ? t('kit.active') : t('kit.inactive')}
        </Badge>
      ),
      hideOnPhone: true,
    },
    {
      key: 'actions',
      header: t('kit.actions'),
      render: (e) => (
        <Group gap={4} wrap="nowrap">
          <Button
            size="compact-sm"
            variant="subtle"
            onClick={() => setEditing(e)}
            aria-label={t('permitsWeb.masters.editOf', { name: e.name })}
          >
            {t('kit.edit')}
          </Button>
          <Button
            size="compact-sm"
            variant="subtle"
            color={e.active ? 'red' : 'teal'}
            onClick={() => void switchOff(e)}
            aria-label={e.active ? t('permitsWeb.masters.offOf', { name: e.name }) : t('permitsWeb.masters.onOf', { name: e.name })}
          >
            {e.active ? t('permitsWeb.masters.off') : t('permitsWeb.masters.on')}
          </Button>
        </Group>
      ),
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t(`screen.${SCREEN_OF[kind]}`)}
        description={t(`permitsWeb.masters.help.${kind}`)}
        actions={
          <>
            <Button variant="default" onClick={() => setImporting(true)}>
              {t('kit.import')}
            </Button>
            <ExportButton download={() => commands.exportRows(list.exportQuery)} />
            <Button onClick={() => setEditing('new')}>{t('permitsWeb.masters.new')}</Button>
          </>
        }
      />
      <Group gap="xs" wrap="wrap">
        <SearchInput value={list.search} onChange={list.setSearch} />
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
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(e) => e.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={list.search ? t('kit.noResults') : t('permitsWeb.masters.empty')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t(`permits.masterKinds.${kind}`)}
      />
      {editing ? <MasterForm kind={kind} entry={editing === 'new' ? null : editing} onClose={() => setEditing(null)} /> : null}
      <ExcelImportDialog
        opened={importing}
        onClose={() => setImporting(false)}
        template={commands.importTemplate}
        upload={commands.importWorkbook}
        onImported={commands.refresh}
        texts={{
          title: 'permitsWeb.masters.import.title',
          help: 'permitsWeb.masters.import.help',
          template: 'kit.downloadTemplate',
          choose: 'permitsWeb.masters.import.choose',
          upload: 'kit.import',
          noFile: 'permitsWeb.masters.import.noFile',
          failed: 'permits.masters.import.failed',
          done: 'permitsWeb.masters.import.done',
          row: 'permitsWeb.masters.import.row',
          field: 'permitsWeb.masters.import.field',
          message: 'permitsWeb.masters.import.message',
        }}
        fieldLabel={(f) => (['name', 'description', 'control_level', 'active'].includes(f) ? t(`permits.masters.import.columns.${f}`) : f)}
      />
      {confirmDialog}
    </Stack>
  );
}

function MasterForm({ kind, entry, onClose }: { kind: MasterKind; entry: MasterEntry | null; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useMasterCommands(kind);
  const form = useFormSubmit();
  const hoc = kind === 'hierarchy_of_controls';
  const [v, setV] = useState({
    name: entry?.name ?? '',
    description: entry?.description ?? '',
    control_level: entry?.control_level ?? null,
  });
  async function save() {
    const body = { name: v.name, description: v.description.trim() || null, control_level: hoc ? v.control_level : null };
    const found = validate(masterCreateBody, body, t).errors ?? {};
    if (hoc && !body.control_level) found['control_level'] = t('permits.validation.controlLevel');
    if (form.refuse(Object.keys(found).length > 0 ? found : null)) return;
    await form.run(async () => {
      if (entry) await commands.update(entry.id, body);
      else await commands.create(body);
      notifySuccess(t('kit.saved'));
      onClose();
    });
  }
  return (
    <Modal opened onClose={onClose} title={entry ? t('permitsWeb.masters.edit') : t('permitsWeb.masters.new')}>
      <Stack gap="sm" component="form" onSubmit={(e) => (e.preventDefault(), void save())}>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <TextInput
          label={t('permits.fields.name')}
          withAsterisk
          value={v.name}
          onChange={(e) => setV({ ...v, name: e.currentTarget.value })}
          error={form.errors['name']}
          data-autofocus
        />
        <Textarea
          label={t('permitsWeb.masters.description')}
          autosize
          minRows={2}
          value={v.description}
          onChange={(e) => setV({ ...v, description: e.currentTarget.value })}
          error={form.errors['description']}
        />
        {hoc ? (
          <Select
            label={t('permits.fields.controlLevel')}
            withAsterisk
            data={CONTROL_LEVELS.map((l) => ({ value: l, label: t(`actions.controlType.${l}`) }))}
            value={v.control_level}
            onChange={(l) => setV({ ...v, control_level: l as typeof v.control_level })}
            error={form.errors['control_level']}
            comboboxProps={{ withinPortal: true }}
          />
        ) : null}
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('common.save')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export const HierarchyOfControlsPage = () => <MastersPage kind="hierarchy_of_controls" />;
export const ActivityMastersPage = () => <MastersPage kind="activity" />;
export const EquipmentMasterPage = () => <MastersPage kind="equipment" />;
export const RescueMasterPage = () => <MastersPage kind="rescue" />;

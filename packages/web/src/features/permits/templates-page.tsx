import { permitTemplateCreateBody, type PermitTemplateSummary } from '@bulwark/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  NumberInput,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { DataTable, PageHeader, SearchInput, useConfirm, type Column } from '../../ui/index.js';
import { ClashMatrix } from './clash-matrix.js';
import { usePermitTemplates, useTemplateCommands } from './permit-templates-api.js';
import { useRight } from './permits-api.js';
import { TemplateBuilderPage } from './template-builder-page.js';

/** The `permitForms` screen: the template list, or one template's builder (/permit-forms/:id). */
export function PermitFormsPage() {
  const { id } = useParams();
  return id ? <TemplateBuilderPage key={id} id={id} /> : <TemplatesList />;
}

/**
 * /permit-forms (spec 001 §2, §3; spec 000 settings "enable switches per template type"): the
 * templates with their switches, a new template, and the clash matrix of which types conflict.
 */
function TemplatesList() {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const templates = usePermitTemplates(search);
  const commands = useTemplateCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [creating, setCreating] = useState(false);
  const mayCreate = useRight('Permit Form Setting', 'create');
  const mayEdit = useRight('Permit Form Setting', 'update');
  const mayDelete = useRight('Permit Form Setting', 'delete');

  async function toggle(tpl: PermitTemplateSummary, enabled: boolean) {
    if (!enabled && !(await confirm({ message: t('permitsWeb.templates.offConfirm', { name: tpl.name }) }))) return;
    try {
      await commands.update(tpl.id, { enabled });
      notifySuccess(
        enabled ? t('permitsWeb.templates.switchedOn', { name: tpl.name }) : t('permitsWeb.templates.switchedOff', { name: tpl.name }),
      );
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }
  async function remove(tpl: PermitTemplateSummary) {
    if (!(await confirm({ message: t('kit.deleteConfirm', { name: tpl.name }), danger: true }))) return;
    try {
      await commands.remove(tpl.id);
      notifySuccess(t('kit.deleted'));
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    }
  }

  const columns: Column<PermitTemplateSummary>[] = [
    {
      key: 'name',
      header: t('permitsWeb.templates.name'),
      render: (tpl) => (
        <Stack gap={2}>
          <Group gap={6} wrap="nowrap">
            <Anchor component={Link} to={`/permit-forms/${tpl.id}`} fw={600}>
              {tpl.name}
            </Anchor>
            <Badge variant="light" size="sm">
              {tpl.prefix}
            </Badge>
          </Group>
          <Text size="xs" c="dimmed" lineClamp={2}>
            {tpl.description}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'content',
      header: t('permitsWeb.templates.content'),
      render: (tpl) => (
        <Text size="sm">
          {t('permitsWeb.templates.counts', { sections: tpl.sections_count, questions: tpl.questions_count, permits: tpl.permits_count })}
        </Text>
      ),
      hideOnPhone: true,
    },
    {
      key: 'enabled',
      header: t('permitsWeb.templates.enabled'),
      render: (tpl) => (
        <Switch
          checked={tpl.enabled}
          disabled={!mayEdit}
          onChange={(e) => void toggle(tpl, e.currentTarget.checked)}
          aria-label={t('permitsWeb.templates.switchOf', { name: tpl.name })}
        />
      ),
      width: 90,
    },
    {
      key: 'actions',
      header: t('kit.actions'),
      render: (tpl) =>
        mayDelete && tpl.permits_count === 0 ? (
          <Button
            size="compact-sm"
            variant="subtle"
            color="red"
            onClick={() => void remove(tpl)}
            aria-label={t('permitsWeb.templates.deleteOf', { name: tpl.name })}
          >
            {t('kit.delete')}
          </Button>
        ) : null,
      hideOnPhone: true,
    },
  ];

  return (
    <Stack gap="md">
      <PageHeader
        title={t('screen.permitForms')}
        description={t('permitsWeb.templates.help')}
        actions={mayCreate ? <Button onClick={() => setCreating(true)}>{t('permitsWeb.templates.new')}</Button> : null}
      />
      <SearchInput value={search} onChange={setSearch} label={t('permitsWeb.templates.search')} />
      <DataTable
        columns={columns}
        rows={templates.data}
        rowKey={(tpl) => tpl.id}
        loading={templates.isFetching}
        error={templates.isError}
        emptyText={search ? t('kit.noResults') : t('permitsWeb.templates.empty')}
        caption={t('screen.permitForms')}
      />
      {templates.data && templates.data.length > 0 && !search ? <ClashMatrix templates={templates.data} readOnly={!mayEdit} /> : null}
      <CreateTemplate opened={creating} onClose={() => setCreating(false)} />
      {confirmDialog}
    </Stack>
  );
}

function CreateTemplate({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const commands = useTemplateCommands();
  const form = useFormSubmit();
  const empty = { name: '', description: '', prefix: '', default_hours: 8, extension_hours: 4, enabled: true };
  const [v, setV] = useState(empty);
  const set = (change: Partial<typeof v>) => setV((x) => ({ ...x, ...change }));
  async function save() {
    if (form.refuse(validate(permitTemplateCreateBody, v, t).errors)) return;
    await form.run(async () => {
      const created = await commands.create(v);
      notifySuccess(t('permitsWeb.templates.created', { name: created.name }));
      setV(empty);
      onClose();
      navigate(`/permit-forms/${created.id}`);
    });
  }
  const e = form.errors;
  return (
    <Modal opened={opened} onClose={onClose} title={t('permitsWeb.templates.new')} size="lg">
      <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), void save())}>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Text size="sm" c="dimmed">
          {t('permitsWeb.templates.newHelp')}
        </Text>
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <TextInput
            label={t('permitsWeb.templates.name')}
            withAsterisk
            value={v.name}
            onChange={(ev) => set({ name: ev.currentTarget.value })}
            error={e['name']}
            data-autofocus
          />
          <TextInput
            label={t('permitsWeb.templates.prefix')}
            description={t('permitsWeb.templates.prefixHelp')}
            withAsterisk
            value={v.prefix}
            onChange={(ev) => set({ prefix: ev.currentTarget.value.toUpperCase() })}
            error={e['prefix']}
          />
        </SimpleGrid>
        <Textarea
          label={t('permitsWeb.templates.description')}
          withAsterisk
          autosize
          minRows={2}
          value={v.description}
          onChange={(ev) => set({ description: ev.currentTarget.value })}
          error={e['description']}
        />
        <SimpleGrid cols={2} spacing="sm">
          <NumberInput
            label={t('permitsWeb.templates.defaultHours')}
            min={1}
            max={168}
            allowDecimal={false}
            value={v.default_hours}
            onChange={(n) => set({ default_hours: Number(n) || 1 })}
            error={e['default_hours']}
          />
          <NumberInput
            label={t('permitsWeb.templates.extensionHours')}
            min={1}
            max={24}
            allowDecimal={false}
            value={v.extension_hours}
            onChange={(n) => set({ extension_hours: Number(n) || 1 })}
            error={e['extension_hours']}
          />
        </SimpleGrid>
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('permitsWeb.templates.create')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

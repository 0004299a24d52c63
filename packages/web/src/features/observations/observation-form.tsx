import { localDateIn, type Observation, type ObservationFormData } from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Group, Paper, Radio, Select, SimpleGrid, Stack, Switch, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import type { FieldErrors } from '../../ui/forms/validation.js';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { ActionRows } from './action-rows.js';
import { AttachmentsField, storedAttachment, uploadedIds, uploadsPending, type AttachmentItem } from './attachments-field.js';
import {
  canRemoveRow,
  createBody,
  draftOf,
  emptyActionRow,
  emptyDraft,
  setActionRequired,
  updateBody,
  withSite,
  withType,
  type Draft,
} from './form-model.js';
import { useEditedFields } from './edited-fields.js';
import { CommentField, DescriptionField, ObservedAtField, RiskLevelField } from './observation-fields.js';
import { useFormData, useIsGuest, useObservation, useObservationCommands, useObservationsRefresh } from './observations-api.js';
import { StatusBadge } from './status-badge.js';

/** /observations/new and /observations/edit/:id: the form in the list page's right panel. */
export function ObservationFormPanel({ id }: { id: string | null }) {
  const { t } = useTranslation();
  const formData = useFormData();
  const record = useObservation(id ?? undefined);
  const title = id ? t('observations.form.editTitle', { serial: record.data?.serial_label ?? '' }) : t('observations.form.newTitle');
  if (formData.isError)
    return <RecordLoadFailed title={title} error={formData.error} notFoundText={t('kit.loadFailed')} backTo="/observations/new" />;
  if (id && record.isError)
    return <RecordLoadFailed title={title} error={record.error} notFoundText={t('observationsWeb.notFound')} backTo="/observations/new" />;
  if (!formData.data || (id && !record.data)) return <PageLoader />;
  return <ObservationForm key={id ?? 'new'} formData={formData.data} record={record.data ?? null} />;
}

export function ObservationForm({ formData, record }: { formData: ObservationFormData; record: Observation | null }) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useObservationCommands();
  const navigate = useNavigate();
  const refresh = useObservationsRefresh();
  const form = useFormSubmit();
  // A guest raises no actions (it may not assign staff): its report needs none.
  const guest = useIsGuest();
  const [draft, setDraft] = useState<Draft>(() =>
    record ? draftOf(record) : { ...emptyDraft(), ...(guest ? { action_required: false } : {}) },
  );
  const [files, setFiles] = useState<AttachmentItem[]>(() =>
    (record?.attachments ?? []).map((a) =>
      storedAttachment({
        id: a.id,
        file_name: a.file_name,
        size: a.size_bytes,
        content_type: a.mime_type,
        thumbnail_url: a.mime_type.startsWith('image/') ? a.url : null,
      }),
    ),
  );
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const existing = record?.actions ?? [];
  const edits = useEditedFields();
  const errors: FieldErrors = edits.visible({ ...form.errors, ...clientErrors });

  const site = formData.sites.find((s) => s.id === draft.site_id);
  const zoneOf = (siteId: string) => formData.sites.find((s) => s.id === siteId)?.time_zone;
  const categories = formData.types.find((x) => x.type === draft.type)?.categories ?? [];
  const subCategories = categories.find((c) => c.id === draft.category_id)?.sub_categories ?? [];
  const now = new Date(services.now());
  const set = (change: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...change }));
    edits.edit(...Object.keys(change));
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    edits.reset();
    if (uploadsPending(files)) {
      setClientErrors({ attachment_ids: t('observationsWeb.attachments.wait') });
      return;
    }
    const zone = site?.time_zone;
    const edited = record ? updateBody(draft, uploadedIds(files), existing.length, zone, now) : null;
    const created = record ? null : createBody(draft, uploadedIds(files), zone, now);
    const refused = edited?.errors ?? created?.errors;
    if (refused) {
      const shown = Object.fromEntries(Object.entries(refused).map(([k, v]) => [k, t(v)]));
      setClientErrors(shown);
      form.refuse(null);
      focusFirstError();
      return;
    }
    setClientErrors({});
    await form.run(async () => {
      if (record && edited?.body) {
        await commands.update(record.id, edited.body);
        notifySuccess(t('observations.form.saved'));
        await refresh();
        void navigate(`/observations/summary/${record.id}`);
      } else if (created?.body) {
        const saved = await commands.create(created.body);
        notifySuccess(t('observations.form.created', { serial: saved.serial_label }));
        await refresh();
        void navigate(`/observations/summary/${saved.id}`);
      }
    });
    focusFirstError();
  }

  const typeOptions = formData.types.map((x) => ({ value: x.type, label: t(`categories.types.${x.type}`) }));
  const message = form.message ?? errors['_'] ?? null;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={form.busy} aria-labelledby="observation-form-title">
      <Stack gap="sm">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Title order={2} size="h3" id="observation-form-title">
            {record ? t('observations.form.editTitle', { serial: record.serial_label }) : t('observations.form.newTitle')}
          </Title>
          {record ? <StatusBadge status={record.status} /> : null}
        </Group>
        {message ? (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label={t('observations.fields.type')}
            withAsterisk
            data={typeOptions}
            value={draft.type}
            onChange={(v) => {
              setDraft((d) => withType(d, v));
              edits.edit('type', 'category_id', 'sub_category_id');
            }}
            error={errors['type']}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('observations.fields.category')}
            clearable
            searchable
            disabled={!draft.type || categories.length === 0}
            placeholder={draft.type && categories.length === 0 ? t('observationsWeb.form.noCategories') : undefined}
            data={categories.map((c) => ({ value: c.id, label: c.name }))}
            value={draft.category_id}
            onChange={(v) => set({ category_id: v, sub_category_id: null })}
            error={errors['category_id']}
            comboboxProps={{ withinPortal: true }}
          />
          {subCategories.length > 0 ? (
            <Select
              label={t('observations.fields.subCategory')}
              clearable
              data={subCategories.map((c) => ({ value: c.id, label: c.name }))}
              value={draft.sub_category_id}
              onChange={(v) => set({ sub_category_id: v })}
              error={errors['sub_category_id']}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
        </SimpleGrid>
        <DescriptionField value={draft.description} onChange={(description) => set({ description })} error={errors['description']} />
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Select
            label={t('observations.fields.site')}
            withAsterisk
            searchable
            data={formData.sites.map((s) => ({ value: s.id, label: s.name }))}
            value={draft.site_id}
            onChange={(v) => {
              setDraft((d) => withSite(d, v, zoneOf, new Date(services.now())));
              edits.edit('site_id', 'site_node_id');
            }}
            nothingFoundMessage={t('kit.noResults')}
            error={errors['site_id']}
            comboboxProps={{ withinPortal: true }}
          />
          <Select
            label={t('observations.fields.area')}
            clearable
            searchable
            disabled={!site || site.nodes.length === 0}
            placeholder={site && site.nodes.length === 0 ? t('observationsWeb.form.wholeSite') : undefined}
            data={(site?.nodes ?? []).map((n) => ({ value: n.id, label: n.full_name }))}
            value={draft.site_node_id}
            onChange={(v) => set({ site_node_id: v })}
            error={errors['site_node_id']}
            comboboxProps={{ withinPortal: true }}
          />
          <ObservedAtField
            zone={site?.time_zone}
            now={now}
            value={draft.observed_at}
            onChange={(observed_at) => set({ observed_at, observed_at_touched: true })}
            error={errors['observed_at']}
          />
          <RiskLevelField
            levels={formData.risk_levels}
            value={draft.risk_level}
            onChange={(risk_level) => set({ risk_level })}
            error={errors['risk_level']}
          />
        </SimpleGrid>
        <AttachmentsField
          label={t('observations.fields.attachments')}
          items={files}
          onChange={(update) => {
            setFiles(update);
            edits.edit('attachment_ids');
          }}
          upload={(file, onProgress) => commands.uploadAttachment(file, onProgress)}
          error={errors['attachment_ids']}
        />
        {guest ? null : (
          <Radio.Group
            label={t('observations.fields.actionRequired')}
            withAsterisk
            value={draft.action_required === null ? null : draft.action_required ? 'yes' : 'no'}
            onChange={(v) => {
              setDraft((d) => setActionRequired(d, v === 'yes', existing.length));
              edits.edit('action_required');
            }}
            error={errors['action_required']}
          >
            <Group gap="lg" mt={4}>
              <Radio value="yes" label={t('observations.fields.yes')} />
              <Radio value="no" label={t('observations.fields.no')} disabled={existing.length > 0} />
            </Group>
          </Radio.Group>
        )}
        {existing.length > 0 ? (
          <Paper withBorder p="sm" radius="sm">
            <Text size="sm" fw={600} mb={4}>
              {t('observationsWeb.form.raisedActions')}
            </Text>
            <Stack gap={4}>
              {existing.map((a) => (
                <Group key={a.id} gap="xs" wrap="nowrap">
                  <Badge variant="light" size="sm">
                    {t(`actions.status.${a.status}`)}
                  </Badge>
                  <Anchor component={Link} to={`/actions/observations/summary/${a.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {a.description}
                  </Anchor>
                </Group>
              ))}
            </Stack>
          </Paper>
        ) : null}
        {draft.action_required ? (
          <ActionRows
            rows={draft.actions}
            onChange={(actions) => set({ actions })}
            onAdd={() => {
              setDraft((d) => ({ ...d, actions: [...d.actions, emptyActionRow()] }));
              edits.edit(record ? 'add_actions' : 'actions');
            }}
            onEdit={edits.edit}
            canRemove={canRemoveRow(draft, existing.length)}
            formData={formData}
            errors={errors}
            prefix={record ? 'add_actions' : 'actions'}
            minDate={site ? localDateIn(site.time_zone, now) : undefined}
          />
        ) : null}
        <CommentField value={draft.comment} onChange={(comment) => set({ comment })} error={errors['comment']} />
        <Switch
          label={t('observations.fields.anonymous')}
          description={t('observations.form.anonymousHint')}
          checked={draft.anonymous}
          disabled={Boolean(record)}
          onChange={(e) => set({ anonymous: e.currentTarget.checked })}
        />
        <Group justify="flex-end" gap="xs" mt="xs">
          {record ? (
            <Button component={Link} to={`/observations/summary/${record.id}`} variant="default">
              {t('common.cancel')}
            </Button>
          ) : null}
          <Button type="submit" loading={form.busy} disabled={uploadsPending(files)}>
            {record ? t('observations.form.save') : t('observations.form.submit')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** After a refusal, the first field that says what is wrong gets the focus (keyboard and screen readers). */
function focusFirstError() {
  requestAnimationFrame(() => {
    const first = document.querySelector<HTMLElement>('form [aria-invalid="true"]');
    first?.focus();
  });
}

import type { Incident, IncidentFormData } from '@bulwark/domain';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import type { FieldErrors } from '../../ui/forms/validation.js';
import { useConfirm } from '../../ui/index.js';
import { AttachmentsField, storedAttachment, uploadedIds, uploadsPending, type AttachmentItem } from '../observations/attachments-field.js';
import { useEditedFields } from '../observations/edited-fields.js';
import { TourStop, useIncidentTour } from './incident-tour.js';
import { useIncidentCommands, useIncidentsRefresh, useIsGuest } from './incidents-api.js';
import {
  ActionTakenField,
  DescriptionField,
  focusFirstError,
  OccurredAtField,
  RatingFields,
  Section,
  ShiftField,
  YesNo,
} from './report-fields.js';
import { createBody, emptyReport, reportOf, unwrapErrors, updateBody, withSite, withType, type ReportDraft } from './report-model.js';
import { VictimsField } from './victims-field.js';

/** The error paths the form shows under a field; any other is said above the form. */
const SHOWN =
  /^(type|category_id|description|site_id|site_node_id|occurred_at|shift|severity|likelihood|investigation_required|action_taken|attachment_ids|osha_work_related|victims(\.\d+\.(type|name|employee_id|gender|age_range|body_parts|injury_details|treatment|return_to_work_date|osha(\.\w+)?))?)$/;

type Props = {
  formData: IncidentFormData;
  /** The incident to edit (step 1), or null for a new report. */
  record: Incident | null;
  /** After a saved edit (the step page shows the report again). */
  onSaved?: () => void;
  onCancel?: () => void;
};

/**
 * The report (step 1): what, where and when, the rating, the response, the victims with the body
 * diagram, and (staff) the OSHA facts. New reports and edits share it; an edit sends the whole report.
 */
export function ReportForm({ formData, record, onSaved, onCancel }: Props) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useIncidentCommands();
  const refresh = useIncidentsRefresh();
  const navigate = useNavigate();
  const form = useFormSubmit();
  const [confirm, confirmDialog] = useConfirm();
  const guest = useIsGuest();
  const tour = useIncidentTour(record === null && !guest);
  const [draft, setDraft] = useState<ReportDraft>(() => (record ? reportOf(record) : emptyReport()));
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
  const edits = useEditedFields();
  const errors = edits.visible({ ...unwrapErrors(form.errors), ...clientErrors });
  const site = formData.sites.find((s) => s.id === draft.site_id);
  const categories = formData.categories.find((c) => c.type === draft.type)?.categories ?? [];
  const now = new Date(services.now());
  const set = (change: Partial<ReportDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    edits.edit(...Object.keys(change));
  };
  const fieldProps = { draft, set, errors };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    edits.reset();
    if (uploadsPending(files)) {
      setClientErrors({ attachment_ids: t('observationsWeb.attachments.wait') });
      return;
    }
    const edited = record ? updateBody(draft, uploadedIds(files), site?.time_zone, now) : null;
    const created = record ? null : createBody(draft, uploadedIds(files), site?.time_zone, now);
    const refused = edited?.errors ?? created?.errors;
    if (refused) {
      setClientErrors(Object.fromEntries(Object.entries(refused).map(([k, v]) => [k, t(v)])));
      form.refuse(null);
      focusFirstError();
      return;
    }
    setClientErrors({});
    if (!(await confirm({ message: t(record ? 'incidentsWeb.form.confirmSave' : 'incidentsWeb.form.confirmSubmit') }))) return;
    await form.run(async () => {
      if (record && edited?.body) {
        await commands.update(record.id, edited.body);
        notifySuccess(t('incidentsWeb.form.saved'));
        onSaved?.();
      } else if (created?.body) {
        const saved = await commands.create({ incident: created.body });
        notifySuccess(t('incidentsWeb.form.created', { serial: saved.serial_label }));
        await refresh();
        void navigate(`/incidents/${saved.id}/steps/step1`);
      }
    });
    focusFirstError();
  }

  // A refusal keyed to something the form has no field for is said above the form.
  const unplaced = Object.entries(errors).find(([k]) => !SHOWN.test(k))?.[1];
  const message = form.message ?? unplaced ?? null;

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={form.busy} aria-labelledby="incident-form-title">
      <Stack gap="sm">
        <Title order={2} size="h3" id="incident-form-title">
          {record ? t('incidentsWeb.form.editTitle', { serial: record.serial_label }) : t('incidentsWeb.form.newTitle')}
        </Title>
        {message ? (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        ) : null}
        <TourStop tour={tour} stop="what">
          <Section title={t('incidentsWeb.form.what')} id="incident-what">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Select
                label={t('incidents.fields.type')}
                withAsterisk
                data={formData.types.map((x) => ({ value: x, label: t(`categories.types.${x}`) }))}
                value={draft.type}
                onChange={(v) => {
                  setDraft((d) => withType(d, v));
                  edits.edit('type', 'category_id');
                }}
                error={errors['type']}
                comboboxProps={{ withinPortal: true }}
              />
              <Select
                label={t('incidents.fields.category')}
                clearable
                searchable
                disabled={!draft.type || categories.length === 0}
                placeholder={draft.type && categories.length === 0 ? t('incidentsWeb.form.noCategories') : undefined}
                data={categories.map((c) => ({ value: c.id, label: c.name }))}
                value={draft.category_id}
                onChange={(category_id) => set({ category_id })}
                error={errors['category_id']}
                comboboxProps={{ withinPortal: true }}
              />
            </SimpleGrid>
            <DescriptionField {...fieldProps} />
          </Section>
        </TourStop>
        <TourStop tour={tour} stop="where">
          <Section title={t('incidentsWeb.form.where')} id="incident-where">
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Select
                label={t('incidents.fields.site')}
                withAsterisk
                searchable
                data={formData.sites.map((s) => ({ value: s.id, label: s.name }))}
                value={draft.site_id}
                onChange={(v) => {
                  const zone = formData.sites.find((s) => s.id === v)?.time_zone;
                  setDraft((d) => withSite(d, v, zone, new Date(services.now())));
                  edits.edit('site_id', 'site_node_id', 'occurred_at');
                }}
                nothingFoundMessage={t('kit.noResults')}
                error={errors['site_id']}
                comboboxProps={{ withinPortal: true }}
              />
              <Select
                label={t('incidents.fields.area')}
                clearable
                searchable
                disabled={!site || site.nodes.length === 0}
                placeholder={site && site.nodes.length === 0 ? t('incidentsWeb.form.wholeSite') : undefined}
                data={(site?.nodes ?? []).map((n) => ({ value: n.id, label: n.full_name }))}
                value={draft.site_node_id}
                onChange={(site_node_id) => set({ site_node_id })}
                error={errors['site_node_id']}
                comboboxProps={{ withinPortal: true }}
              />
              <OccurredAtField {...fieldProps} zone={site?.time_zone} now={now} />
              <ShiftField {...fieldProps} shifts={formData.shifts} />
            </SimpleGrid>
          </Section>
        </TourStop>
        <TourStop tour={tour} stop="rating">
          <Section title={t('incidentsWeb.form.rating')} id="incident-rating">
            <RatingFields {...fieldProps} choices={formData} />
            <YesNo
              label={t('incidents.fields.investigationRequired')}
              required
              value={draft.investigation_required}
              onChange={(investigation_required) => set({ investigation_required })}
              error={errors['investigation_required']}
            />
          </Section>
        </TourStop>
        <Section title={t('incidentsWeb.form.response')} id="incident-response">
          <ActionTakenField {...fieldProps} />
          <AttachmentsField
            label={t('incidents.fields.attachments')}
            items={files}
            onChange={(update) => {
              setFiles(update);
              edits.edit('attachment_ids');
            }}
            upload={async (file, onProgress) => (await commands.upload(file, onProgress, record ? { incidentId: record.id } : null)).id}
            error={errors['attachment_ids']}
          />
        </Section>
        <TourStop tour={tour} stop="victims">
          <VictimsField
            victims={draft.victims}
            onChange={(victims) => setDraft((d) => ({ ...d, victims }))}
            onEdit={edits.edit}
            choices={formData}
            errors={errors}
            osha={guest ? null : { injuryTypes: formData.osha.injury_types, privacyReasons: formData.osha.privacy_reasons }}
            minDate={draft.occurred_at.slice(0, 10) || undefined}
          />
        </TourStop>
        {guest ? null : (
          <Section title={t('incidentsWeb.form.osha')} id="incident-osha">
            <YesNo
              label={t('incidents.fields.oshaWorkRelated')}
              description={t('incidents.osha.workRelatedQuestion')}
              value={draft.osha_work_related}
              onChange={(osha_work_related) => set({ osha_work_related })}
              error={errors['osha_work_related']}
            />
          </Section>
        )}
        <Group justify="flex-end" gap="xs" mt="xs">
          {record ? (
            <Button variant="default" onClick={onCancel}>
              {t('common.cancel')}
            </Button>
          ) : (
            <Button component={Link} to="/incidents" variant="default">
              {t('common.cancel')}
            </Button>
          )}
          <Button type="submit" loading={form.busy} disabled={uploadsPending(files)}>
            {record ? t('incidentsWeb.form.save') : t('incidentsWeb.form.submit')}
          </Button>
        </Group>
      </Stack>
      {confirmDialog}
    </form>
  );
}

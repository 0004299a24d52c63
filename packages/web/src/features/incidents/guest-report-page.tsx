import { type IncidentCreated, type IncidentGuestFormData } from '@bulwark/domain';
import { Alert, Anchor, Button, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import type { FieldErrors } from '../../ui/forms/validation.js';
import { PageLoader, useConfirm } from '../../ui/index.js';
import { AttachmentsField, uploadedIds, uploadsPending, type AttachmentItem } from '../observations/attachments-field.js';
import { useEditedFields } from '../observations/edited-fields.js';
import { useIncidentCommands, useIncidentGuestFormData } from './incidents-api.js';
import {
  ActionTakenField,
  DescriptionField,
  focusFirstError,
  OccurredAtField,
  RatingFields,
  Section,
  ShiftField,
} from './report-fields.js';
import { emptyReport, guestBody, withSite, type ReportDraft } from './report-model.js';
import { VictimsField } from './victims-field.js';

/** /incident while signed out: anyone on site reports to the organisation of this address, from a phone. */
export function IncidentGuestPage() {
  const { t } = useTranslation();
  const data = useIncidentGuestFormData();
  const [sent, setSent] = useState<IncidentCreated | null>(null);
  const [round, setRound] = useState(0);

  const shell = (title: string, children: ReactNode) => (
    <Paper withBorder p={{ base: 'sm', xs: 'lg' }} radius="md" maw={620} mx="auto" my={{ base: 0, xs: 'md' }}>
      <Stack gap="sm">
        <Title order={1} size="h3">
          {title}
        </Title>
        {children}
        <Anchor component={Link} to="/login" size="sm">
          {t('incidentsWeb.guest.signIn')}
        </Anchor>
      </Stack>
    </Paper>
  );

  if (data.isPending) return <PageLoader />;
  if (data.isError || !data.data)
    return shell(
      t('screen.incident'),
      <Alert color="yellow" role="alert">
        {t('incidentsWeb.guest.noOrganization')}
      </Alert>,
    );
  const title = t('incidentsWeb.guest.title', { organization: data.data.organization.name });
  if (sent) {
    return shell(
      title,
      <Stack>
        <Alert color="teal" role="status">
          {t('incidentsWeb.guest.thanks', { serial: sent.serial_label })}
        </Alert>
        <Button
          onClick={() => {
            setSent(null);
            setRound((r) => r + 1);
          }}
          w="fit-content"
        >
          {t('incidentsWeb.guest.another')}
        </Button>
      </Stack>,
    );
  }
  return shell(title, <GuestForm key={round} data={data.data} onSent={setSent} />);
}

function GuestForm({ data, onSent }: { data: IncidentGuestFormData; onSent: (created: IncidentCreated) => void }) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const [confirm, confirmDialog] = useConfirm();
  const [draft, setDraft] = useState<ReportDraft>(() => {
    const only = data.sites.length === 1 ? data.sites[0]! : null;
    return only ? withSite(emptyReport(), only.id, only.time_zone, new Date(services.now())) : emptyReport();
  });
  const [files, setFiles] = useState<AttachmentItem[]>([]);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [limited, setLimited] = useState(false);
  const edits = useEditedFields();
  const errors = edits.visible({ ...form.errors, ...clientErrors });
  const site = data.sites.find((s) => s.id === draft.site_id);
  const now = new Date(services.now());
  const set = (change: Partial<ReportDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    edits.edit(...Object.keys(change));
  };
  const fieldProps = { draft, set, errors };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    edits.reset();
    setLimited(false);
    if (uploadsPending(files)) {
      setClientErrors({ attachment_ids: t('observationsWeb.attachments.wait') });
      return;
    }
    const checked = guestBody(draft, uploadedIds(files), site?.time_zone, now);
    if (checked.errors) {
      setClientErrors(Object.fromEntries(Object.entries(checked.errors).map(([k, v]) => [k, t(v)])));
      form.refuse(null);
      focusFirstError();
      return;
    }
    setClientErrors({});
    if (!(await confirm({ message: t('incidentsWeb.form.confirmSubmit') }))) return;
    await form.run(
      async () => {
        onSent(await commands.reportAsGuest(checked.body));
      },
      (error) => {
        // Too many reports from this connection: say so plainly, keep what was typed.
        if (isApiError(error) && (error.status === 429 || error.code === 'rate_limited')) {
          setLimited(true);
          return true;
        }
        return false;
      },
    );
    focusFirstError();
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={form.busy}>
      <Stack gap="sm">
        <Text c="dimmed" size="sm">
          {t('incidentsWeb.guest.intro')}
        </Text>
        {limited ? (
          <Alert color="orange" role="alert">
            {t('incidentsWeb.guest.rateLimited')}
          </Alert>
        ) : null}
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Section title={t('incidentsWeb.form.what')} id="guest-what">
          <Select
            label={t('incidents.fields.type')}
            withAsterisk
            data={data.types.map((x) => ({ value: x, label: t(`categories.types.${x}`) }))}
            value={draft.type}
            onChange={(type) => set({ type })}
            error={errors['type']}
          />
          <DescriptionField {...fieldProps} />
        </Section>
        <Section title={t('incidentsWeb.form.where')} id="guest-where">
          <Select
            label={t('incidents.fields.site')}
            withAsterisk
            searchable
            data={data.sites.map((s) => ({ value: s.id, label: s.name }))}
            value={draft.site_id}
            onChange={(v) => {
              const zone = data.sites.find((s) => s.id === v)?.time_zone;
              setDraft((d) => withSite(d, v, zone, new Date(services.now())));
              edits.edit('site_id', 'occurred_at');
            }}
            nothingFoundMessage={t('kit.noResults')}
            error={errors['site_id']}
          />
          <OccurredAtField {...fieldProps} zone={site?.time_zone} now={now} />
          <ShiftField {...fieldProps} shifts={data.shifts} />
        </Section>
        <Section title={t('incidentsWeb.form.rating')} id="guest-rating">
          <RatingFields {...fieldProps} choices={data} />
        </Section>
        <Section title={t('incidentsWeb.form.response')} id="guest-response">
          <ActionTakenField {...fieldProps} />
          <AttachmentsField
            label={t('incidents.fields.attachments')}
            items={files}
            onChange={(update) => {
              setFiles(update);
              edits.edit('attachment_ids');
            }}
            upload={async (file, onProgress) => (await commands.upload(file, onProgress, { guest: true })).id}
            error={errors['attachment_ids']}
          />
        </Section>
        <VictimsField
          victims={draft.victims}
          onChange={(victims) => setDraft((d) => ({ ...d, victims }))}
          onEdit={edits.edit}
          choices={data}
          errors={errors}
          osha={null}
          minDate={draft.occurred_at.slice(0, 10) || undefined}
        />
        <Section title={t('incidentsWeb.guest.aboutYou')} id="guest-you">
          <TextInput
            label={t('incidents.fields.reporterName')}
            autoComplete="name"
            maxLength={100}
            value={draft.reporter_name}
            onChange={(e) => set({ reporter_name: e.currentTarget.value })}
            error={errors['reporter_name']}
          />
          <TextInput
            type="email"
            label={t('incidents.fields.reporterEmail')}
            description={t('incidentsWeb.guest.emailHint')}
            autoComplete="email"
            maxLength={254}
            value={draft.reporter_email}
            onChange={(e) => set({ reporter_email: e.currentTarget.value })}
            error={errors['reporter_email']}
          />
        </Section>
        <Button type="submit" size="md" loading={form.busy} disabled={uploadsPending(files)} fullWidth>
          {t('incidentsWeb.form.submit')}
        </Button>
      </Stack>
      {confirmDialog}
    </form>
  );
}

import { localDateTimeIn, type ObservationCreated, type ObservationGuestFormData } from '@bulwark/domain';
import { Alert, Anchor, Button, Paper, Select, Stack, Switch, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import type { FieldErrors } from '../../ui/forms/validation.js';
import { PageLoader } from '../../ui/index.js';
import { AttachmentsField, uploadedIds, uploadsPending, type AttachmentItem } from './attachments-field.js';
import { useEditedFields } from './edited-fields.js';
import { CommentField, DescriptionField, ObservedAtField, RiskLevelField } from './observation-fields.js';
import { guestBody, type GuestDraft } from './form-model.js';
import { useGuestFormData, useObservationCommands } from './observations-api.js';

/** Where a signed-out visitor's files go before the report links them. */

const EMPTY: GuestDraft = {
  type: null,
  description: '',
  site_id: null,
  observed_at: '',
  observed_at_touched: false,
  risk_level: null,
  comment: '',
  anonymous: false,
  reporter_name: '',
  reporter_email: '',
};

/** /observation while signed out: anyone on site reports to the organisation of this address, from a phone. */
export function GuestReportPage() {
  const { t } = useTranslation();
  const data = useGuestFormData();
  const [sent, setSent] = useState<ObservationCreated | null>(null);
  const [round, setRound] = useState(0);

  const shell = (title: string, children: React.ReactNode) => (
    <Paper withBorder p={{ base: 'sm', xs: 'lg' }} radius="md" maw={560} mx="auto" my={{ base: 0, xs: 'md' }}>
      <Stack gap="sm">
        <Title order={1} size="h3">
          {title}
        </Title>
        {children}
        <Anchor component={Link} to="/login" size="sm">
          {t('observationsWeb.guest.signIn')}
        </Anchor>
      </Stack>
    </Paper>
  );

  if (data.isPending) return <PageLoader />;
  if (data.isError || !data.data)
    return shell(
      t('screen.observation'),
      <Alert color="yellow" role="alert">
        {t('observationsWeb.guest.noOrganization')}
      </Alert>,
    );
  const title = t('observations.guest.title', { organization: data.data.organization.name });
  if (sent) {
    return shell(
      title,
      <Stack>
        <Alert color="teal" role="status">
          {t('observations.guest.thanks', { serial: sent.serial_label })}
        </Alert>
        <Button
          onClick={() => {
            setSent(null);
            setRound((r) => r + 1);
          }}
          w="fit-content"
        >
          {t('observations.guest.another')}
        </Button>
      </Stack>,
    );
  }
  return shell(title, <GuestForm key={round} data={data.data} onSent={setSent} />);
}

function GuestForm({ data, onSent }: { data: ObservationGuestFormData; onSent: (created: ObservationCreated) => void }) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useObservationCommands();
  const form = useFormSubmit();
  const [draft, setDraft] = useState<GuestDraft>(() =>
    data.sites.length === 1
      ? { ...EMPTY, site_id: data.sites[0]!.id, observed_at: localDateTimeIn(data.sites[0]!.time_zone, new Date(services.now())) }
      : EMPTY,
  );
  const [files, setFiles] = useState<AttachmentItem[]>([]);
  const [clientErrors, setClientErrors] = useState<FieldErrors>({});
  const [limited, setLimited] = useState(false);
  const edits = useEditedFields();
  const errors = edits.visible({ ...form.errors, ...clientErrors });
  const site = data.sites.find((s) => s.id === draft.site_id);
  const now = new Date(services.now());
  const set = (change: Partial<GuestDraft>) => {
    setDraft((d) => ({ ...d, ...change }));
    edits.edit(...Object.keys(change));
  };

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
      return;
    }
    setClientErrors({});
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
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate aria-busy={form.busy}>
      <Stack gap="sm">
        <Text c="dimmed" size="sm">
          {t('observations.guest.intro')}
        </Text>
        {limited ? (
          <Alert color="orange" role="alert">
            {t('observationsWeb.guest.rateLimited')}
          </Alert>
        ) : null}
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Select
          label={t('observations.fields.type')}
          withAsterisk
          data={data.types.map((x) => ({ value: x, label: t(`categories.types.${x}`) }))}
          value={draft.type}
          onChange={(v) => set({ type: v })}
          error={errors['type']}
        />
        <DescriptionField value={draft.description} onChange={(description) => set({ description })} error={errors['description']} />
        <Select
          label={t('observations.fields.site')}
          withAsterisk
          searchable
          data={data.sites.map((s) => ({ value: s.id, label: s.name }))}
          value={draft.site_id}
          onChange={(v) => {
            const zone = data.sites.find((s) => s.id === v)?.time_zone;
            setDraft((d) => ({
              ...d,
              site_id: v,
              observed_at: !d.observed_at_touched && zone ? localDateTimeIn(zone, new Date(services.now())) : d.observed_at,
            }));
            edits.edit('site_id');
          }}
          nothingFoundMessage={t('kit.noResults')}
          error={errors['site_id']}
        />
        <ObservedAtField
          zone={site?.time_zone}
          now={now}
          value={draft.observed_at}
          onChange={(observed_at) => set({ observed_at, observed_at_touched: true })}
          error={errors['observed_at']}
        />
        <RiskLevelField
          levels={data.risk_levels}
          value={draft.risk_level}
          onChange={(risk_level) => set({ risk_level })}
          error={errors['risk_level']}
        />
        <CommentField value={draft.comment} onChange={(comment) => set({ comment })} error={errors['comment']} />
        <AttachmentsField
          label={t('observations.fields.attachments')}
          items={files}
          onChange={(update) => {
            setFiles(update);
            edits.edit('attachment_ids');
          }}
          upload={(file, onProgress) => commands.uploadAttachment(file, onProgress, true)}
          error={errors['attachment_ids']}
        />
        <Switch
          label={t('observations.fields.anonymous')}
          description={t('observations.form.anonymousHint')}
          checked={draft.anonymous}
          onChange={(e) => set({ anonymous: e.currentTarget.checked })}
        />
        {draft.anonymous ? null : (
          <>
            <TextInput
              label={t('observations.fields.reporterName')}
              autoComplete="name"
              maxLength={100}
              value={draft.reporter_name}
              onChange={(e) => set({ reporter_name: e.currentTarget.value })}
              error={errors['reporter_name']}
            />
            <TextInput
              type="email"
              label={t('observations.fields.reporterEmail')}
              description={t('observationsWeb.guest.emailHint')}
              autoComplete="email"
              maxLength={254}
              value={draft.reporter_email}
              onChange={(e) => set({ reporter_email: e.currentTarget.value })}
              error={errors['reporter_email']}
            />
          </>
        )}
        <Button type="submit" size="md" loading={form.busy} disabled={uploadsPending(files)} fullWidth>
          {t('observations.form.submit')}
        </Button>
      </Stack>
    </form>
  );
}

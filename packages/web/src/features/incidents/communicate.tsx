import type { Incident, IncidentFormData } from '@bulwark/domain';
import { Alert, Button, Group, Modal, MultiSelect, Stack, TagsInput, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useFormats } from '../../ui/format.js';
import { useConfirm } from '../../ui/index.js';
import { useIncidentCommands } from './incidents-api.js';
import { peopleOptions } from './step-team.js';
import { SectionTitle } from './view-report.js';

/** Closing asks for the closing remarks and says that a closed incident is final. */
export function CloseDialog({ incident: o, opened, onClose }: { incident: Incident; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const [remarks, setRemarks] = useState('');

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (form.refuse(remarks.trim() === '' ? { remarks: t('incidents.validation.closingRemarks') } : null)) return;
    await form.run(async () => {
      await commands.close(o.id, remarks.trim());
      notifySuccess(t('incidentsWeb.close.done', { serial: o.serial_label }));
      setRemarks('');
      onClose();
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('incidentsWeb.close.button')} centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Text size="sm">{t('incidentsWeb.close.confirm')}</Text>
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <Textarea
            label={t('incidents.fields.closingRemarks')}
            withAsterisk
            autosize
            minRows={3}
            maxLength={2000}
            value={remarks}
            onChange={(e) => setRemarks(e.currentTarget.value)}
            error={form.errors['remarks']}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="teal" loading={form.busy}>
              {t('incidentsWeb.close.button')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** "Send the report": the PDF to members (by mail and in the app) and other addresses, and when it was sent. */
export function SendReport({ incident: o, formData }: { incident: Incident; formData: IncidentFormData }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const [confirm, dialog] = useConfirm();
  const [userIds, setUserIds] = useState<string[]>([]);
  const [emails, setEmails] = useState<string[]>([]);
  const [message, setMessage] = useState('');
  const sends = o.investigation.report_sends;
  if (!o.permissions.send_report && sends.length === 0) return null;

  async function send(e: FormEvent) {
    e.preventDefault();
    const count = userIds.length + emails.length;
    if (form.refuse(count === 0 ? { user_ids: t('incidents.validation.recipientsMissing') } : null)) return;
    if (!(await confirm({ message: t('incidentsWeb.send.confirm', { count }), confirmLabel: t('incidentsWeb.send.button') }))) return;
    await form.run(async () => {
      await commands.sendReport(o.id, { user_ids: userIds, emails, message });
      notifySuccess(t('incidentsWeb.send.done', { count }));
      setUserIds([]);
      setEmails([]);
      setMessage('');
    });
  }

  const emailError = Object.entries(form.errors).find(([k]) => k.startsWith('emails'))?.[1];
  return (
    <Stack gap="xs">
      <SectionTitle id="record-send">{t('incidentsWeb.send.title')}</SectionTitle>
      {o.permissions.send_report ? (
        <form onSubmit={(e) => void send(e)} noValidate aria-busy={form.busy}>
          <Stack gap="xs">
            {form.message ? (
              <Alert color="red" role="alert">
                {form.message}
              </Alert>
            ) : null}
            <MultiSelect
              label={t('incidentsWeb.send.members')}
              searchable
              data={peopleOptions(formData.users)}
              value={userIds}
              onChange={setUserIds}
              nothingFoundMessage={t('kit.noResults')}
              error={Object.entries(form.errors).find(([k]) => k.startsWith('user_ids'))?.[1]}
              comboboxProps={{ withinPortal: true }}
            />
            <TagsInput
              label={t('incidentsWeb.send.emails')}
              description={t('incidentsWeb.send.emailsHint')}
              value={emails}
              onChange={setEmails}
              splitChars={[',', ' ', ';']}
              error={emailError}
            />
            <Textarea
              label={t('incidents.fields.message')}
              autosize
              minRows={2}
              maxLength={2000}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
            />
            <Group justify="flex-end">
              <Button type="submit" variant="light" loading={form.busy}>
                {t('incidentsWeb.send.button')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : null}
      {sends.length > 0 ? (
        <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('incidents.fields.reportSends')}>
          {sends.map((s, i) => (
            <Text key={`${s.at}-${i}`} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
              {t('incidentsWeb.send.sent', { date: fmt.instant(s.at), name: s.by?.full_name ?? '—', to: s.recipients.join(', ') })}
            </Text>
          ))}
        </Stack>
      ) : null}
      {dialog}
    </Stack>
  );
}

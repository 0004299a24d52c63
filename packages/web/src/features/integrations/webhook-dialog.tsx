import {
  WEBHOOK_CHANGES,
  WEBHOOK_SUBJECTS,
  webhookCreateBody,
  webhookUpdateBody,
  type WebhookEndpoint,
  type WebhookEvent,
} from '@bulwark/domain';
import { Alert, Button, Checkbox, Group, Modal, SimpleGrid, Stack, Switch, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate, type FieldErrors } from '../../ui/forms/validation.js';
import { useWebhookCommands } from './integrations-api.js';

/**
 * A new endpoint or an existing one's address, events, description and switch. The events offered are
 * the server's (`events` of the list), grouped by record type. A new endpoint's secret goes to
 * `onSecret` to be shown once. Mounted only while open, so each opening starts from the record.
 */
export function WebhookDialog({
  endpoint,
  events,
  onClose,
  onSecret,
}: {
  endpoint: WebhookEndpoint | 'new';
  events: readonly string[];
  onClose: () => void;
  onSecret: (secret: string) => void;
}) {
  const { t } = useTranslation();
  const commands = useWebhookCommands();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const existing = endpoint === 'new' ? null : endpoint;
  const [url, setUrl] = useState(existing?.url ?? '');
  const [description, setDescription] = useState(existing?.description ?? '');
  const [selected, setSelected] = useState<string[]>(existing?.events ?? []);
  const [active, setActive] = useState(existing?.active ?? true);

  const offered = new Set(events);
  const groups = WEBHOOK_SUBJECTS.map((subject) => ({
    subject,
    events: WEBHOOK_CHANGES.map((change) => `${subject}.${change}`).filter((e) => offered.has(e)),
  })).filter((g) => g.events.length > 0);
  const all = groups.flatMap((g) => g.events);
  const allChosen = all.length > 0 && all.every((e) => selected.includes(e));

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const body = { url: url.trim(), events: selected as WebhookEvent[], description, active };
    const found: FieldErrors = { ...(validate(existing ? webhookUpdateBody : webhookCreateBody, body, t).errors ?? {}) };
    if (!found.url && !/^https:\/\//i.test(body.url)) found.url = t('webhooks.validation.httpsOnly');
    if (refuse(Object.keys(found).length > 0 ? found : null)) return;
    await run(async () => {
      if (existing) {
        await commands.update(existing.id, body, { quiet: true });
      } else {
        const made = await commands.create(body);
        onSecret(made.secret);
      }
      notifySuccess(t('webhooks.saved'));
      onClose();
    });
  }

  return (
    <Modal opened onClose={onClose} title={existing ? t('webhooks.edit') : t('webhooks.add')} size="lg" centered>
      <form onSubmit={submit} noValidate aria-busy={busy}>
        <Stack>
          {message ? (
            <Alert color="red" role="alert">
              {message}
            </Alert>
          ) : null}
          <TextInput
            type="url"
            inputMode="url"
            label={t('webhooks.url')}
            placeholder={t('webhooks.urlPlaceholder')}
            required
            value={url}
            onChange={(e) => setUrl(e.currentTarget.value)}
            error={errors.url}
            autoComplete="off"
            data-autofocus
          />
          <TextInput
            label={t('webhooks.description')}
            placeholder={t('webhooks.descriptionPlaceholder')}
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errors.description}
          />
          <Stack gap="xs">
            <Checkbox
              label={t('webhooks.allEvents')}
              fw={500}
              checked={allChosen}
              indeterminate={!allChosen && selected.length > 0}
              onChange={() => setSelected(allChosen ? [] : all)}
              error={errors.events}
            />
            <SimpleGrid cols={{ base: 2, sm: 3 }} spacing="sm" verticalSpacing="sm">
              {groups.map((g) => (
                <Checkbox.Group
                  key={g.subject}
                  label={t(`webhooks.subjects.${g.subject}`)}
                  value={selected.filter((e) => g.events.includes(e))}
                  onChange={(chosen) => setSelected([...selected.filter((e) => !g.events.includes(e)), ...chosen])}
                >
                  <Stack gap={6} mt={6}>
                    {g.events.map((e) => (
                      <Checkbox key={e} value={e} label={t(`webhooks.changes.${e.slice(g.subject.length + 1)}`)} />
                    ))}
                  </Stack>
                </Checkbox.Group>
              ))}
            </SimpleGrid>
          </Stack>
          <Switch
            label={t('webhooks.active')}
            description={t('webhooks.activeHelp')}
            checked={active}
            onChange={(e) => setActive(e.currentTarget.checked)}
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={busy}>
              {existing ? t('common.save') : t('webhooks.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

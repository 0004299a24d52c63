import { MAILER_MODULES, type EmailSubscriptionItem } from '@bulwark/domain';
import { Alert, Badge, Button, Checkbox, Group, Paper, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useEmailSubscriptions, useSettingsCommands } from './settings-api.js';

/** /emailsubscription: the signed-in user chooses which e-mails they receive; in-app notifications always arrive. */
export function EmailSubscriptionsPage() {
  const { t } = useTranslation();
  const commands = useSettingsCommands();
  const query = useEmailSubscriptions();
  const [changes, setChanges] = useState<Record<string, boolean>>({});
  const form = useFormSubmit();

  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('errors.somethingWentWrong')}
      </Alert>
    );
  if (!query.data) return <PageLoader />;
  const items = query.data.subscriptions;
  const checked = (s: EmailSubscriptionItem) => s.mandatory || (changes[s.scenario_id] ?? s.email);
  const dirty = items.some((s) => checked(s) !== s.email);
  const setAll = (email: boolean) => setChanges(Object.fromEntries(items.filter((s) => !s.mandatory).map((s) => [s.scenario_id, email])));

  async function submit(e: FormEvent) {
    e.preventDefault();
    await form.run(async () => {
      await commands.saveEmailSubscriptions({
        subscriptions: items.filter((s) => !s.mandatory).map((s) => ({ scenario_id: s.scenario_id, email: checked(s) })),
      });
      setChanges({});
      notifySuccess(t('settings.subscriptions.saved'));
    });
  }

  return (
    <form onSubmit={(e: FormEvent) => void submit(e)} noValidate>
      <Stack maw={720}>
        <PageHeader
          title={t('settings.subscriptions.title')}
          description={t('settings.subscriptions.intro')}
          actions={
            <>
              <Button variant="default" size="xs" onClick={() => setAll(true)}>
                {t('settings.subscriptions.all')}
              </Button>
              <Button variant="default" size="xs" onClick={() => setAll(false)}>
                {t('settings.subscriptions.none')}
              </Button>
            </>
          }
        />
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        {MAILER_MODULES.map((m) => {
          const rows = items.filter((s) => s.module === m.key);
          if (rows.length === 0) return null;
          return (
            <Paper key={m.key} withBorder p="md" radius="md" component="fieldset" style={{ margin: 0 }}>
              <Title order={2} size="h5" mb="sm" component="legend">
                {t(`mailers.modules.${m.key}`)}
              </Title>
              <Stack gap="xs">
                {rows.map((s) => (
                  <Group key={s.scenario_id} gap="xs" wrap="nowrap">
                    <Checkbox
                      label={t(`mailers.scenarios.${s.scenario_id}`)}
                      checked={checked(s)}
                      disabled={s.mandatory}
                      onChange={(e) => setChanges({ ...changes, [s.scenario_id]: e.currentTarget.checked })}
                    />
                    {s.mandatory ? (
                      <Badge size="xs" variant="outline" title={t('mailers.mandatoryHint')}>
                        {t('settings.subscriptions.mandatory')}
                      </Badge>
                    ) : null}
                  </Group>
                ))}
              </Stack>
            </Paper>
          );
        })}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy} disabled={!dirty}>
            {t('settings.subscriptions.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

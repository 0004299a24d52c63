import { Alert, Paper, Stack, Switch, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { serverErrors } from '../../ui/forms/validation.js';
import { useActionSettings, useSettingsCommands } from './settings-api.js';

/** The organisation's action rules (admin): closing an action needs someone other than the person who completed it. */
export function ActionRulesCard() {
  const { t } = useTranslation();
  const query = useActionSettings();
  const commands = useSettingsCommands();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  async function toggle(closeByOther: boolean) {
    setBusy(true);
    setProblem(null);
    try {
      await commands.saveActionSettings({ close_by_other: closeByOther });
      notifySuccess(t('settings.actionRules.saved'));
    } catch (error) {
      const shown = serverErrors(error, t('errors.somethingWentWrong'));
      setProblem(shown.message ?? Object.values(shown.fields)[0] ?? t('errors.somethingWentWrong'));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" component="section" aria-label={t('settings.actionRules.title')}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          {t('settings.actionRules.title')}
        </Title>
        {query.isError || problem ? (
          <Alert color="red" role="alert">
            {problem ?? t('errors.somethingWentWrong')}
          </Alert>
        ) : null}
        <Switch
          label={t('settings.actionRules.closeByOther')}
          description={t('settings.actionRules.closeByOtherHint')}
          checked={query.data?.close_by_other ?? true}
          disabled={!query.data || busy}
          onChange={(e) => void toggle(e.currentTarget.checked)}
        />
      </Stack>
    </Paper>
  );
}

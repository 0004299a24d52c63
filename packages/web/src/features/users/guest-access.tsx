import { Paper, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useGuestSettings } from './users-api.js';

/** The admin's switch for guest accounts (/guest_user_creation on the organisation's address). */
export function GuestAccess() {
  const { t } = useTranslation();
  const { location } = useServices();
  const { settings, save } = useGuestSettings();
  const url = `${location.protocol}//${location.host}/guest_user_creation`;
  return (
    <Paper withBorder p="md" radius="md">
      <Switch
        label={t('registration.guest.settingLabel')}
        checked={settings.data?.enabled ?? false}
        disabled={!settings.data || save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked, { onSuccess: () => notifySuccess(t('kit.saved')) })}
      />
      <Text size="sm" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
        {t('registration.guest.settingHelp', { url })}
      </Text>
    </Paper>
  );
}

import { Paper, Switch, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';

const KEY = ['guest-settings'] as const;

/** The admin's switch for guest accounts (/guest_user_creation on the organisation's address). */
export function GuestAccess() {
  const { t } = useTranslation();
  const { http, location } = useServices();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: KEY, queryFn: () => http.get<{ enabled: boolean }>('/api/organizations/guest_settings') });
  const save = useMutation({
    mutationFn: (enabled: boolean) => http.put<{ enabled: boolean }>('/api/organizations/guest_settings', { enabled }),
    onSuccess: (data) => {
      queryClient.setQueryData(KEY, data);
      notifySuccess(t('kit.saved'));
    },
  });
  const url = `${location.protocol}//${location.host}/guest_user_creation`;
  return (
    <Paper withBorder p="md" radius="md">
      <Switch
        label={t('registration.guest.settingLabel')}
        checked={settings.data?.enabled ?? false}
        disabled={!settings.data || save.isPending}
        onChange={(e) => save.mutate(e.currentTarget.checked)}
      />
      <Text size="sm" c="dimmed" mt={4} style={{ overflowWrap: 'anywhere' }}>
        {t('registration.guest.settingHelp', { url })}
      </Text>
    </Paper>
  );
}

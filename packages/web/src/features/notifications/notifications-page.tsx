import { Paper, Stack, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { NotificationList } from './notification-list.js';

export function NotificationsPage() {
  const { t } = useTranslation();
  return (
    <Stack maw={720}>
      <Title order={1} size="h2">
        {t('screen.notification')}
      </Title>
      <Paper withBorder p="lg" radius="md">
        <NotificationList />
      </Paper>
    </Stack>
  );
}

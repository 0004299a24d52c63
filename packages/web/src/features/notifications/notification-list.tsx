import { Button, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useMarkAllRead, useMarkRead, useNotificationList } from './notifications-api.js';

function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : date.toLocaleString(language, { dateStyle: 'medium', timeStyle: 'short' });
}

/** The user's notifications with their read state; shared by the bell and the /notification screen. */
export function NotificationList({ limit }: { limit?: number }) {
  const { t, i18n } = useTranslation();
  const list = useNotificationList();
  const markRead = useMarkRead();
  const markAllRead = useMarkAllRead();

  if (list.isPending) return <Loader size="sm" aria-label={t('common.loading')} />;
  if (list.isError) {
    return (
      <Stack gap="xs" align="flex-start">
        <Text size="sm">{t('errors.somethingWentWrong')}</Text>
        <Button size="compact-sm" variant="light" onClick={() => void list.refetch()}>
          {t('common.retry')}
        </Button>
      </Stack>
    );
  }
  const items = limit ? list.data.notifications.slice(0, limit) : list.data.notifications;
  if (items.length === 0) return <Text size="sm">{t('common.noNotifications')}</Text>;

  return (
    <Stack gap="xs">
      {list.data.unread > 0 && (
        <Group justify="flex-end">
          <Button size="compact-sm" variant="subtle" loading={markAllRead.isPending} onClick={() => markAllRead.mutate()}>
            {t('common.markAllRead')}
          </Button>
        </Group>
      )}
      <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((item) => (
          <li key={item.id}>
            <Group
              justify="space-between"
              align="flex-start"
              wrap="nowrap"
              gap="xs"
              p={6}
              style={{ borderRadius: 4 }}
              bg={item.is_read ? undefined : 'blue.0'}
            >
              <Stack gap={2} miw={0}>
                <Text size="sm" fw={item.is_read ? 400 : 700} style={{ overflowWrap: 'anywhere' }}>
                  {item.title}
                </Text>
                {item.body && (
                  <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                    {item.body}
                  </Text>
                )}
                <Text size="xs" c="dimmed">
                  {formatDate(item.created_at, i18n.language)}
                </Text>
              </Stack>
              {!item.is_read && (
                <UnstyledButton
                  onClick={() => markRead.mutate(item.id)}
                  aria-label={`${t('common.markRead')}: ${item.title}`}
                  fz="xs"
                  c="blue"
                  style={{ whiteSpace: 'nowrap' }}
                >
                  {t('common.markRead')}
                </UnstyledButton>
              )}
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

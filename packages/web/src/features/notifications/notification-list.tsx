import type { NotificationItem } from '@bulwark/domain';
import { Anchor, Button, Group, Loader, Stack, Text, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useProfile } from '../../app/use-profile.js';
import { useFormats } from '../../ui/format.js';
import { useMarkAllRead, useMarkRead, useNotificationList } from './notifications-api.js';

/** Where a notification leads: its record, or the list of notifications when it names none. */
export function notificationTarget(item: Pick<NotificationItem, 'link'>): string {
  return item.link && item.link.startsWith('/') ? item.link : '/notification';
}

/**
 * The user's notifications with their read state; shared by the bell (the newest few) and the
 * /notification screen. Each opens its record (and is marked read on the way); dates follow the
 * reader's language and the organisation's time zone.
 */
export function NotificationList({ limit, onOpen }: { limit?: number; onOpen?: () => void }) {
  const { t } = useTranslation();
  const profile = useProfile();
  const f = useFormats(profile?.organization?.timezone);
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

  const open = (item: NotificationItem) => {
    if (!item.is_read) markRead.mutate(item.id);
    onOpen?.();
  };

  return (
    <Stack gap="xs">
      {list.data.unread > 0 && (
        <Group justify="flex-end">
          <Button size="compact-sm" variant="subtle" loading={markAllRead.isPending} onClick={() => markAllRead.mutate()}>
            {t('home.bell.markAllRead')}
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
              style={{ borderRadius: 4, background: item.is_read ? undefined : 'var(--mantine-color-blue-light)' }}
            >
              <Stack gap={2} miw={0}>
                <Anchor
                  component={Link}
                  to={notificationTarget(item)}
                  onClick={() => open(item)}
                  size="sm"
                  fw={item.is_read ? 400 : 700}
                  c="var(--mantine-color-text)"
                  style={{ overflowWrap: 'anywhere' }}
                >
                  {item.title}
                </Anchor>
                {item.body && item.body !== item.title ? (
                  <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                    {item.body}
                  </Text>
                ) : null}
                <Text size="xs" c="dimmed">
                  {f.instant(item.created_at)}
                </Text>
              </Stack>
              <Stack gap={2} align="flex-end">
                <Button
                  component={Link}
                  to={notificationTarget(item)}
                  onClick={() => open(item)}
                  size="compact-xs"
                  variant="light"
                  aria-label={`${t('home.bell.open')}: ${item.title}`}
                >
                  {t('home.bell.open')}
                </Button>
                {!item.is_read && (
                  <UnstyledButton
                    onClick={() => markRead.mutate(item.id)}
                    aria-label={`${t('common.markRead')}: ${item.title}`}
                    fz="xs"
                    c="blue.8"
                    style={{ whiteSpace: 'nowrap' }}
                  >
                    {t('common.markRead')}
                  </UnstyledButton>
                )}
              </Stack>
            </Group>
          </li>
        ))}
      </Stack>
    </Stack>
  );
}

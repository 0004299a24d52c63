import { ActionIcon, Anchor, Indicator, Popover, Stack, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { BellIcon } from '../../app/shell/icons.js';
import { NotificationList } from './notification-list.js';
import { useNotificationList } from './notifications-api.js';

export function NotificationBell() {
  const { t } = useTranslation();
  const list = useNotificationList();
  const [opened, { toggle, close }] = useDisclosure(false);
  const unread = list.data?.unread ?? 0;
  const label = unread > 0 ? `${t('common.notifications')}: ${t('common.unreadCount', { count: unread })}` : t('common.notifications');

  return (
    // The badge wraps the popover so that the popover's button attributes land on the button itself.
    <Indicator label={unread > 99 ? '99+' : unread} size={16} disabled={unread === 0} offset={4} color="red">
      <Popover
        opened={opened}
        onChange={(o) => (o ? undefined : close())}
        position="bottom-end"
        width={380}
        withinPortal
        shadow="md"
        trapFocus
      >
        <Popover.Target>
          <ActionIcon variant="subtle" size="lg" onClick={toggle} aria-label={label}>
            <BellIcon />
          </ActionIcon>
        </Popover.Target>
        <Popover.Dropdown maw="calc(100vw - 16px)">
          <Stack gap="sm">
            <Text fw={700}>{t('home.bell.newest')}</Text>
            {/* The newest five, each opening its record; the rest are one click away. */}
            <NotificationList limit={5} onOpen={close} />
            <Anchor component={Link} to="/notification" size="sm" onClick={close}>
              {t('home.bell.seeAll')}
            </Anchor>
          </Stack>
        </Popover.Dropdown>
      </Popover>
    </Indicator>
  );
}

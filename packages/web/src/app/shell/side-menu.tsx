import type { Principal } from '@bulwark/domain';
import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { visibleMenu } from './menu.js';

function isActive(current: string, path: string): boolean {
  return path === '/' ? current === '/' : current === path || current.startsWith(`${path}/`);
}

export function SideMenu({ principal, host }: { principal: Principal; host: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const groups = visibleMenu(principal, host);
  return (
    <ScrollArea component="nav" aria-label={t('common.menu')} type="auto" h="100%">
      <Stack gap="md" pb="md">
        {groups.map((group) => (
          <div key={group.label} role="group" aria-labelledby={`menu-${group.label}`}>
            <Text id={`menu-${group.label}`} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
              {t(group.label)}
            </Text>
            {group.items.map((item) => {
              const active = isActive(pathname, item.path);
              return (
                <NavLink
                  key={item.path}
                  component={Link}
                  to={item.path}
                  label={t(`screen.${item.screen}`)}
                  active={active}
                  aria-current={active ? 'page' : undefined}
                />
              );
            })}
          </div>
        ))}
      </Stack>
    </ScrollArea>
  );
}

import type { Principal } from '@bulwark/domain';
import { NavLink, ScrollArea, Stack, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { hasOwnScreen } from '../screens.js';
import { frontlineFirst, visibleMenu } from './menu.js';
import { NavIcon } from './nav-icons.js';

function isActive(current: string, path: string): boolean {
  return path === '/' ? current === '/' : current === path || current.startsWith(`${path}/`);
}

/** The side menu: built screens the person may open, with icons; on a phone the frontline work first. */
export function SideMenu({ principal, host }: { principal: Principal; host: string }) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  // Mantine's `sm` breakpoint, where the menu becomes a drawer behind the burger.
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const visible = visibleMenu(principal, host, hasOwnScreen);
  const groups = phone ? frontlineFirst(visible) : visible;
  return (
    <ScrollArea component="nav" aria-label={t('common.menu')} type="auto" h="100%">
      <Stack gap="md" pb="md">
        {groups.map((group) => {
          const id = `menu-${group.label.replace(/\W/g, '-')}`;
          return (
            <div key={group.label} role="group" aria-labelledby={id}>
              <Text id={id} size="xs" fw={700} c="dimmed" tt="uppercase" px="sm" mb={4}>
                {t(group.label)}
              </Text>
              {group.items.map((item) => {
                const active = isActive(pathname, item.path);
                return (
                  <NavLink
                    key={item.path}
                    component={Link}
                    to={item.path}
                    label={t(item.label ?? `screen.${item.screen}`)}
                    leftSection={item.icon ? <NavIcon name={item.icon} /> : null}
                    active={active}
                    aria-current={active ? 'page' : undefined}
                  />
                );
              })}
            </div>
          );
        })}
      </Stack>
    </ScrollArea>
  );
}

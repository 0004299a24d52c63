import { PRODUCT_NAME } from '@bulwark/domain';
import { AppShell, Box, Burger, Group, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense, useEffect, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { LanguageSwitch } from '../../features/account/language-switch.js';
import { NotificationBell } from '../../features/notifications/notification-bell.js';
import { TrialBanner } from '../../features/registration/trial-banner.js';
import classes from '../layout.module.css';
import { principalFromProfile } from '../profile.js';
import { RootFallback } from '../root-layout.js';
import { useServices } from '../services.js';
import { useProfile } from '../use-profile.js';
import { CommandPalette } from './command-palette.js';
import { SideMenu } from './side-menu.js';
import { StorageFullBanner } from './storage-banner.js';
import { UserMenu } from './user-menu.js';

/** The signed-in frame: header (menu button, brand, bell, language, user), side menu, content. */
export function AppShellLayout() {
  const { t, i18n } = useTranslation();
  const { location } = useServices();
  const profile = useProfile();
  const [opened, { toggle, close }] = useDisclosure(false);
  const { pathname } = useLocation();
  const principal = useMemo(() => (profile ? principalFromProfile(profile) : null), [profile]);

  // Screen readers and the dialogs' close buttons (theme.ts) read the page in the person's language.
  useEffect(() => {
    document.documentElement.lang = i18n.language;
  }, [i18n.language]);
  // The side menu closes after every navigation (spec 000 §2).
  useEffect(close, [pathname, close]);
  // A new screen (a saved record's page too) starts at its top, where its number, status and buttons are.
  // Braces: newer Chromium answers scrollTo with a promise, which React would take for a cleanup.
  useEffect(() => {
    window.scrollTo({ top: 0 });
  }, [pathname]);
  // While onboarding is pending every page but the wizard is held: no menu to offer.
  const withMenu = !(profile?.organization?.onboarding_pending ?? false) || (profile?.user.is_platform_admin ?? false);

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 264, breakpoint: 'sm', collapsed: { mobile: !opened, desktop: !withMenu } }}
      padding="md"
    >
      <a href="#main" className={classes.skipLink}>
        {t('shell.skipToContent')}
      </a>
      <AppShell.Header>
        <Group h="100%" px="sm" justify="space-between" wrap="nowrap" gap="xs">
          <Group gap="xs" wrap="nowrap" miw={0}>
            {withMenu && (
              <Burger
                opened={opened}
                onClick={toggle}
                hiddenFrom="sm"
                size="sm"
                aria-label={opened ? t('shell.closeMenu') : t('shell.openMenu')}
                aria-expanded={opened}
                aria-controls="side-menu"
              />
            )}
            {/* On a phone the header's buttons leave room for the first word of the name only: shown whole, not cut. */}
            <Text component={Link} to="/" fw={700} size="lg" truncate="end" c="inherit" td="none" data-brand>
              <Box component="span" visibleFrom="xs">
                {PRODUCT_NAME}
              </Box>
              <Box component="span" hiddenFrom="xs">
                {PRODUCT_NAME.split(' ')[0]}
              </Box>
            </Text>
          </Group>
          <Group gap={6} wrap="nowrap">
            {principal && withMenu && !principal.isGuest ? <CommandPalette principal={principal} host={location.host} /> : null}
            <NotificationBell />
            <LanguageSwitch />
            {profile && <UserMenu profile={profile} />}
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" id="side-menu">
        {principal && <SideMenu principal={principal} host={location.host} />}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} className={classes.main}>
        <TrialBanner />
        <StorageFullBanner />
        <Suspense fallback={<RootFallback />}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}

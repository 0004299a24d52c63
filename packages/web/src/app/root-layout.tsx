import { PRODUCT_NAME } from '@bulwark/domain';
import { Button, Center, Loader, Stack, Text, Title } from '@mantine/core';
import { nprogress } from '@mantine/nprogress';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { notifyError } from './notify.js';
import type { ScreenHandle } from './screen-loader.js';

function useNavigationProgress(): void {
  const { state } = useNavigation();
  useEffect(() => {
    if (state === 'idle') nprogress.complete();
    else nprogress.start();
  }, [state]);
}

function useDocumentTitle(): void {
  const { t, i18n } = useTranslation();
  const matches = useMatches();
  const screen = [...matches]
    .reverse()
    .map((m) => (m.handle as ScreenHandle | undefined)?.screen)
    .find(Boolean);
  useEffect(() => {
    document.title = screen ? `${t(`screen.${screen}`)} · ${PRODUCT_NAME}` : PRODUCT_NAME;
  }, [screen, t, i18n.language]);
}

/** A guard that turned someone away adds `?redirected=<path>`; tell them why they landed here. */
function useRedirectedNotice(): void {
  const { t } = useTranslation();
  const location = useLocation();
  const shownFor = useRef<string | null>(null);
  useEffect(() => {
    const from = new URLSearchParams(location.search).get('redirected');
    // Once per navigation, even when development mode runs effects twice.
    if (!from || shownFor.current === location.key) return;
    shownFor.current = location.key;
    notifyError(t('pages.redirectedNotice', { path: from }));
  }, [location.key, location.search, t]);
}

export function RootLayout() {
  useNavigationProgress();
  useDocumentTitle();
  useRedirectedNotice();
  return <Outlet />;
}

export function RootFallback() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" role="status" aria-live="polite">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/** A failed chunk load (new release deployed, connection lost) or a render error: offer a reload. */
export function RootError() {
  const { t } = useTranslation();
  return (
    <Center mih="60vh" p="md">
      <Stack align="center" maw={420}>
        <Title order={1} size="h3">
          {t('pages.errorTitle')}
        </Title>
        <Text ta="center">{t('pages.errorBody')}</Text>
        <Button onClick={() => window.location.reload()}>{t('pages.reload')}</Button>
      </Stack>
    </Center>
  );
}

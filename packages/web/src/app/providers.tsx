import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { nprogressStore, useNprogress } from '@mantine/nprogress';
import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { ServicesContext, type Services } from './services.js';
import { cssVariablesResolver, theme } from './theme.js';

/** The colour scheme chosen under My account (light, dark, or as the device), kept on this device. */
export const colorSchemeManager = localStorageColorSchemeManager({ key: 'bulwark.color-scheme' });

export function Providers({ services, children }: { services: Services; children: ReactNode }) {
  return (
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={services.i18n}>
        <QueryClientProvider client={services.queryClient}>
          <MantineProvider
            theme={theme}
            cssVariablesResolver={cssVariablesResolver}
            colorSchemeManager={colorSchemeManager}
            defaultColorScheme="light"
          >
            <LazyPageProgress />
            <LazyToasts />
            {children}
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>
  );
}

const Toasts = lazy(() => import('./toasts.js').then((m) => ({ default: m.Toasts })));

/**
 * The notices' container (and its transitions and styles) is fetched with the first notice: the sign-in
 * page usually shows none. A notice raised before it arrives waits in the store and is shown then.
 */
function LazyToasts() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <Toasts />
    </Suspense>
  );
}

const PageProgress = lazy(() => import('./page-progress.js').then((m) => ({ default: m.PageProgress })));

/** The loading bar (Progress, Transition, Portal and their styles) is fetched when a screen first loads after the first one. */
function LazyPageProgress() {
  const { mounted } = useNprogress(nprogressStore);
  const [wanted, setWanted] = useState(false);
  if (!wanted && mounted) setWanted(true);
  if (!wanted) return null;
  return (
    <Suspense fallback={null}>
      <PageProgress />
    </Suspense>
  );
}

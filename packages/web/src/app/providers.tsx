import { localStorageColorSchemeManager, MantineProvider } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { NavigationProgress } from '@mantine/nprogress';
import { QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { I18nextProvider, useTranslation } from 'react-i18next';
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
            <PageProgress />
            {/* Bottom left: clear of the bell and the account menu above, and of a saved record's number and status. */}
            <Notifications position="bottom-left" containerWidth={380} />
            {children}
          </MantineProvider>
        </QueryClientProvider>
      </I18nextProvider>
    </ServicesContext.Provider>
  );
}

/** The bar across the top while a screen loads, named for screen readers. */
function PageProgress() {
  const { t } = useTranslation();
  return <NavigationProgress aria-label={t('common.loading')} />;
}

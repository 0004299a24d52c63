import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageMessage } from './page-message.js';
import { useScreen } from './use-screen.js';

/** Every module screen of this release: named, guarded like the real one, and honest that it is not installed. */
export function ModulePage() {
  const { t } = useTranslation();
  const screen = useScreen() ?? 'dashboard';
  const name = t(`screen.${screen}`);
  const isOnboarding = screen === 'onboarding';
  return (
    <PageMessage
      title={isOnboarding ? t('pages.onboardingTitle') : name}
      action={
        screen === 'dashboard' ? null : (
          <Button component={Link} to="/" variant="light">
            {t('common.goHome')}
          </Button>
        )
      }
    >
      {isOnboarding ? t('pages.onboardingBody') : t('pages.moduleBody', { screen: name })}
    </PageMessage>
  );
}

import '@mantine/nprogress/styles.css';
import { NavigationProgress } from '@mantine/nprogress';
import { useTranslation } from 'react-i18next';

/** The bar across the top while a screen loads, named for screen readers. */
export function PageProgress() {
  const { t } = useTranslation();
  return <NavigationProgress aria-label={t('common.loading')} />;
}

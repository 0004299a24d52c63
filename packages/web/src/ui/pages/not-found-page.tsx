import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageMessage } from './page-message.js';

export function NotFoundPage() {
  const { t } = useTranslation();
  return (
    <PageMessage
      title={t('pages.notFoundTitle')}
      action={
        <Button component={Link} to="/">
          {t('common.goHome')}
        </Button>
      }
    >
      {t('pages.notFoundBody')}
    </PageMessage>
  );
}

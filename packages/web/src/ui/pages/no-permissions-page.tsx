import { Button } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { PageMessage } from './page-message.js';

export function NoPermissionsPage() {
  const { t } = useTranslation();
  return (
    <PageMessage
      title={t('pages.noPermissionsTitle')}
      action={
        <Button component={Link} to="/logout" variant="light">
          {t('common.signOut')}
        </Button>
      }
    >
      {t('pages.noPermissionsBody')}
    </PageMessage>
  );
}

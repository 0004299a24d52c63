import { Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../../app/services.js';
import { useRunOnce } from './use-run-once.js';

export function SessionExpiredPage() {
  const { t } = useTranslation();
  const { session } = useServices();
  // Whatever is left of the old session is of no use any more.
  useRunOnce(() => session.clear());
  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={1} size="h3">
          {t('auth.sessionExpiredTitle')}
        </Title>
        <Text>{t('auth.sessionExpiredHelp')}</Text>
        <Button component={Link} to="/login">
          {t('auth.signInAgain')}
        </Button>
      </Stack>
    </Paper>
  );
}

import { Alert, Button, Center, Loader, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../api/api-error.js';
import { PageHeader } from './page-header.js';

/** What a screen shows while its data loads. */
export function PageLoader() {
  const { t } = useTranslation();
  return (
    <Center py="xl">
      <Loader aria-label={t('common.loading')} />
    </Center>
  );
}

/**
 * An edit screen whose record could not be loaded: "not found" for a 404 (also another organisation's
 * id), otherwise a load failure, and the way back to the list.
 */
export function RecordLoadFailed(props: {
  title: string;
  error: unknown;
  notFoundText: string;
  backTo: string;
  backLabel?: string;
  maw?: number;
}) {
  const { t } = useTranslation();
  const missing = isApiError(props.error) && props.error.status === 404;
  return (
    <Stack maw={props.maw ?? 720}>
      <PageHeader title={props.title} />
      <Alert color="red" role="alert">
        {missing ? props.notFoundText : t('kit.loadFailed')}
      </Alert>
      <Button component={Link} to={props.backTo} variant="default" w="fit-content">
        {props.backLabel ?? t('common.back')}
      </Button>
    </Stack>
  );
}

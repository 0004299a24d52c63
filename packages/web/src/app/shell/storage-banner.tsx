import { Alert, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useProfile } from '../use-profile.js';

/**
 * Above every signed-in screen while the organisation's storage is used up (DECISIONS): creating,
 * changing and uploading answer `memory_exhausted`, while reading and deleting go on so that space can
 * be freed. The controls stay where they are (storage is not a right); this says why they will refuse.
 */
export function StorageFullBanner() {
  const { t } = useTranslation();
  const profile = useProfile();
  if (!profile || profile.user.is_platform_admin || !profile.user.tenant_memory_details.mem_exhausted) return null;
  return (
    <Alert color="red" mb="md" role="status" data-testid="storage-full-banner">
      <Text size="sm">{t('errors.memory_exhausted')}</Text>
    </Alert>
  );
}

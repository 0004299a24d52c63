import type { Permit } from '@bulwark/domain';
import { Alert, Anchor, Center, Image, Loader, Modal, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { usePrintable } from './permits-api.js';

/**
 * The permit's QR code, as printed on its PDF: anyone at the work site who scans it sees whether the
 * permit is valid now (number, type, place, validity and status only).
 */
export function QrDialog({ permit, onClose }: { permit: Permit; onClose: () => void }) {
  const { t } = useTranslation();
  const printable = usePrintable(permit.id);
  const svg = printable.data?.qr_svg;
  return (
    <Modal opened onClose={onClose} title={t('permitsWeb.summary.qrTitle', { number: permit.number })} centered>
      {printable.isLoading ? (
        <Center py="lg">
          <Loader aria-label={t('common.loading')} />
        </Center>
      ) : printable.isError || !printable.data || !svg ? (
        <Alert color="red" role="alert">
          {t('kit.loadFailed')}
        </Alert>
      ) : (
        <Stack align="center" gap="sm">
          <Image
            src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`}
            alt={t('permitsWeb.summary.qrAlt', { number: permit.number })}
            w={240}
            h={240}
            fit="contain"
            bg="white"
            data-qr
          />
          <Text size="sm" ta="center">
            {t('permits.report.scan')}
          </Text>
          <Anchor href={printable.data.status_url} target="_blank" rel="noreferrer" size="sm" style={{ overflowWrap: 'anywhere' }}>
            {printable.data.status_url}
          </Anchor>
        </Stack>
      )}
    </Modal>
  );
}

import { Alert, Badge, Box, Center, Container, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { useFormats } from '../../ui/format.js';
import { BoardView } from './board-view.js';
import { useLinkBoard, usePublicStatus } from './permit-settings-api.js';
import { PermitStatusBadge } from './status-badge.js';

function Failed({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <Alert color="red" role="alert" fz="lg">
      {isApiError(error) && error.status === 404 ? t('permitsWeb.public.gone') : t('kit.loadFailed')}
    </Alert>
  );
}

/** /permit-board/live/:token: a wall screen's board, signed out, read again every half minute. */
export function PublicBoardPage() {
  const { token = '' } = useParams();
  const board = useLinkBoard(token);
  return (
    <Box p={{ base: 'sm', sm: 'xl' }} mih="100vh">
      {board.isError ? (
        <Failed error={board.error} />
      ) : !board.data ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <BoardView board={board.data} updatedAt={board.dataUpdatedAt} links={false} />
      )}
    </Box>
  );
}

/**
 * /permit-status/:token: what a printed permit's QR code opens, signed out: whether the permit is valid
 * now, with its number, type, place and validity only.
 */
export function PermitStatusPage() {
  const { t } = useTranslation();
  const f = useFormats();
  const { token = '' } = useParams();
  const status = usePublicStatus(token);
  const s = status.data;
  return (
    <Container size={560} py="xl" px="sm">
      {status.isError ? (
        <Failed error={status.error} />
      ) : !s ? (
        <Center py="xl">
          <Loader />
        </Center>
      ) : (
        <Paper withBorder radius="md" p="lg">
          <Stack gap="md">
            <Text c="dimmed" size="sm">
              {t('screen.permitStatus')}
            </Text>
            <Title order={1} size="h1">
              {s.number}
            </Title>
            <Badge size="xl" color={s.valid_now ? 'teal' : 'red'} variant="filled" role="status">
              {s.valid_now ? t('permitsWeb.public.valid') : t('permitsWeb.public.notValid')}
            </Badge>
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('permits.fields.type')}
                </Text>
                <Text>{s.type}</Text>
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('permits.fields.status')}
                </Text>
                <PermitStatusBadge status={s.status} />
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('permits.fields.site')}
                </Text>
                <Text>{[s.site_name, s.area_name].filter(Boolean).join(' / ')}</Text>
              </Stack>
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('permits.fields.timeOfWork')}
                </Text>
                <Text>
                  {s.valid_from && s.valid_until
                    ? t('permits.report.validity', { from: f.local(s.valid_from), until: f.local(s.valid_until), zone: s.time_zone })
                    : '—'}
                </Text>
              </Stack>
            </SimpleGrid>
            <Text size="xs" c="dimmed">
              {t('permitsWeb.public.checkedAt', { date: f.instant(s.checked_at) })}
            </Text>
          </Stack>
        </Paper>
      )}
    </Container>
  );
}

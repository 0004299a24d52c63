import { Alert, Button, Group, Select, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { BoardLinks } from './board-links.js';
import { BoardView } from './board-view.js';
import { useMySites, usePermitBoard } from './permit-settings-api.js';
import { useMe } from './permits-api.js';

/**
 * /permits/board: the live board of a site for readers of permits (live through the permits channel,
 * and read again every half minute for the clock). Admins make and revoke the read-only links a wall
 * screen opens without signing in.
 */
export function PermitBoardPage() {
  const { t } = useTranslation();
  const me = useMe();
  const sites = useMySites();
  const [params, setParams] = useSearchParams();
  const siteId = params.get('site') ?? sites.data?.[0]?.id ?? null;
  const board = usePermitBoard(siteId);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('screen.permitBoard')}
        description={t('permitsWeb.board.help')}
        actions={
          <Group gap="xs" wrap="wrap">
            <Select
              aria-label={t('permits.fields.site')}
              data={(sites.data ?? []).map((s) => ({ value: s.id, label: s.name }))}
              value={siteId}
              onChange={(v) => v && setParams({ site: v }, { replace: true })}
              allowDeselect={false}
              w={{ base: '100%', xs: 240 }}
            />
            <Button
              variant="default"
              onClick={() => void document.documentElement.requestFullscreen?.().catch(() => undefined)}
              visibleFrom="sm"
            >
              {t('permitsWeb.board.fullScreen')}
            </Button>
          </Group>
        }
      />
      {sites.data && sites.data.length === 0 ? (
        <Alert color="gray">{t('permitsWeb.board.noSites')}</Alert>
      ) : board.isError ? (
        <Alert color="red" role="alert">
          {t('kit.loadFailed')}
        </Alert>
      ) : !board.data ? (
        <PageLoader />
      ) : (
        <BoardView board={board.data} updatedAt={board.dataUpdatedAt} links />
      )}
      {me.isAdmin ? <BoardLinks sites={sites.data ?? []} /> : null}
    </Stack>
  );
}

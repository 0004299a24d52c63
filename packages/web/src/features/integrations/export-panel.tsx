import { DATA_EXPORT_KEEP_DAYS, formatBytes, type DataExport, type DataExportStatus } from '@bulwark/domain';
import { Alert, Badge, Button, Group, Paper, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormats } from '../../ui/format.js';
import { DataTable, useConfirm, type Column } from '../../ui/index.js';
import { isExportBuilding, useDataExportCommands, useDataExports } from './integrations-api.js';

const STATUS_COLOR: Record<DataExportStatus, string> = { queued: 'gray', running: 'blue', ready: 'teal', failed: 'red', expired: 'gray' };

/** Ready and still within its week: the archive may be downloaded. */
export function downloadable(e: DataExport, now = Date.now()): boolean {
  return e.status === 'ready' && (!e.expires_at || new Date(e.expires_at).getTime() > now);
}

/**
 * The full export tab: start one (after a warning about what it holds), follow its progress (pushed to
 * its requester, and read again every few seconds while it is built), download it when ready, and the
 * past exports with their state.
 */
export function ExportPanel() {
  const { t } = useTranslation();
  const fmt = useFormats();
  const exports = useDataExports();
  const commands = useDataExportCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [starting, setStarting] = useState(false);
  const [downloading, setDownloading] = useState<string | null>(null);
  const current = exports.data?.find(isExportBuilding);

  async function start() {
    const ok = await confirm({
      title: t('dataExport.startTitle'),
      message: t('dataExport.startBody'),
      confirmLabel: t('dataExport.start'),
    });
    if (!ok) return;
    setStarting(true);
    try {
      await commands.start();
      notifySuccess(t('dataExport.started'));
    } catch {
      // The HTTP client has shown the refusal (one is already being built).
    } finally {
      setStarting(false);
    }
  }

  async function download(e: DataExport) {
    setDownloading(e.id);
    try {
      await commands.download(e.id);
    } catch {
      // The HTTP client has shown the refusal (expired meanwhile).
    } finally {
      setDownloading(null);
    }
  }

  const startButton = (
    <Button onClick={() => void start()} loading={starting} disabled={!exports.data || current !== undefined}>
      {t('dataExport.start')}
    </Button>
  );

  const columns: Column<DataExport>[] = [
    {
      key: 'created',
      header: t('dataExport.created'),
      render: (e) => (
        <Stack gap={0}>
          <Text size="sm">{fmt.instant(e.created_at)}</Text>
          {e.requested_by_name ? (
            <Text size="xs" c="dimmed">
              {`${t('dataExport.requestedBy')}: ${e.requested_by_name}`}
            </Text>
          ) : null}
        </Stack>
      ),
    },
    {
      key: 'status',
      header: t('dataExport.status'),
      render: (e) => {
        const expired = e.status === 'ready' && !downloadable(e);
        const status: DataExportStatus = expired ? 'expired' : e.status;
        return (
          <Stack gap={4} miw={90}>
            <Badge color={STATUS_COLOR[status]} variant="light">
              {t(`dataExport.statuses.${status}`)}
            </Badge>
            {isExportBuilding(e) ? <Progress value={e.progress} size="sm" animated aria-label={t('dataExport.progressLabel')} /> : null}
          </Stack>
        );
      },
    },
    {
      key: 'size',
      header: t('dataExport.size'),
      hideOnPhone: true,
      render: (e) => <Text size="sm">{e.size_bytes !== null ? formatBytes(e.size_bytes) : ''}</Text>,
    },
    {
      key: 'expires',
      header: t('dataExport.expires'),
      hideOnPhone: true,
      render: (e) => <Text size="sm">{e.expires_at && downloadable(e) ? fmt.instant(e.expires_at) : ''}</Text>,
    },
    {
      key: 'download',
      header: '',
      width: 120,
      render: (e) =>
        downloadable(e) ? (
          <Button size="xs" variant="light" loading={downloading === e.id} onClick={() => void download(e)}>
            {t('dataExport.download')}
          </Button>
        ) : null,
    },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('dataExport.intro', { days: DATA_EXPORT_KEEP_DAYS })}
      </Text>
      {current ? (
        <Paper withBorder radius="md" p="md" role="status">
          <Stack gap="xs">
            <Text size="sm" fw={500}>
              {t('dataExport.building', { percent: current.progress })}
            </Text>
            <Progress value={current.progress} animated aria-label={t('dataExport.progressLabel')} />
            <Text size="xs" c="dimmed">
              {t('dataExport.busy')}
            </Text>
          </Stack>
        </Paper>
      ) : null}
      {exports.data?.[0]?.status === 'failed' ? (
        <Alert color="red" role="alert">
          {t('dataExport.failedBody')}
        </Alert>
      ) : null}
      {exports.data && exports.data.length > 0 ? <Group justify="flex-end">{startButton}</Group> : null}
      <DataTable
        columns={columns}
        rows={exports.data}
        rowKey={(e) => e.id}
        error={exports.isError}
        loading={exports.isFetching && !current}
        emptyText={t('dataExport.empty')}
        emptyAction={startButton}
        caption={t('dataExport.title')}
      />
      {confirmDialog}
    </Stack>
  );
}

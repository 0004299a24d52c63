import { Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type { DownloadedFile } from '../api/http.js';
import { saveFile } from './files.js';
import { startedExport, useListExport, useSaveListExport } from './list-export-api.js';

/**
 * Downloads the list's current filtered rows as a workbook: `download` is the list call of the
 * feature's api with `export_to_excel=true`. A list past 10,000 rows answers with an export started
 * in the background instead (issue 13): the button then shows its progress and, once written, its
 * download. The requester's notification links back to the list with `?export=<id>`, which shows it too.
 */
export function ExportButton({ download }: { download: () => Promise<DownloadedFile> }) {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [exportId, setExportId] = useState<string | null>(() => params.get('export'));
  return (
    <Group gap="sm" wrap="nowrap" align="center">
      {exportId ? <ExportProgress id={exportId} /> : null}
      <Button
        variant="default"
        loading={busy}
        onClick={async () => {
          setBusy(true);
          try {
            const file = await download();
            const started = await startedExport(file);
            if (started) setExportId(started.id);
            else saveFile(file);
          } catch {
            // The HTTP client has already shown the error.
          } finally {
            setBusy(false);
          }
        }}
      >
        {t('kit.exportExcel')}
      </Button>
    </Group>
  );
}

/** A background export: rows written of rows to write, then its download. */
function ExportProgress({ id }: { id: string }) {
  const { t, i18n } = useTranslation();
  const { data, isError } = useListExport(id);
  const save = useSaveListExport();
  const [saving, setSaving] = useState(false);
  if (isError || data?.status === 'expired')
    return (
      <Text size="sm" c="dimmed">
        {t('listExport.expired')}
      </Text>
    );
  if (!data) return null;
  if (data.status === 'failed')
    return (
      <Text size="sm" c="red">
        {t('listExport.failed')}
      </Text>
    );
  if (data.status === 'ready') {
    return (
      <Button
        loading={saving}
        onClick={async () => {
          setSaving(true);
          try {
            await save(data.id);
          } catch {
            // The HTTP client has already shown the error.
          } finally {
            setSaving(false);
          }
        }}
      >
        {t('listExport.download')}
      </Button>
    );
  }
  const number = (n: number) => n.toLocaleString(i18n.language);
  return (
    <Stack gap={2} w={220}>
      <Text size="xs">{t('listExport.building', { done: number(data.rows_done), total: number(data.rows_total) })}</Text>
      <Progress
        value={data.rows_total > 0 ? (100 * data.rows_done) / data.rows_total : 0}
        size="sm"
        animated
        aria-label={t('listExport.progressLabel')}
      />
    </Stack>
  );
}

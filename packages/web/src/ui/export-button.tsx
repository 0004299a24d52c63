import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { DownloadedFile } from '../api/http.js';
import { saveFile } from './files.js';

/**
 * Downloads the list's current filtered rows as a workbook: `download` is the list call of the
 * feature's api with `export_to_excel=true`.
 */
export function ExportButton({ download }: { download: () => Promise<DownloadedFile> }) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          saveFile(await download());
        } catch {
          // The HTTP client has already shown the error.
        } finally {
          setBusy(false);
        }
      }}
    >
      {t('kit.exportExcel')}
    </Button>
  );
}

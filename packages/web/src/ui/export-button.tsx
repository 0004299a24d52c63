import { Button } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useDownload } from './files.js';

/** Downloads the list's current filtered rows as a workbook (`?export_to_excel=true`). */
export function ExportButton({ path, query }: { path: string; query: Record<string, string> }) {
  const { t } = useTranslation();
  const download = useDownload();
  const [busy, setBusy] = useState(false);
  return (
    <Button
      variant="default"
      loading={busy}
      onClick={async () => {
        setBusy(true);
        try {
          await download(path, query);
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

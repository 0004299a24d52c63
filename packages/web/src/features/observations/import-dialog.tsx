import { useTranslation } from 'react-i18next';
import { ExcelImportDialog, type ImportTexts } from '../../ui/index.js';
import { useObservationCommands, useObservationsRefresh } from './observations-api.js';

const TEXTS: ImportTexts = {
  title: 'observations.import.title',
  help: 'observationsWeb.import.help',
  template: 'observations.import.template',
  choose: 'observationsWeb.import.choose',
  upload: 'observationsWeb.import.upload',
  noFile: 'storage.noFile',
  failed: 'observations.import.failed',
  done: 'observations.import.done',
  row: 'observations.import.row',
  field: 'observationsWeb.import.column',
  message: 'observationsWeb.import.problem',
  report: 'observationsWeb.import.report',
};

/** Import from Excel: the template, the upload, and either "N imported" or every wrong row (nothing is written then). */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useObservationsRefresh();
  const commands = useObservationCommands();
  return (
    <ExcelImportDialog
      opened={opened}
      onClose={onClose}
      template={commands.importTemplate}
      upload={commands.importWorkbook}
      onImported={refresh}
      texts={TEXTS}
      fieldLabel={(field) => columnLabel(field, t)}
    />
  );
}

/** A template column by its header text, so the report names what the person sees in the sheet. */
function columnLabel(field: string, t: (key: string) => string): string {
  const key = `observations.import.columns.${field}`;
  const text = t(key);
  return text === key ? field : text;
}

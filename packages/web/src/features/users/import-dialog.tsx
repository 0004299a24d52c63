import { ExcelImportDialog, type ImportTexts } from '../../ui/index.js';
import { useUserCommands, useUsersRefresh } from './users-api.js';

const TEXTS: ImportTexts = {
  title: 'users.importDialog.title',
  help: 'users.importDialog.help',
  template: 'users.importDialog.template',
  choose: 'users.importDialog.choose',
  upload: 'users.importDialog.upload',
  noFile: 'validation.required',
  failed: 'users.importDialog.failed',
  done: 'users.notice.imported',
  row: 'users.importDialog.row',
  field: 'users.importDialog.field',
  message: 'users.importDialog.message',
};

/** Bulk import: template download, upload, and either "N invited" or the list of wrong rows. */
export function ImportDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const refresh = useUsersRefresh();
  const commands = useUserCommands();
  return (
    <ExcelImportDialog
      opened={opened}
      onClose={onClose}
      template={commands.importTemplate}
      upload={commands.importWorkbook}
      onImported={refresh}
      texts={TEXTS}
    />
  );
}

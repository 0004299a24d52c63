export { PageHeader } from './page-header.js';
export { DataTable, type Column, type PageInfo } from './data-table.js';
export { SearchInput } from './search-input.js';
export { usePagedList, toQuery, type PagedParams } from './use-paged-list.js';
export { useConfirm } from './confirm.js';
export { saveFile, useDownload, uploadForm } from './files.js';
export { useStoredFileUrl, StoredImage } from './stored-file.js';
export {
  ExcelImportDialog, importProblems, type ImportOutcome, type ImportRowProblem, type ImportTexts,
} from './import-dialog.js';
export { ExportButton } from './export-button.js';
export { PageLoader, RecordLoadFailed } from './page-state.js';

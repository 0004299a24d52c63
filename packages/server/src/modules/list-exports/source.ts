import type { ExcelColumn } from '../../platform/export/excel.js';
import { writeWorkbookFile } from '../../platform/export/stream-workbook.js';

/** Rows read from the database at a time: a page's rows, not the list's, are ever in memory. */
export const EXPORT_PAGE = 1000;

/**
 * One list's export, opened in a transaction: how many rows its filters hold (counted first, cheaply),
 * and how to write them to a workbook file page by page.
 */
export type ListExportSource = {
  /** The file's name, without `.xlsx`, in the requester's language. */
  fileName: string;
  count: () => Promise<number>;
  write: (file: string, progress?: (written: number) => Promise<void>) => Promise<number>;
};

export function listExportSource<Row>(spec: {
  fileName: string;
  sheet: string;
  columns: ExcelColumn<Row>[];
  count: () => Promise<number>;
  pages: () => AsyncIterable<Row[]>;
}): ListExportSource {
  return {
    fileName: spec.fileName,
    count: spec.count,
    write: (file, progress) => writeWorkbookFile(file, spec.sheet, spec.columns, spec.pages(), progress),
  };
}

/**
 * `f` remembering its answers: a column's text of a value among a few (a type, a status) is translated
 * once per export, not once per row (each `translate` splits its key: garbage for every cell).
 */
export function once<K, V>(f: (k: K) => V): (k: K) => V {
  const seen = new Map<K, V>();
  return (k) => {
    if (seen.has(k)) return seen.get(k)!;
    const v = f(k);
    seen.set(k, v);
    return v;
  };
}

/**
 * Keyset pages: `page(after)` reads the `EXPORT_PAGE` rows that follow `after` (null: the first) in the
 * list's order, and `keyOf` names a row's place in it. Unlike OFFSET, each page costs the same however
 * deep into the list it is.
 */
export async function* keysetPages<Row, Key>(page: (after: Key | null) => Promise<Row[]>, keyOf: (row: Row) => Key): AsyncGenerator<Row[]> {
  let after: Key | null = null;
  for (;;) {
    const rows = await page(after);
    if (rows.length > 0) yield rows;
    if (rows.length < EXPORT_PAGE) return;
    after = keyOf(rows[rows.length - 1]!);
  }
}

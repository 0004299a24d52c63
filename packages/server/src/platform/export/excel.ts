import type { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import { FileAnswer, XLSX_TYPE } from '../http/answers.js';
import { checkedWorkbook } from './workbook-zip.js';

export type ExcelColumn<Row> = {
  header: string;
  key: string;
  width?: number;
  /** An Excel number format for the column's cells, e.g. DATE_FORMAT for Date values (stream-workbook.ts). */
  numFmt?: string;
  value: (row: Row) => string | number | boolean | Date | null | undefined;
};

/** Builds an .xlsx of rows: a bold, frozen header row and one row per record. */
export async function buildWorkbook<Row>(sheet: string, columns: ExcelColumn<Row>[], rows: Iterable<Row>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Bulwark EHS';
  const ws = wb.addWorksheet(sheet.slice(0, 31) || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({
    header: c.header,
    key: c.key,
    width: c.width ?? Math.max(12, c.header.length + 2),
    ...(c.numFmt ? { style: { numFmt: c.numFmt } } : {}),
  }));
  ws.getRow(1).font = { bold: true };
  for (const row of rows) {
    ws.addRow(Object.fromEntries(columns.map((c) => [c.key, c.value(row) ?? ''])));
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A workbook answer named `<filename>.xlsx`. */
export async function workbookAnswer<Row>(
  filename: string,
  sheet: string,
  columns: ExcelColumn<Row>[],
  rows: Iterable<Row>,
): Promise<FileAnswer> {
  return new FileAnswer(await buildWorkbook(sheet, columns, rows), XLSX_TYPE, `${filename}.xlsx`);
}

/** Sends a workbook as a download named `<filename>.xlsx`. */
export async function sendWorkbook<Row>(
  reply: FastifyReply,
  filename: string,
  sheet: string,
  columns: ExcelColumn<Row>[],
  rows: Iterable<Row>,
) {
  const body = await buildWorkbook(sheet, columns, rows);
  const safe = filename.replace(/[^\w.-]+/g, '_');
  return reply
    .header('content-type', 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
    .header('content-disposition', `attachment; filename="${safe}.xlsx"`)
    .header('cache-control', 'no-store')
    .send(body);
}

export type SheetRow = { row: number; values: Record<string, string> };

/** How many rows an import reads, and the text that refuses one more (its `{{max}}` names the limit). */
export type RowLimit = { maxRows: number; tooManyKey: string };

const DEFAULT_LIMIT: RowLimit = { maxRows: 5000, tooManyKey: 'storage.workbookTooManyRows' };

/** Rows read between two yields to the event loop, so other requests are answered while a sheet is read. */
const ROWS_PER_TURN = 100;

/**
 * Reads the first sheet of an uploaded workbook: the first row names the columns, each later non-empty
 * row becomes `{ row: <sheet row number>, values: { <header>: text } }`. The zip is checked first
 * (`checkedWorkbook`: parts, unpacked size, ratio), then the sheet is streamed and reading stops at the
 * first row past `maxRows`, refused with the import's own text. A file that is not a workbook is
 * `bad_format`, never a crash.
 */
export async function readWorkbookRows(bytes: Buffer, limit: RowLimit = DEFAULT_LIMIT): Promise<{ headers: string[]; rows: SheetRow[] }> {
  const input = await checkedWorkbook(bytes);
  const reader = new ExcelJS.stream.xlsx.WorkbookReader(input, {
    worksheets: 'emit',
    sharedStrings: 'cache',
    // Styles tell a date cell from a number; hyperlinks only repeat the cell's text.
    styles: 'cache',
    hyperlinks: 'ignore',
    entries: 'ignore',
  });
  const failed = failureOf(input);
  const headers: string[] = [];
  const rows: SheetRow[] = [];
  let read = 0;
  try {
    // `checkedWorkbook` passes on one sheet only: the first.
    for await (const ws of until(reader, failed)) {
      for await (const r of until(ws, failed)) {
        if (++read % ROWS_PER_TURN === 0) await new Promise((resolve) => setImmediate(resolve));
        if (r.number === 1) {
          r.eachCell({ includeEmpty: true }, (cell, col) => {
            headers[col - 1] = cellText(cell.value).trim();
          });
          continue;
        }
        const values: Record<string, string> = {};
        let any = false;
        headers.forEach((h, i) => {
          if (!h) return;
          const text = cellText(r.getCell(i + 1).value).trim();
          if (text) any = true;
          values[h] = text;
        });
        if (!any) continue;
        if (rows.length === limit.maxRows) {
          throw new AppError('payload_too_large', {
            fields: { file: limit.tooManyKey },
            messageKey: limit.tooManyKey,
            vars: { max: limit.maxRows },
          });
        }
        rows.push({ row: r.number, values });
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('bad_format', { fields: { file: 'storage.notAWorkbook' }, messageKey: 'storage.notAWorkbook' });
  } finally {
    input.destroy();
  }
  return { headers: headers.filter(Boolean), rows };
}

/**
 * A part found damaged while streaming fails the input stream, but the reader only pipes it and would
 * wait for the rest for ever: each wait on the reader is also ended by the input's error. (One watcher
 * per wait, not a `Promise.race` on one promise, which would keep a reaction per row until the end.)
 */
type Failure = { error: unknown; interrupt: ((error: unknown) => void) | null };

function failureOf(input: Readable): Failure {
  const failure: Failure = { error: null, interrupt: null };
  input.once('error', (error) => {
    failure.error = error;
    failure.interrupt?.(error);
  });
  return failure;
}

/** The items of `source`, unless the input fails first. */
async function* until<T>(source: AsyncIterable<T>, failure: Failure): AsyncGenerator<T> {
  const it = source[Symbol.asyncIterator]();
  try {
    for (;;) {
      const next = await new Promise<IteratorResult<T>>((resolve, reject) => {
        if (failure.error) return reject(failure.error);
        failure.interrupt = reject;
        it.next().then(resolve, reject);
      });
      failure.interrupt = null;
      if (next.done) return;
      yield next.value;
    }
  } finally {
    // Not awaited: after a failure the source waits for input that will never come.
    void it.return?.(undefined)?.catch(() => undefined);
  }
}

function cellText(v: ExcelJS.CellValue): string {
  if (v === null || v === undefined) return '';
  if (v instanceof Date) return v.toISOString();
  if (typeof v === 'object') {
    if ('text' in v && typeof v.text === 'string') return v.text; // hyperlink
    if ('richText' in v) return v.richText.map((t) => t.text).join('');
    if ('result' in v) return v.result === undefined || v.result === null ? '' : String(v.result); // formula
    return '';
  }
  return String(v);
}

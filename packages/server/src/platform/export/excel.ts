import ExcelJS from 'exceljs';
import type { FastifyReply } from 'fastify';
import { AppError } from '../errors.js';
import { FileAnswer, XLSX_TYPE } from '../http/answers.js';

export type ExcelColumn<Row> = {
  header: string;
  key: string;
  width?: number;
  value: (row: Row) => string | number | boolean | Date | null | undefined;
};

/** Builds an .xlsx of rows: a bold, frozen header row and one row per record. */
export async function buildWorkbook<Row>(sheet: string, columns: ExcelColumn<Row>[], rows: Iterable<Row>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Bulwark EHS';
  const ws = wb.addWorksheet(sheet.slice(0, 31) || 'Sheet1', { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = columns.map((c) => ({ header: c.header, key: c.key, width: c.width ?? Math.max(12, c.header.length + 2) }));
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

/**
 * Reads the first sheet of an uploaded workbook: the first row names the columns, each later non-empty
 * row becomes `{ row: <sheet row number>, values: { <header>: text } }`. A file that is not a workbook
 * is `bad_format`, never a crash.
 */
export async function readWorkbookRows(bytes: Buffer, maxRows = 5000): Promise<{ headers: string[]; rows: SheetRow[] }> {
  const wb = new ExcelJS.Workbook();
  try {
    // exceljs declares its own `Buffer` (an ArrayBuffer) that Node 22's Buffer type no longer matches.
    await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  } catch {
    throw new AppError('bad_format');
  }
  const ws = wb.worksheets[0];
  if (!ws) throw new AppError('bad_format');
  const headers: string[] = [];
  ws.getRow(1).eachCell({ includeEmpty: true }, (cell, col) => {
    headers[col - 1] = cellText(cell.value).trim();
  });
  const rows: SheetRow[] = [];
  ws.eachRow({ includeEmpty: false }, (r, rowNumber) => {
    if (rowNumber === 1) return;
    const values: Record<string, string> = {};
    let any = false;
    headers.forEach((h, i) => {
      if (!h) return;
      const text = cellText(r.getCell(i + 1).value).trim();
      if (text) any = true;
      values[h] = text;
    });
    if (any) rows.push({ row: rowNumber, values });
  });
  if (rows.length > maxRows) throw new AppError('payload_too_large');
  return { headers: headers.filter(Boolean), rows };
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

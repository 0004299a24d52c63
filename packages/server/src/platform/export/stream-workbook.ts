import { createWriteStream } from 'node:fs';
import { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import yazl from 'yazl';
import type { ExcelColumn } from './excel.js';

/** How a date cell reads in Excel: real dates (numbers) with a format, so they sort and filter as dates. */
export const DATE_FORMAT = 'yyyy-mm-dd';
export const DATE_TIME_FORMAT = 'yyyy-mm-dd hh:mm';

/**
 * A wall-clock time ('2026-03-01T08:30', a site's local time) or a day ('2026-03-01') as the Date whose
 * Excel serial shows exactly that: Excel dates have no time zone, and a Date is written by its UTC fields.
 */
export function excelLocal(text: string | null | undefined): Date | null {
  if (!text) return null;
  const d = new Date(`${text.length === 10 ? `${text}T00:00` : text.slice(0, 19).replace(' ', 'T')}Z`);
  return Number.isNaN(d.getTime()) ? null : d;
}

/** Excel refuses longer cells. */
const CELL_MAX = 32_767;
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const PKG_RELS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';

/** What `xmlText` changes. Not global, so `test` keeps no state. */
// eslint-disable-next-line no-control-regex
const NEEDS_ESCAPE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF&<>"]/;

/** Text as XML character data: escaped, without the control characters XML 1.0 cannot hold. */
function xmlText(text: string): string {
  const clean = text.length > CELL_MAX ? text.slice(0, CELL_MAX) : text;
  // A global `replace` copies its subject even when nothing matches: five per cell was most of an
  // export's garbage, and most cells need none.
  if (!NEEDS_ESCAPE.test(clean)) return clean;
  return (
    clean
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '')
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
  );
}

/** A column's letters: 0 → A, 25 → Z, 26 → AA. */
function letters(index: number): string {
  let n = index + 1;
  let out = '';
  while (n > 0) {
    const rest = (n - 1) % 26;
    out = String.fromCharCode(65 + rest) + out;
    n = Math.floor((n - 1) / 26);
  }
  return out;
}

/** Days since Excel's epoch (1899-12-30), the fraction being the time of day. */
const excelSerial = (d: Date) => d.getTime() / 86_400_000 + 25_569;

type Styles = { xml: string; boldId: number; formatId: (numFmt: string | undefined) => number };

/** The style sheet: 0 plain, 1 bold (the header), then one style per number format the columns use. */
function stylesOf(columns: ReadonlyArray<{ numFmt?: string }>): Styles {
  const formats = [...new Set(columns.map((c) => c.numFmt).filter((f): f is string => !!f))];
  const numFmts = formats.map((f, i) => `<numFmt numFmtId="${164 + i}" formatCode="${xmlText(f)}"/>`).join('');
  const xfs = [
    '<xf numFmtId="0" fontId="0" fillId="0" borderId="0" xfId="0"/>',
    '<xf numFmtId="0" fontId="1" fillId="0" borderId="0" xfId="0" applyFont="1"/>',
    ...formats.map((_, i) => `<xf numFmtId="${164 + i}" fontId="0" fillId="0" borderId="0" xfId="0" applyNumberFormat="1"/>`),
  ];
  const xml =
    `${XML}<styleSheet xmlns="${MAIN}">` +
    (formats.length ? `<numFmts count="${formats.length}">${numFmts}</numFmts>` : '') +
    '<fonts count="2"><font><sz val="11"/><name val="Calibri"/><family val="2"/></font><font><b/><sz val="11"/><name val="Calibri"/><family val="2"/></font></fonts>' +
    '<fills count="2"><fill><patternFill patternType="none"/></fill><fill><patternFill patternType="gray125"/></fill></fills>' +
    '<borders count="1"><border><left/><right/><top/><bottom/><diagonal/></border></borders>' +
    '<cellStyleXfs count="1"><xf numFmtId="0" fontId="0" fillId="0" borderId="0"/></cellStyleXfs>' +
    `<cellXfs count="${xfs.length}">${xfs.join('')}</cellXfs>` +
    '<cellStyles count="1"><cellStyle name="Normal" xfId="0" builtinId="0"/></cellStyles>' +
    '</styleSheet>';
  return { xml, boldId: 1, formatId: (f) => (f ? 2 + formats.indexOf(f) : 0) };
}

function cellXml(ref: string, value: ReturnType<ExcelColumn<unknown>['value']>, style: number): string {
  if (value === null || value === undefined || value === '') return '';
  const s = style ? ` s="${style}"` : '';
  if (value instanceof Date) {
    return Number.isNaN(value.getTime()) ? '' : `<c r="${ref}"${s}><v>${excelSerial(value)}</v></c>`;
  }
  if (typeof value === 'number') return Number.isFinite(value) ? `<c r="${ref}"${s}><v>${value}</v></c>` : '';
  if (typeof value === 'boolean') return `<c r="${ref}"${s} t="b"><v>${value ? 1 : 0}</v></c>`;
  return `<c r="${ref}"${s} t="inlineStr"><is><t xml:space="preserve">${xmlText(value)}</t></is></c>`;
}

/**
 * Bytes of sheet XML gathered before they go to the zip. Rows are written straight into these buffers
 * (outside V8's heap), the fixed parts of each cell copied from bytes encoded once. Built as strings, a
 * page's XML cost several times its size in short-lived pieces, then was flattened into one string of
 * about a megabyte, which V8 places in the old generation at once: some 100 MB of old garbage per
 * 100,000 rows before the next full GC.
 */
const OUT_BYTES = 64 * 1024;

/** Sheet XML as buffers of about OUT_BYTES: `bytes` and `text` append, `take` answers those filled so far. */
class XmlOut {
  private buf = Buffer.allocUnsafe(OUT_BYTES);
  private pos = 0;
  private done: Buffer[] = [];

  bytes(b: Uint8Array): void {
    if (this.pos + b.length > this.buf.length) this.flush(b.length);
    this.buf.set(b, this.pos);
    this.pos += b.length;
  }

  text(text: string): void {
    // At most 3 bytes per UTF-16 unit (a surrogate pair is 4 bytes for 2 units).
    const most = text.length * 3;
    if (this.pos + most > this.buf.length) this.flush(most);
    this.pos += this.buf.write(text, this.pos);
  }

  take(): Buffer[] {
    this.flush(0);
    const out = this.done;
    this.done = [];
    return out;
  }

  private flush(need: number): void {
    if (this.pos > 0) {
      this.done.push(this.buf.subarray(0, this.pos));
      this.buf = Buffer.allocUnsafe(Math.max(OUT_BYTES, need));
      this.pos = 0;
    } else if (need > this.buf.length) {
      this.buf = Buffer.allocUnsafe(need);
    }
  }
}

const bytesOf = (text: string) => Buffer.from(text);
const ROW_OPEN = bytesOf('<row r="');
const ROW_OPENED = bytesOf('">');
const ROW_CLOSE = bytesOf('</row>');
const VALUE_CLOSE = bytesOf('</v></c>');
const TEXT_CLOSE = bytesOf('</t></is></c>');

/** A column's cells as bytes around the row number and the value: what `cellXml` writes, encoded once. */
function cellParts(ref: string, style: number) {
  const s = style ? ` s="${style}"` : '';
  return {
    open: bytesOf(`<c r="${ref}`),
    number: bytesOf(`"${s}><v>`),
    boolean: bytesOf(`"${s} t="b"><v>`),
    string: bytesOf(`"${s} t="inlineStr"><is><t xml:space="preserve">`),
  };
}

/** Appends one cell, as `cellXml` would write it, for the row whose number is `rowText`. */
function writeCell(out: XmlOut, parts: ReturnType<typeof cellParts>, rowText: string, value: ReturnType<ExcelColumn<unknown>['value']>) {
  if (value === null || value === undefined || value === '') return;
  let v: string;
  let mid: Buffer;
  if (value instanceof Date) {
    if (Number.isNaN(value.getTime())) return;
    v = String(excelSerial(value));
    mid = parts.number;
  } else if (typeof value === 'number') {
    if (!Number.isFinite(value)) return;
    v = String(value);
    mid = parts.number;
  } else if (typeof value === 'boolean') {
    v = value ? '1' : '0';
    mid = parts.boolean;
  } else {
    out.bytes(parts.open);
    out.text(rowText);
    out.bytes(parts.string);
    out.text(xmlText(value));
    out.bytes(TEXT_CLOSE);
    return;
  }
  out.bytes(parts.open);
  out.text(rowText);
  out.bytes(mid);
  out.text(v);
  out.bytes(VALUE_CLOSE);
}

/**
 * The sheet's XML, produced as it is read: a page of rows becomes a few buffers, and the next page is
 * only read once the zip has taken them (the stream's back-pressure), so memory stays flat. Strings are
 * written inline (no shared-string table to keep), dates as serial numbers in their column's format.
 */
async function* sheetXml<Row>(
  columns: ExcelColumn<Row>[],
  styles: Styles,
  pages: AsyncIterable<Row[]>,
  progress: (written: number) => Promise<void>,
  count: { rows: number },
): AsyncGenerator<string | Buffer> {
  const refs = columns.map((_, i) => letters(i));
  const parts = columns.map((c, i) => cellParts(refs[i]!, styles.formatId(c.numFmt)));
  const cols = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? Math.max(12, c.header.length + 2)}" customWidth="1"/>`)
    .join('');
  const header = columns.map((c, i) => cellXml(`${refs[i]}1`, c.header, styles.boldId)).join('');
  yield (
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}">` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1">${header}</row>`
  );
  const out = new XmlOut();
  let r = 1;
  for await (const page of pages) {
    for (const record of page) {
      r += 1;
      const rowText = String(r);
      out.bytes(ROW_OPEN);
      out.text(rowText);
      out.bytes(ROW_OPENED);
      for (let i = 0; i < columns.length; i += 1) writeCell(out, parts[i]!, rowText, columns[i]!.value(record));
      out.bytes(ROW_CLOSE);
    }
    count.rows += page.length;
    for (const bytes of out.take()) yield bytes;
    await progress(count.rows);
  }
  yield '</sheetData></worksheet>';
}

/**
 * Writes rows to an .xlsx file as they come, page by page, so memory stays flat however many rows
 * there are: a bold, frozen header row, then one row per record; Date values become date cells in their
 * column's `numFmt`. Calls `progress` with the rows written after each page. Returns the rows written.
 */
export async function writeWorkbookFile<Row>(
  file: string,
  sheet: string,
  columns: ExcelColumn<Row>[],
  pages: AsyncIterable<Row[]>,
  progress: (written: number) => Promise<void> = async () => {},
): Promise<number> {
  const styles = stylesOf(columns);
  const name = xmlText(sheet.replace(/[[\]:*?/\\]/g, '_').slice(0, 31) || 'Sheet1');
  const zip = new yazl.ZipFile();
  const part = (path: string, xml: string) => zip.addBuffer(Buffer.from(xml), path);
  part(
    '[Content_Types].xml',
    `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
      '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
      '<Default Extension="xml" ContentType="application/xml"/>' +
      '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
      '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
      '<Override PartName="/xl/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.styles+xml"/>' +
      '</Types>',
  );
  part(
    '_rels/.rels',
    `${XML}<Relationships xmlns="${PKG_RELS}"><Relationship Id="rId1" Type="${RELS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
  );
  part(
    'xl/workbook.xml',
    `${XML}<workbook xmlns="${MAIN}" xmlns:r="${RELS}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`,
  );
  part(
    'xl/_rels/workbook.xml.rels',
    `${XML}<Relationships xmlns="${PKG_RELS}">` +
      `<Relationship Id="rId1" Type="${RELS}/worksheet" Target="worksheets/sheet1.xml"/>` +
      `<Relationship Id="rId2" Type="${RELS}/styles" Target="styles.xml"/>` +
      '</Relationships>',
  );
  part('xl/styles.xml', styles.xml);
  const count = { rows: 0 };
  // One page in hand at a time: Readable.from buffers 16 objects by default, that is 16 pages of rows.
  const source = Readable.from(sheetXml(columns, styles, pages, progress, count), { highWaterMark: 1 });
  // A failed read (the database) must fail the file, not leave the zip waiting for the rest.
  const failed = new Promise<never>((_, reject) => source.once('error', reject));
  zip.addReadStream(source, 'xl/worksheets/sheet1.xml');
  zip.end();
  const out = createWriteStream(file, { mode: 0o600 });
  zip.outputStream.pipe(out);
  try {
    await Promise.race([finished(out), failed]);
  } catch (err) {
    out.destroy();
    throw err;
  }
  return count.rows;
}

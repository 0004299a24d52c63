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

/** Text as XML character data: escaped, without the control characters XML 1.0 cannot hold. */
function xmlText(text: string): string {
  const clean = text.length > CELL_MAX ? text.slice(0, CELL_MAX) : text;
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
 * The sheet's XML, produced as it is read: a page of rows becomes one chunk, and the next page is only
 * read once the zip has taken the chunk (the stream's back-pressure), so memory stays flat. Strings are
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
  const cellStyles = columns.map((c) => styles.formatId(c.numFmt));
  const cols = columns
    .map((c, i) => `<col min="${i + 1}" max="${i + 1}" width="${c.width ?? Math.max(12, c.header.length + 2)}" customWidth="1"/>`)
    .join('');
  const header = columns.map((c, i) => cellXml(`${refs[i]}1`, c.header, styles.boldId)).join('');
  yield (
    `${XML}<worksheet xmlns="${MAIN}" xmlns:r="${RELS}">` +
    '<sheetViews><sheetView workbookViewId="0"><pane ySplit="1" topLeftCell="A2" activePane="bottomLeft" state="frozen"/></sheetView></sheetViews>' +
    `<sheetFormatPr defaultRowHeight="15"/><cols>${cols}</cols><sheetData><row r="1">${header}</row>`
  );
  let r = 1;
  for await (const page of pages) {
    let chunk = '';
    for (const record of page) {
      r += 1;
      chunk += `<row r="${r}">`;
      for (let i = 0; i < columns.length; i += 1) chunk += cellXml(`${refs[i]}${r}`, columns[i]!.value(record), cellStyles[i]!);
      chunk += '</row>';
    }
    count.rows += page.length;
    // As bytes: the page's text is many small joined strings until it is flattened, and the zip copies it anyway.
    yield Buffer.from(chunk);
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

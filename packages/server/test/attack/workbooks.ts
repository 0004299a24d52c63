import { crc32, createDeflateRaw } from 'node:zlib';

/**
 * Hostile workbooks, built by hand so that each is exactly the attack it names: a real .xlsx (the parts
 * Excel's readers need) whose first sheet is generated in chunks, never held whole. `declare` makes a
 * part's zip headers lie about its unpacked size, as a bomb that hides from a size check does.
 */
type Part = { name: string; body: () => Iterable<string>; declare?: number };

const XML = '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n';
const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function* once(text: string): Iterable<string> {
  yield text;
}

/** The parts around a first sheet, as a minimal workbook that exceljs and Excel open. */
function workbookParts(sheet: () => Iterable<string>, strings: string[], declare?: number): Part[] {
  const sst = strings.map((s) => `<si><t>${s}</t></si>`).join('');
  return [
    {
      name: '[Content_Types].xml',
      body: () =>
        once(
          `${XML}<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
            '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
            '<Default Extension="xml" ContentType="application/xml"/>' +
            '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
            '<Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>' +
            '<Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/>' +
            '</Types>',
        ),
    },
    {
      name: '_rels/.rels',
      body: () =>
        once(
          `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
            `<Relationship Id="rId1" Type="${REL}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
        ),
    },
    {
      name: 'xl/workbook.xml',
      body: () =>
        once(`${XML}<workbook xmlns="${MAIN}" xmlns:r="${REL}"><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    },
    {
      name: 'xl/_rels/workbook.xml.rels',
      body: () =>
        once(
          `${XML}<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
            `<Relationship Id="rId1" Type="${REL}/worksheet" Target="worksheets/sheet1.xml"/>` +
            `<Relationship Id="rId2" Type="${REL}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
        ),
    },
    // As Excel writes them: the sheet before the shared strings.
    { name: 'xl/worksheets/sheet1.xml', body: sheet, ...(declare === undefined ? {} : { declare }) },
    {
      name: 'xl/sharedStrings.xml',
      body: () => once(`${XML}<sst xmlns="${MAIN}" count="${strings.length}" uniqueCount="${strings.length}">${sst}</sst>`),
    },
  ];
}

/** A sheet whose first row names `columns` (shared strings 0..n-1) and then `rows` rows of shared string n. */
function* rowsSheet(columns: number, rows: number, padding = 0): Iterable<string> {
  const letters = (i: number) => String.fromCharCode(65 + i);
  yield `${XML}<worksheet xmlns="${MAIN}"><sheetData>`;
  yield `<row r="1">${Array.from({ length: columns }, (_, i) => `<c r="${letters(i)}1" t="s"><v>${i}</v></c>`).join('')}</row>`;
  let batch = '';
  for (let r = 2; r <= rows + 1; r += 1) {
    batch += `<row r="${r}"><c r="A${r}" t="s"><v>${columns}</v></c></row>`;
    if (batch.length > 60_000) {
      yield batch;
      batch = '';
    }
  }
  yield batch;
  // Whitespace between elements: nothing to any reader, and it packs a thousand to one.
  const blank = ' '.repeat(1024 * 1024);
  for (let i = 0; i < padding; i += 1) yield blank;
  yield '</sheetData></worksheet>';
}

async function packed(body: Iterable<string>): Promise<{ data: Buffer; crc: number; size: number }> {
  const deflate = createDeflateRaw({ level: 9 });
  const out: Buffer[] = [];
  deflate.on('data', (b: Buffer) => out.push(b));
  const done = new Promise((resolve, reject) => deflate.on('end', resolve).on('error', reject));
  let crc = 0;
  let size = 0;
  for (const text of body) {
    const bytes = Buffer.from(text, 'utf8');
    crc = crc32(bytes, crc);
    size += bytes.length;
    if (!deflate.write(bytes)) await new Promise((resolve) => deflate.once('drain', resolve));
  }
  deflate.end();
  await done;
  return { data: Buffer.concat(out), crc, size };
}

/** A zip of deflated parts (no data descriptors, no zip64), its directory and local headers agreeing. */
async function zipOf(parts: Part[]): Promise<Buffer> {
  const locals: Buffer[] = [];
  const central: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const { data, crc, size } = await packed(part.body());
    const declared = part.declare ?? size;
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(declared, 22);
    local.writeUInt16LE(name.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(0x0800, 8);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt16LE(0x21, 14);
    entry.writeUInt32LE(crc >>> 0, 16);
    entry.writeUInt32LE(data.length, 20);
    entry.writeUInt32LE(declared, 24);
    entry.writeUInt16LE(name.length, 28);
    entry.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    central.push(entry, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(central);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

const HEADERS = ['email', 'full_name', 'type', 'site'];

/** `rows` data rows under one header row. */
export function manyRowsWorkbook(rows: number): Promise<Buffer> {
  return zipOf(workbookParts(() => rowsSheet(HEADERS.length, rows), [...HEADERS, 'x']));
}

/** A few rows, then `megabytes` of blank space: honest headers, a thousand to one. */
export function zipBomb(megabytes: number, options: { declare?: number } = {}): Promise<Buffer> {
  return zipOf(workbookParts(() => rowsSheet(HEADERS.length, 3, megabytes), [...HEADERS, 'x'], options.declare));
}

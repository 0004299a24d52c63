import { Readable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { crc32 } from 'node:zlib';
import { formatBytes } from '@bulwark/domain';
import yauzl from 'yauzl';
import { AppError } from '../errors.js';

/**
 * What an uploaded workbook may unpack to. An .xlsx is a zip of XML: 5 MB of it can hold a million rows,
 * and a crafted one (a zip bomb) unpacks a few hundred kilobytes into gigabytes. The import maxima
 * (500 rows) need a few megabytes at most, so these leave a wide margin for honest workbooks.
 */
export const WORKBOOK_LIMITS = {
  /** The sum of every part's declared size, unpacked. */
  maxUnpackedBytes: 25 * 1024 * 1024,
  /** Unpacked size over the file's size; Excel's XML packs about 5 to 20 to 1. */
  maxRatio: 100,
  /** Parts in the zip (Excel writes about a dozen, more with pictures). */
  maxParts: 1000,
};

/** Bytes handed on at a time: the reader parses each in one go, so this bounds a pause of the event loop. */
const CHUNK = 64 * 1024;

const SHEET = /^xl\/worksheets\/sheet(\d+)\.xml$/;
const WORKBOOK = 'xl/workbook.xml';
const RELS = 'xl/_rels/workbook.xml.rels';
const SHARED_STRINGS = 'xl/sharedStrings.xml';
const STYLES = 'xl/styles.xml';
const EMPTY_SHARED_STRINGS = Buffer.from(
  '<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" count="0" uniqueCount="0"/>',
);

const notAWorkbook = () => new AppError('bad_format', { fields: { file: 'storage.notAWorkbook' }, messageKey: 'storage.notAWorkbook' });
const damaged = () => new AppError('bad_format', { fields: { file: 'storage.workbookDamaged' }, messageKey: 'storage.workbookDamaged' });
const refused = (key: string, max: string | number) =>
  new AppError('payload_too_large', { fields: { file: `storage.${key}` }, messageKey: `storage.${key}`, vars: { max } });

type Part = { name: string; entry: yauzl.Entry | null; bytes?: Buffer };

/**
 * Checks an uploaded workbook's zip before anything is unpacked, and streams the parts a reader needs as
 * a new zip. The central directory is read first (yauzl): too many parts, a declared unpacked total over
 * the cap, or a ratio like a zip bomb's is refused before a byte is inflated. The new zip holds only the
 * relations, workbook, shared strings, styles and first sheet, in that order (a streaming reader spools a
 * sheet to a temporary file when it comes before the shared strings, as in Excel's own files), stored
 * uncompressed in small chunks, each part inflated by yauzl, which refuses a part on the first byte past
 * its declared size. So the reader meets no part this check did not measure (a zip's local headers may
 * disagree with its directory), and never more bytes than were declared. A part that turns out damaged
 * while streaming fails the returned stream with a `bad_format` error.
 */
export async function checkedWorkbook(bytes: Buffer): Promise<Readable> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.fromBufferPromise(bytes, { lazyEntries: true, validateEntrySizes: true, strictFileNames: false });
  } catch {
    throw notAWorkbook();
  }
  if (zip.entryCount > WORKBOOK_LIMITS.maxParts) throw refused('workbookTooManyParts', WORKBOOK_LIMITS.maxParts);
  const found = new Map<string, yauzl.Entry>();
  let firstSheet: { n: number; entry: yauzl.Entry } | null = null;
  let unpacked = 0;
  try {
    for await (const entry of zip.eachEntry()) {
      unpacked += entry.uncompressedSize;
      const sheet = SHEET.exec(entry.fileName);
      if (sheet && (!firstSheet || Number(sheet[1]) < firstSheet.n)) firstSheet = { n: Number(sheet[1]), entry };
      if ([WORKBOOK, RELS, SHARED_STRINGS, STYLES].includes(entry.fileName)) found.set(entry.fileName, entry);
    }
  } catch {
    throw notAWorkbook();
  }
  if (unpacked > WORKBOOK_LIMITS.maxUnpackedBytes) throw refused('workbookUnpacked', formatBytes(WORKBOOK_LIMITS.maxUnpackedBytes));
  if (unpacked > WORKBOOK_LIMITS.maxRatio * bytes.length) throw refused('workbookRatio', WORKBOOK_LIMITS.maxRatio);
  if (!firstSheet || !found.has(WORKBOOK) || !found.has(RELS)) throw notAWorkbook();
  const parts = [RELS, WORKBOOK, SHARED_STRINGS, STYLES].flatMap((name): Part[] => {
    const entry = found.get(name);
    if (entry) return [{ name, entry }];
    // The streaming reader parses sheets in the order it meets them only once it has shared strings.
    return name === SHARED_STRINGS ? [{ name, entry: null, bytes: EMPTY_SHARED_STRINGS }] : [];
  });
  parts.push({ name: firstSheet.entry.fileName, entry: firstSheet.entry });
  for (const p of parts) if (p.entry && (p.entry.isEncrypted() || ![0, 8].includes(p.entry.compressionMethod))) throw damaged();
  return Readable.from(storedZip(zip, parts), { objectMode: false, highWaterMark: CHUNK });
}

/**
 * A zip of stored parts. Sizes come from the checked directory and are enforced by yauzl as each part is
 * inflated, so every local header is true; the CRC is passed on unchecked (the reader does not check
 * it either). yazl cannot write this: it needs a stream's CRC before it may skip data descriptors, and a
 * stored part with a data descriptor is split by readers at the first bytes that look like one.
 */
async function* storedZip(zip: yauzl.ZipFile, parts: Part[]): AsyncGenerator<Buffer> {
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name, 'utf8');
    const size = part.entry ? part.entry.uncompressedSize : part.bytes!.length;
    const crc = part.entry ? part.entry.crc32 : crc32(part.bytes!);
    const local = header(0x04034b50, 30, name, size, crc);
    yield local;
    for await (const chunk of partData(zip, part)) yield chunk;
    const central = header(0x02014b50, 46, name, size, crc);
    central.writeUInt32LE(offset, 42);
    directory.push(central);
    offset += local.length + size;
  }
  const list = Buffer.concat(directory);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(list.length, 12);
  end.writeUInt32LE(offset, 16);
  yield Buffer.concat([list, end]);
}

/** A local (30 bytes) or central (46 bytes) header of a stored part, its name appended. */
function header(signature: number, length: 30 | 46, name: Buffer, size: number, crc: number): Buffer {
  const h = Buffer.alloc(length);
  const at = length === 46 ? 2 : 0; // the central header adds "version made by" before the shared fields
  h.writeUInt32LE(signature, 0);
  if (length === 46) h.writeUInt16LE(20, 4);
  h.writeUInt16LE(20, 4 + at); // version needed
  h.writeUInt16LE(0x0800, 6 + at); // names are UTF-8
  h.writeUInt16LE(0, 8 + at); // stored
  h.writeUInt16LE(0x21, 12 + at); // 1980-01-01
  h.writeUInt32LE(crc >>> 0, 14 + at);
  h.writeUInt32LE(size, 18 + at);
  h.writeUInt32LE(size, 22 + at);
  h.writeUInt16LE(name.length, 26 + at);
  return Buffer.concat([h, name]);
}

/** A part's bytes in chunks of at most `CHUNK`, with a turn of the event loop between chunks. */
async function* partData(zip: yauzl.ZipFile, part: Part): AsyncGenerator<Buffer> {
  if (!part.entry) {
    yield part.bytes!;
    return;
  }
  let stream: Readable;
  try {
    stream = await zip.openReadStreamPromise(part.entry);
  } catch {
    throw damaged();
  }
  try {
    for await (const piece of stream) {
      const bytes = piece as Buffer;
      for (let at = 0; at < bytes.length; at += CHUNK) yield bytes.subarray(at, at + CHUNK);
      await nextTurn();
    }
  } catch {
    // A broken deflate stream, or a part longer or shorter than its directory entry says.
    throw damaged();
  } finally {
    stream.destroy();
  }
}

import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PassThrough, type Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import type { DataExportManifest } from '@bulwark/domain';
import ExcelJS from 'exceljs';
import { sql } from 'drizzle-orm';
import yazl from 'yazl';
import type { Tx } from '../../platform/db/db.js';
import { files, organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { cleanFileName } from '../../platform/storage/storage.js';
import { exportTables, rowsQuery, type ExportTable } from './tables-read.js';

/** Rows fetched at a time from a table's cursor: memory stays flat however large the organisation. */
const BATCH = 500;
/** Excel refuses longer cells; the JSON Lines keep the whole value. */
const CELL_MAX = 32_000;

type Progress = (fraction: number) => Promise<void>;

/** A sheet name Excel accepts (31 characters, none of []:*?/\), unique in the workbook. */
function sheetName(table: string, taken: Set<string>): string {
  const base = table.replace(/[[\]:*?/\\]/g, '_').slice(0, 31);
  let name = base;
  for (let i = 2; taken.has(name); i += 1) name = `${base.slice(0, 31 - String(i).length - 1)}~${i}`;
  taken.add(name);
  return name;
}

function cell(value: unknown): string | number | boolean | Date | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date || typeof value === 'number' || typeof value === 'boolean') return value;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > CELL_MAX ? `${text.slice(0, CELL_MAX)}…` : text;
}

/**
 * Writes every table of the organisation as JSON Lines (one file per table) and into one streamed
 * workbook (a sheet per table), reading each table through a cursor in the snapshot's transaction.
 */
async function writeTables(tx: Tx, dir: string, progress: Progress): Promise<DataExportManifest['tables']> {
  const tables = await exportTables(tx);
  const counts = new Map<string, number>();
  for (const t of tables) {
    const r = await tx.execute<{ n: number }>(sql`select count(*)::int as n from (${rowsQuery(t)}) rows`);
    counts.set(t.name, Number(r.rows[0]?.n ?? 0));
  }
  const total = Math.max(
    1,
    [...counts.values()].reduce((a, b) => a + b, 0),
  );
  let done = 0;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({ filename: path.join(dir, 'data.xlsx'), useStyles: true });
  const taken = new Set<string>();
  const manifest: DataExportManifest['tables'] = [];
  await mkdir(path.join(dir, 'data'));
  for (const table of tables) {
    const sheet = workbook.addWorksheet(sheetName(table.name, taken), { views: [{ state: 'frozen', ySplit: 1 }] });
    const header = sheet.addRow(table.columns);
    header.font = { bold: true };
    header.commit();
    const lines = createWriteStream(path.join(dir, 'data', `${table.name}.jsonl`));
    const rows = await copyTable(tx, table, async (batch) => {
      for (const row of batch) {
        if (!lines.write(`${JSON.stringify(row)}\n`)) await new Promise<void>((resolve) => lines.once('drain', () => resolve()));
        sheet.addRow(table.columns.map((c) => cell(row[c]))).commit();
      }
      done += batch.length;
      await progress(done / total);
    });
    lines.end();
    await finished(lines);
    sheet.commit();
    manifest.push({ name: table.name, rows, redacted_columns: table.redacted });
  }
  await workbook.commit();
  return manifest;
}

/** Reads one table in batches through a cursor; returns how many rows it had. */
async function copyTable(tx: Tx, table: ExportTable, onBatch: (rows: Array<Record<string, unknown>>) => Promise<void>): Promise<number> {
  await tx.execute(sql`declare export_rows no scroll cursor for ${rowsQuery(table)}`);
  let count = 0;
  for (;;) {
    const batch = await tx.execute<Record<string, unknown>>(sql.raw(`fetch forward ${BATCH} from export_rows`));
    if (batch.rows.length === 0) break;
    count += batch.rows.length;
    await onBatch(batch.rows);
  }
  await tx.execute(sql`close export_rows`);
  return count;
}

/**
 * The organisation's whole archive at `target`: manifest.json, data/<table>.jsonl, data.xlsx and
 * files/<id>/<name>. Progress runs 0 → 0.9 over the rows and on to 1 over the files.
 */
export async function buildArchive(
  deps: Pick<AppDeps, 'db' | 'storage'>,
  organizationId: string,
  target: string,
  progress: Progress,
  now = new Date(),
): Promise<number> {
  const dir = await mkdtemp(path.join(tmpdir(), 'bulwark-export-'));
  try {
    // One snapshot of the whole organisation (repeatable read): every table, and the file list, as they
    // stood at one instant, so no row refers to another the archive lacks, whatever is written meanwhile.
    const { tables, org, stored } = await deps.db.app.transaction(
      async (tx) => {
        await tx.execute(sql`select set_config('app.organization_id', ${organizationId}, true)`);
        return {
          tables: await writeTables(tx, dir, (f) => progress(f * 0.9)),
          org: (
            await tx
              .select({ id: organizations.id, name: organizations.name, subDomain: organizations.subDomainName })
              .from(organizations)
              .where(sql`${organizations.id} = app_current_org()`)
          )[0]!,
          stored: await tx.select({ id: files.id, name: files.fileName, key: files.storageKey }).from(files),
        };
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
    const manifest: DataExportManifest = {
      organization: { id: org.id, name: org.name, sub_domain: org.subDomain },
      created_at: now.toISOString(),
      tables,
      files: stored.length,
    };
    const zip = new yazl.ZipFile();
    zip.addBuffer(Buffer.from(JSON.stringify(manifest, null, 2)), 'manifest.json');
    zip.addFile(path.join(dir, 'data.xlsx'), 'data.xlsx');
    for (const t of tables) zip.addFile(path.join(dir, 'data', `${t.name}.jsonl`), `data/${t.name}.jsonl`);
    let sent = 0;
    for (const f of stored) {
      // Opened only when the zip reaches it, so one file at a time is read whatever their number.
      zip.addReadStreamLazy(`files/${f.id}/${cleanFileName(f.name)}`, (cb) => {
        sent += 1;
        void progress(0.9 + (0.1 * sent) / Math.max(1, stored.length));
        cb(null, readOrEmpty(deps.storage.open(f.key)));
      });
    }
    zip.end();
    await mkdir(path.dirname(target), { recursive: true, mode: 0o700 });
    const out = createWriteStream(target, { mode: 0o600 });
    zip.outputStream.pipe(out);
    await finished(out);
    return (await stat(target)).size;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** A stored file whose bytes are gone (a crash between row and bytes) becomes an empty entry, not a failed export. */
function readOrEmpty(source: NodeJS.ReadableStream): Readable {
  const out = new PassThrough();
  source.on('error', () => out.end());
  source.pipe(out);
  return out;
}

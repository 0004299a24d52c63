import {
  CONTROL_LEVELS,
  LANGUAGES,
  MASTER_IMPORT_COLUMNS,
  masterCreateBody,
  translate,
  type Language,
  type MasterImportColumn,
  type MasterKind,
} from '@bulwark/domain';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import type { SheetRow } from '../../platform/export/excel.js';
import { entriesByName, MASTER_ENTITY } from './masters.js';
import { permitMasters } from './tables.js';

const norm = (s: string) => s.trim().toLowerCase();

/** A value given as its key or as its label in any of the four languages. */
function lookup<T extends string>(keys: readonly T[], label: (k: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const k of keys) {
    map.set(norm(k), k);
    for (const lang of LANGUAGES) map.set(norm(translate(lang, label(k))), k);
  }
  return map;
}

const HEADERS = lookup(MASTER_IMPORT_COLUMNS, (k) => `permits.masters.import.columns.${k}`);
const LEVELS = lookup(CONTROL_LEVELS, (k) => `actions.controlType.${k}`);
const YES = new Set(['yes', 'y', 'true', '1', ...LANGUAGES.map((l) => norm(translate(l, 'permits.fields.yes')))]);
const NO = new Set(['no', 'n', 'false', '0', ...LANGUAGES.map((l) => norm(translate(l, 'permits.fields.no')))]);

/** The import's template: the columns in the reader's language, and for the hierarchy of controls its levels. */
export async function masterImportTemplate(kind: MasterKind, lang: Language): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(translate(lang, 'permits.masters.import.sheet').slice(0, 31));
  const columns = MASTER_IMPORT_COLUMNS.filter((c) => c !== 'control_level' || kind === 'hierarchy_of_controls');
  ws.columns = columns.map((c) => ({
    header: translate(lang, `permits.masters.import.columns.${c}`),
    key: c,
    width: c === 'description' ? 48 : 24,
  }));
  ws.getRow(1).font = { bold: true };
  if (kind === 'hierarchy_of_controls') {
    const levels = wb.addWorksheet(translate(lang, 'permits.fields.controlLevel').slice(0, 31));
    for (const l of CONTROL_LEVELS) levels.addRow([translate(lang, `actions.controlType.${l}`)]);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

type ImportError = { row: number; field: string; message: string };

/**
 * Writes every row of the sheet (new names added, known names updated, whatever their case) or reports
 * why not: the caller rolls back when `errors` is not empty, so an import is all or nothing.
 */
export async function importMaster(
  tx: Tx,
  actor: Principal,
  kind: MasterKind,
  sheet: { headers: string[]; rows: SheetRow[] },
  lang: Language,
): Promise<{ created: number; updated: number; errors: ImportError[] }> {
  const columnOf = new Map<string, MasterImportColumn>();
  for (const h of sheet.headers) {
    const c = HEADERS.get(norm(h));
    if (c) columnOf.set(h, c);
  }
  if (![...columnOf.values()].includes('name')) {
    throw new AppError('bad_format', {
      fields: { file: 'permits.validation.missingColumns' },
      messageKey: 'permits.validation.missingColumns',
      vars: { columns: translate(lang, 'permits.masters.import.columns.name') },
    });
  }
  if (sheet.rows.length === 0) {
    throw new AppError('bad_format', { fields: { file: 'permits.validation.importEmpty' }, messageKey: 'permits.validation.importEmpty' });
  }
  const known = await entriesByName(tx, kind);
  const errors: ImportError[] = [];
  const seen = new Set<string>();
  let created = 0;
  let updated = 0;
  for (const r of sheet.rows) {
    const v: Partial<Record<MasterImportColumn, string>> = {};
    for (const [h, c] of columnOf) v[c] = r.values[h] ?? '';
    const say = (field: MasterImportColumn, key: string) => errors.push({ row: r.row, field, message: translate(lang, key) });
    const level = v.control_level ? (LEVELS.get(norm(v.control_level)) ?? null) : null;
    if (v.control_level && !level) say('control_level', 'permits.validation.controlLevel');
    const activeText = norm(v.active ?? '');
    const active = activeText === '' ? true : YES.has(activeText) ? true : NO.has(activeText) ? false : null;
    if (active === null) say('active', 'permits.validation.yesNo');
    const parsed = masterCreateBody.safeParse({
      name: v.name ?? '',
      description: v.description ?? '',
      control_level: kind === 'hierarchy_of_controls' ? level : null,
    });
    if (!parsed.success) {
      for (const issue of parsed.error.issues) say((issue.path[0] as MasterImportColumn) ?? 'name', issue.message);
      continue;
    }
    if (kind === 'hierarchy_of_controls' && !level && !v.control_level) say('control_level', 'permits.validation.controlLevel');
    const key = parsed.data.name.toLowerCase();
    if (seen.has(key)) say('name', 'permits.validation.nameTaken');
    seen.add(key);
    if (errors.some((e) => e.row === r.row)) continue;
    const before = known.get(key);
    const values = {
      name: parsed.data.name,
      description: parsed.data.description,
      controlLevel: parsed.data.control_level,
      active: active!,
    };
    if (before) {
      await tx
        .update(permitMasters)
        .set({ ...values, updatedAt: new Date() })
        .where(eq(permitMasters.id, before.id));
      updated += 1;
    } else {
      await tx.insert(permitMasters).values({ kind, ...values });
      created += 1;
    }
  }
  if (errors.length === 0) {
    await recordAudit(tx, {
      actorUserId: actor.userId,
      action: 'permit_master_imported',
      entity: MASTER_ENTITY,
      changes: { kind, created, updated },
    });
  }
  return { created, updated, errors };
}

import {
  CONTROL_TYPES,
  LANGUAGES,
  OBSERVATION_COMMENT_MAX,
  OBSERVATION_DESCRIPTION_MAX,
  OBSERVATION_IMPORT_COLUMNS,
  OBSERVATION_IMPORT_MAX_ROWS,
  OBSERVATION_RISK_LEVELS,
  OBSERVATION_TYPES,
  isLocalDate,
  isLocalDateTime,
  translate,
  type ActionItem,
  type ControlType,
  type Language,
  type ObservationImportColumn,
  type ObservationRiskLevel,
  type ObservationType,
} from '@bulwark/domain';
import ExcelJS from 'exceljs';
import { and, eq, sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { users } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import type { SheetRow } from '../../platform/export/excel.js';
import { categories, subCategories } from '../categories/read.js';
import { siteFullNames } from '../sites/service.js';
import { sites } from '../sites/read.js';
import { insertObservation, type AfterCommit, type ObservationsDeps } from './service.js';

export type ImportError = { row: number; field: string; message: string };

const norm = (s: string) => s.trim().toLowerCase();

/** A value given as its key ('near_miss') or as its label in any of the four languages ('Casi accidente'). */
function labelLookup<T extends string>(keys: readonly T[], labelKey: (k: T) => string): Map<string, T> {
  const map = new Map<string, T>();
  for (const k of keys) {
    map.set(norm(k), k);
    for (const lang of LANGUAGES) map.set(norm(translate(lang, labelKey(k))), k);
  }
  return map;
}

const TYPES = labelLookup(OBSERVATION_TYPES, (k) => `categories.types.${k}`);
const RISKS = labelLookup(OBSERVATION_RISK_LEVELS, (k) => `observations.riskLevels.${k}`);
const CONTROLS = labelLookup(CONTROL_TYPES, (k) => `actions.controlType.${k}`);
const HEADERS = labelLookup(OBSERVATION_IMPORT_COLUMNS, (k) => `observations.import.columns.${k}`);

/** '2025-03-01 14:30', '2025-03-01T14:30' or a date cell (read as '2025-03-01T14:30:00.000Z', the wall time). */
function localDateTimeOf(text: string): string | null {
  const m = /^(\d{4}-\d{2}-\d{2})[ T](\d{2}:\d{2})/.exec(text.trim());
  const v = m ? `${m[1]}T${m[2]}` : '';
  return isLocalDateTime(v) ? v : null;
}
function localDateOf(text: string): string | null {
  const v = text.trim().slice(0, 10);
  return isLocalDate(v) ? v : null;
}

/** Maps the service's field paths back to the sheet's columns. */
const FIELD_TO_COLUMN: Record<string, ObservationImportColumn> = {
  site_id: 'site',
  site_node_id: 'area',
  observed_at: 'observed_at',
  category_id: 'category',
  sub_category_id: 'sub_category',
  'actions.0.responsible_id': 'action_responsible_email',
  'actions.0.due_date': 'action_due_date',
  'actions.0.category_id': 'action_description',
};

/**
 * Writes every row of the sheet, each through the same checks as the form, or reports why not: the
 * caller rolls the transaction back when `errors` is not empty, so an import is all or nothing.
 */
export async function importObservations(
  tx: Tx,
  deps: ObservationsDeps,
  p: Principal,
  sheet: { headers: string[]; rows: SheetRow[] },
  lang: Language,
): Promise<{ imported: number; errors: ImportError[]; afterCommit: AfterCommit }> {
  const columnOf = new Map<string, ObservationImportColumn>();
  for (const h of sheet.headers) {
    const c = HEADERS.get(norm(h));
    if (c) columnOf.set(h, c);
  }
  const missing = (['type', 'site', 'observed_at', 'risk_level', 'description', 'comment'] as const).filter(
    (c) => ![...columnOf.values()].includes(c),
  );
  if (missing.length > 0) {
    throw new AppError('bad_format', {
      fields: { file: 'users.validation.missingColumns' },
      messageKey: 'users.validation.missingColumns',
      vars: { columns: missing.join(', ') },
    });
  }
  if (sheet.rows.length === 0)
    throw new AppError('bad_format', {
      fields: { file: 'observations.validation.importEmpty' },
      messageKey: 'observations.validation.importEmpty',
    });
  if (sheet.rows.length > OBSERVATION_IMPORT_MAX_ROWS) {
    throw new AppError('payload_too_large', {
      fields: { file: 'observations.validation.importTooMany' },
      messageKey: 'observations.validation.importTooMany',
      vars: { max: OBSERVATION_IMPORT_MAX_ROWS },
    });
  }

  const siteByName = new Map(
    (await tx.select({ id: sites.id, name: sites.name }).from(sites).where(eq(sites.isActive, true))).map((s) => [norm(s.name), s.id]),
  );
  const areaByName = new Map((await siteFullNames(tx, true)).filter((n) => n.level !== 'site').map((n) => [norm(n.full_name), n]));
  const cats = await tx
    .select({ id: categories.id, name: categories.name, type: categories.type })
    .from(categories)
    .where(and(eq(categories.module, 'observations'), eq(categories.active, true)));
  const subs = await tx
    .select({ id: subCategories.id, name: subCategories.name, categoryId: subCategories.categoryId })
    .from(subCategories)
    .where(eq(subCategories.active, true));
  const people = new Map(
    (
      await tx
        .select({ id: users.id, email: sql<string>`lower(${users.email})` })
        .from(users)
        .where(and(eq(users.status, 'Active'), eq(users.isGuest, false), eq(users.isPlatformAdmin, false)))
    ).map((u) => [u.email, u.id]),
  );

  const errors: ImportError[] = [];
  const afters: AfterCommit[] = [];
  let imported = 0;
  for (const { row, values } of sheet.rows) {
    const cell = (c: ObservationImportColumn) => {
      for (const [h, col] of columnOf) if (col === c) return (values[h] ?? '').trim();
      return '';
    };
    const rowErrors: Array<[ObservationImportColumn, string]> = [];
    const fail = (c: ObservationImportColumn, key: string) => {
      if (!rowErrors.some(([x]) => x === c)) rowErrors.push([c, key]);
    };

    const type: ObservationType | undefined = TYPES.get(norm(cell('type')));
    if (!type) fail('type', cell('type') ? 'validation.invalid' : 'observations.validation.type');
    const siteId = siteByName.get(norm(cell('site')));
    if (!siteId) fail('site', cell('site') ? 'observations.validation.siteUnknown' : 'observations.validation.site');
    let nodeId: string | null = null;
    if (cell('area')) {
      const area = areaByName.get(norm(cell('area'))) ?? areaByName.get(norm(`${cell('site')} / ${cell('area')}`));
      if (!area || area.site_id !== siteId) fail('area', 'observations.validation.nodeUnknown');
      else nodeId = area.id;
    }
    const observedAt = localDateTimeOf(cell('observed_at'));
    if (!observedAt) fail('observed_at', 'observations.validation.observedAt');
    const risk: ObservationRiskLevel | undefined = RISKS.get(norm(cell('risk_level')));
    if (!risk) fail('risk_level', cell('risk_level') ? 'validation.invalid' : 'observations.validation.riskLevel');
    const description = cell('description');
    if (!description) fail('description', 'validation.required');
    else if (description.length > OBSERVATION_DESCRIPTION_MAX) fail('description', 'validation.tooLong');
    const comment = cell('comment');
    if (!comment) fail('comment', 'validation.required');
    else if (comment.length > OBSERVATION_COMMENT_MAX) fail('comment', 'validation.tooLong');
    let categoryId: string | null = null;
    if (cell('category')) {
      const c = cats.find((x) => norm(x.name) === norm(cell('category')) && x.type === type);
      if (!c) fail('category', 'observations.validation.categoryUnknown');
      else categoryId = c.id;
    }
    let subCategoryId: string | null = null;
    if (cell('sub_category')) {
      const s = categoryId ? subs.find((x) => x.categoryId === categoryId && norm(x.name) === norm(cell('sub_category'))) : undefined;
      if (!s)
        fail(
          'sub_category',
          categoryId ? 'observations.validation.subCategoryUnknown' : 'observations.validation.subCategoryWithoutCategory',
        );
      else subCategoryId = s.id;
    }

    // One action per row, given whole or not at all.
    const actionCells = (['action_description', 'action_control_type', 'action_responsible_email', 'action_due_date'] as const).map(cell);
    const actions: ActionItem[] = [];
    if (actionCells.some(Boolean)) {
      if (!actionCells.every(Boolean)) fail('action_description', 'observations.validation.importActionIncomplete');
      else {
        const control: ControlType | undefined = CONTROLS.get(norm(actionCells[1]!));
        const responsible = people.get(norm(actionCells[2]!));
        const due = localDateOf(actionCells[3]!);
        if (actionCells[0]!.length > 2000) fail('action_description', 'validation.tooLong');
        if (!control) fail('action_control_type', 'observations.validation.controlType');
        if (!responsible) fail('action_responsible_email', 'observations.validation.responsibleUnknown');
        if (!due) fail('action_due_date', 'observations.validation.dueDate');
        if (control && responsible && due) {
          actions.push({
            description: actionCells[0]!,
            control_type: control,
            responsible_id: responsible,
            due_date: due,
            category_id: null,
            remarks: null,
          });
        }
      }
    }

    if (rowErrors.length === 0) {
      // A savepoint per row: a row the service refuses is reported, and the next rows are still checked.
      try {
        const created = await tx.transaction((sp) =>
          insertObservation(sp, deps, {
            source: 'import',
            actor: p,
            attachmentIds: [],
            actions,
            values: {
              type: type!,
              category_id: categoryId,
              sub_category_id: subCategoryId,
              description,
              site_id: siteId!,
              site_node_id: nodeId,
              observed_at: observedAt!,
              risk_level: risk!,
              action_required: actions.length > 0,
              comment,
              anonymous: false,
            },
          }),
        );
        afters.push(created.afterCommit);
        imported += 1;
      } catch (err) {
        if (!(err instanceof AppError) || err.code !== 'validation_failed') throw err;
        for (const [field, key] of Object.entries(err.options.fields ?? {})) fail(FIELD_TO_COLUMN[field] ?? 'description', key);
      }
    }
    for (const [field, key] of rowErrors) errors.push({ row, field, message: translate(lang, key) });
  }
  return {
    imported: errors.length ? 0 : imported,
    errors,
    afterCommit: async () => {
      for (const a of afters) await a();
    },
  };
}

/** The template: translated headers and an example row, and a sheet of the values the organisation accepts. */
export async function importTemplate(tx: Tx, lang: Language): Promise<Buffer> {
  const t = (key: string) => translate(lang, key);
  const wb = new ExcelJS.Workbook();
  wb.creator = 'Bulwark EHS';
  const ws = wb.addWorksheet(t('observations.import.sheetObservations').slice(0, 31), { views: [{ state: 'frozen', ySplit: 1 }] });
  ws.columns = OBSERVATION_IMPORT_COLUMNS.map((c) => ({ header: t(`observations.import.columns.${c}`), key: c, width: 24 }));
  ws.getRow(1).font = { bold: true };
  const siteRows = await tx
    .select({ name: sites.name })
    .from(sites)
    .where(eq(sites.isActive, true))
    .orderBy(sql`lower(${sites.name})`);
  const areas = (await siteFullNames(tx, true)).filter((n) => n.level !== 'site');
  const cats = await tx
    .select({ name: categories.name, type: categories.type })
    .from(categories)
    .where(and(eq(categories.module, 'observations'), eq(categories.active, true)))
    .orderBy(sql`lower(${categories.name})`);
  ws.addRow({
    type: t('categories.types.unsafe_condition'),
    category: '',
    sub_category: '',
    site: siteRows[0]?.name ?? '',
    area: '',
    observed_at: '2025-03-01 14:30',
    risk_level: t('observations.riskLevels.medium'),
    description: '',
    comment: '',
    action_description: '',
    action_control_type: '',
    action_responsible_email: '',
    action_due_date: '',
  });

  const values = wb.addWorksheet(t('observations.import.sheetValues').slice(0, 31));
  const lists: Array<[string, string[]]> = [
    [t('observations.import.columns.type'), OBSERVATION_TYPES.map((k) => t(`categories.types.${k}`))],
    [t('observations.import.columns.site'), siteRows.map((s) => s.name)],
    [t('observations.import.columns.area'), areas.map((a) => a.full_name)],
    [t('observations.import.columns.category'), cats.map((c) => `${c.name} (${t(`categories.types.${c.type}`)})`)],
    [t('observations.import.columns.risk_level'), OBSERVATION_RISK_LEVELS.map((k) => t(`observations.riskLevels.${k}`))],
    [t('observations.import.columns.action_control_type'), CONTROL_TYPES.map((k) => t(`actions.controlType.${k}`))],
  ];
  lists.forEach(([header, items], i) => {
    const col = values.getColumn(i + 1);
    col.width = 30;
    values.getCell(1, i + 1).value = header;
    items.forEach((item, j) => {
      values.getCell(j + 2, i + 1).value = item;
    });
  });
  values.getRow(1).font = { bold: true };
  return Buffer.from(await wb.xlsx.writeBuffer());
}

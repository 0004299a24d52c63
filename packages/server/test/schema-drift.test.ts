import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { is } from 'drizzle-orm';
import { getTableConfig, integer, PgTable, pgTable, text, uuid } from 'drizzle-orm/pg-core';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as platformTables from '../src/platform/db/schema.js';
import { freshDatabase } from './helpers.js';

/**
 * The SQL migrations are the source of truth and the Drizzle tables are typed views of them, written by
 * hand. This holds the two equal: every Drizzle table, column, type and nullability against the
 * migrated database, and every column of a mapped table present in Drizzle.
 */

type Column = { type: string; notNull: boolean };
type Tables = Map<string, Map<string, Column>>;

// Every module's tables.ts, found by the file system, so a new module is checked the day it lands.
const MODULES_DIR = fileURLToPath(new URL('../src/modules/', import.meta.url));
const moduleTables: Record<string, unknown>[] = await Promise.all(
  readdirSync(MODULES_DIR)
    .filter((m) => existsSync(path.join(MODULES_DIR, m, 'tables.ts')))
    .map((m) => import(/* @vite-ignore */ pathToFileURL(path.join(MODULES_DIR, m, 'tables.ts')).href) as Promise<Record<string, unknown>>),
);

/** Spellings of one type that Drizzle and PostgreSQL's format_type write differently. */
function normalise(type: string): string {
  return type
    .replace(/^timestamp\((\d+)\) with time zone$/, 'timestamp with time zone')
    .replace(/^varchar/, 'character varying')
    .replace(/^char\b/, 'character')
    .replace(/^time\((\d+)\)$/, 'time without time zone')
    .replace(/^time$/, 'time without time zone')
    .replace(/^timestamp$/, 'timestamp without time zone')
    .replace(/^double precision$/, 'double precision')
    .replace(/^serial$/, 'integer')
    .replace(/^bigserial$/, 'bigint');
}

function drizzleTables(): Tables {
  return tablesOf([platformTables as Record<string, unknown>, ...moduleTables]);
}

function tablesOf(sources: Record<string, unknown>[]): Tables {
  const out: Tables = new Map();
  for (const source of sources) {
    for (const value of Object.values(source)) {
      if (!is(value, PgTable)) continue;
      const config = getTableConfig(value);
      if (config.schema && config.schema !== 'public') continue;
      const columns = new Map<string, Column>();
      for (const c of config.columns) {
        // A column declared in a composite primary key is not null in the database whatever Drizzle says.
        const inPk = config.primaryKeys.some((pk) => pk.columns.some((k) => k.name === c.name));
        columns.set(c.name, { type: normalise(c.getSQLType()), notNull: c.notNull || c.primary || inPk });
      }
      // A table may be declared twice (the platform's core columns, a module's extra ones): the union
      // is checked, and one column declared twice must be declared alike.
      const known = out.get(config.name) ?? new Map<string, Column>();
      for (const [name, column] of columns) {
        const before = known.get(name);
        if (before && JSON.stringify(before) !== JSON.stringify(column)) {
          throw new Error(`Drizzle declares ${config.name}.${name} twice, differently`);
        }
        known.set(name, column);
      }
      out.set(config.name, known);
    }
  }
  return out;
}

function drift(declared: Tables, actual: Tables): string[] {
  const problems: string[] = [];
  for (const [table, columns] of declared) {
    const real = actual.get(table);
    if (!real) {
      problems.push(`${table}: declared in Drizzle, missing in the database`);
      continue;
    }
    for (const [name, column] of columns) {
      const have = real.get(name);
      if (!have) {
        problems.push(`${table}.${name}: declared in Drizzle, missing in the database`);
        continue;
      }
      if (have.type !== column.type) problems.push(`${table}.${name}: Drizzle ${column.type}, database ${have.type}`);
      if (have.notNull !== column.notNull) {
        const say = (notNull: boolean) => (notNull ? 'not null' : 'nullable');
        problems.push(`${table}.${name}: Drizzle ${say(column.notNull)}, database ${say(have.notNull)}`);
      }
    }
    for (const name of real.keys()) {
      if (!columns.has(name)) problems.push(`${table}.${name}: in the database, missing in Drizzle`);
    }
  }
  return problems;
}

let database: Awaited<ReturnType<typeof freshDatabase>>;
let actual: Tables;

beforeAll(async () => {
  database = await freshDatabase();
  const client = new pg.Client({ connectionString: database.ownerUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ table_name: string; column_name: string; type: string; not_null: boolean }>(`
      select c.relname as table_name, a.attname as column_name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as not_null
      from pg_attribute a
      join pg_class c on c.oid = a.attrelid
      join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p') and a.attnum > 0 and not a.attisdropped`);
    actual = new Map();
    for (const r of rows) {
      const table = actual.get(r.table_name) ?? new Map<string, Column>();
      table.set(r.column_name, { type: normalise(r.type), notNull: r.not_null });
      actual.set(r.table_name, table);
    }
  } finally {
    await client.end();
  }
});
afterAll(() => database.drop());

describe('the Drizzle tables and the migrated database', () => {
  const declared = drizzleTables();

  it('finds the tables of the platform and of every module', () => {
    expect(moduleTables.length).toBeGreaterThan(5);
    expect(declared.size).toBeGreaterThan(30);
  });

  it('have the same tables, columns, types and nullability', () => {
    expect(drift(declared, actual)).toEqual([]);
  });

  it('would see a wrong type, a wrong nullability, a missing and an extra column', () => {
    const wrong = pgTable('sites', {
      id: uuid('id'), // nullable here, not null there
      name: integer('name'), // text there
      nowhere: text('nowhere'),
    });
    const problems = drift(tablesOf([{ wrong }]), actual);
    expect(problems).toEqual(
      expect.arrayContaining([
        'sites.id: Drizzle nullable, database not null',
        'sites.name: Drizzle integer, database text',
        'sites.nowhere: declared in Drizzle, missing in the database',
        'sites.organization_id: in the database, missing in Drizzle',
      ]),
    );
  });

  it('leave no table of the database without a Drizzle view, except these bookkeeping tables', () => {
    const unmapped = [...actual.keys()].filter((t) => !declared.has(t)).sort();
    expect(unmapped).toEqual(UNMAPPED);
  });
});

/** Tables only SQL touches (migration bookkeeping, counters kept by triggers). */
const UNMAPPED: string[] = ['schema_migrations'];

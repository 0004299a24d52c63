import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changes, describeChanges, openFootprint, type FootprintReader } from './attack/footprint.js';
import { freshDatabase } from './helpers.js';

/**
 * The footprint is what the attack suites (bad input, bad uploads, import limits) trust to say "this
 * request wrote nothing"; its fast path skips the count of every table, so it must still see every
 * kind of write, however it is timed against a reading.
 */
let database: Awaited<ReturnType<typeof freshDatabase>>;
let fp: FootprintReader;
let writer: pg.Client;

beforeAll(async () => {
  database = await freshDatabase();
  writer = new pg.Client({ connectionString: database.ownerUrl });
  await writer.connect();
  await writer.query('create table probe (id int primary key, note text)');
  fp = await openFootprint(database.ownerUrl);
});

afterAll(async () => {
  await fp?.close();
  await writer?.end();
  await database?.drop();
});

const seen = async (act: () => Promise<unknown>) => {
  const before = await fp.read();
  await act();
  return describeChanges(changes(before, await fp.read()));
};

describe('footprint', () => {
  it('sees nothing when nothing is written, however often it reads', async () => {
    expect(await seen(async () => {})).toBe('nothing');
    expect(await seen(() => writer.query('select * from probe'))).toBe('nothing');
  });

  it('sees an insert, an update, a delete and a truncate', async () => {
    expect(await seen(() => writer.query(`insert into probe values (1, 'a'), (2, 'b')`))).toBe('public.probe (+2 rows)');
    expect(await seen(() => writer.query(`update probe set note = 'c' where id = 1`))).toBe('public.probe (+0 rows)');
    expect(await seen(() => writer.query('delete from probe where id = 2'))).toBe('public.probe (-1 rows)');
    expect(await seen(() => writer.query('truncate probe'))).toBe('public.probe (-1 rows)');
  });

  it('sees nothing of a rolled-back write', async () => {
    expect(
      await seen(async () => {
        await writer.query('begin');
        await writer.query(`insert into probe values (3, 'gone')`);
        await writer.query('rollback');
      }),
    ).toBe('nothing');
  });

  it('sees a write made before a reading by a transaction that commits after it', async () => {
    await writer.query('begin');
    await writer.query(`insert into probe values (4, 'late')`);
    const before = await fp.read();
    await writer.query('commit');
    expect(describeChanges(changes(before, await fp.read()))).toBe('public.probe (+1 rows)');
    // And the reading after that is steady again.
    expect(await seen(async () => {})).toBe('nothing');
  });

  it('sees a write through the app role, which row-level security and rights bind', async () => {
    const app = new pg.Client({ connectionString: database.appUrl });
    await app.connect();
    try {
      // The app role reaches the probe table only if granted; the trigger draws as its owner.
      await writer.query('grant insert on probe to bulwark_app');
      expect(await seen(() => app.query(`insert into probe values (5, 'app')`))).toBe('public.probe (+1 rows)');
    } finally {
      await app.end();
    }
  });
});

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createOrg, createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => {
  await t?.close();
});

describe('0030_users migration', () => {
  it('marks users created with a password as verified, and walls user_licences', async () => {
    const org = await createOrg(t, 'migr');
    const c = new pg.Client({ connectionString: t.ownerUrl });
    await c.connect();
    try {
      const { rows } = await c.query('select verified_at from users where id = $1', [org.userId]);
      expect(rows[0].verified_at).not.toBeNull();
      const rls = await c.query(`select relrowsecurity from pg_class where relname = 'user_licences'`);
      expect(rls.rows[0].relrowsecurity).toBe(true);
    } finally {
      await c.end();
    }
  });
});

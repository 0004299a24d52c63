import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { createOrg, createTestApp, type TestApp } from './helpers.js';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
}, 120_000);
afterAll(async () => {
  await t?.close();
});

describe('categories and workflows migrations', () => {
  it('create walled tables with their database rules', async () => {
    const org = await createOrg(t, 'mig');
    const c = new pg.Client({ connectionString: t.ownerUrl });
    await c.connect();
    try {
      const rls = await c.query<{ relname: string }>(`select relname from pg_class where relrowsecurity and relname in
        ('categories','sub_categories','root_cause_settings','workflows','workflow_reviewers','workflow_sites') order by relname`);
      expect(rls.rows.map((r) => r.relname)).toEqual([
        'categories',
        'root_cause_settings',
        'sub_categories',
        'workflow_reviewers',
        'workflow_sites',
        'workflows',
      ]);
      // A type of another module is refused by the database itself.
      await expect(
        c.query(`insert into categories (organization_id, module, type, name) values ($1, 'observations', 'injury', 'x')`, [org.id]),
      ).rejects.toThrow();
      const a = await c.query<{ id: string }>(
        `insert into root_cause_settings (organization_id, name) values ($1, 'People') returning id`,
        [org.id],
      );
      const b = await c.query<{ id: string }>(
        `insert into root_cause_settings (organization_id, name, parent_id) values ($1, 'Training', $2) returning id`,
        [org.id, a.rows[0]!.id],
      );
      // The trigger refuses a cycle even when no service checks it.
      await expect(c.query(`update root_cause_settings set parent_id = $1 where id = $2`, [b.rows[0]!.id, a.rows[0]!.id])).rejects.toThrow(
        /descendant/,
      );
      // A parent with children cannot be deleted.
      await expect(c.query(`delete from root_cause_settings where id = $1`, [a.rows[0]!.id])).rejects.toThrow();
      // Six reviewers cannot exist.
      const w = await c.query<{ id: string }>(
        `insert into workflows (organization_id, title, module, type, lead_time_hours) values ($1, 'W', 'permits', 'parallel', 48) returning id`,
        [org.id],
      );
      await expect(
        c.query(`insert into workflow_reviewers (organization_id, workflow_id, position, user_id) values ($1, $2, 6, $3)`, [
          org.id,
          w.rows[0]!.id,
          org.adminId,
        ]),
      ).rejects.toThrow();
      // Removing the organisation still removes all of it.
      await c.query(`insert into workflow_reviewers (organization_id, workflow_id, position, user_id) values ($1, $2, 1, $3)`, [
        org.id,
        w.rows[0]!.id,
        org.adminId,
      ]);
      await c.query(`delete from organizations where id = $1`, [org.id]);
      const left = await c.query(`select 1 from root_cause_settings union all select 1 from workflows`);
      expect(left.rowCount).toBe(0);
    } finally {
      await c.end();
    }
  });
});

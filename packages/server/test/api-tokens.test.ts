import { createHash } from 'node:crypto';
import { API_TOKEN_PREFIX, type ApiTokenCreatedResponse, type ServiceAccount, type ServiceAccountListResponse } from '@bulwark/domain';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { twoOrganizations } from './fixtures.js';
import { call, nextIp, type Session } from './helpers.js';
import { setUpOrganisation, siteTime, type Fixture } from './observations-support.js';

/**
 * API tokens (issue 19): service accounts of kind "integration" with a role, and named tokens an
 * organisation's admin creates, sees used and revokes. A request made with a token is the service
 * account's: its rights are its role's, its writes are recorded under its name, it needs no CSRF token,
 * it is counted per token, and it is refused on any other organisation's address.
 */
const PER_MINUTE = 5;
const world = twoOrganizations('tok', { apiTokenRequestsPerMinute: PER_MINUTE });
let fa: Fixture;
let managerRole: string;
let readerRole: string;
let managerRoleB: string;

/** A request made the way an integration makes it: only the address and the bearer token. */
function withToken(token: string, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown, tenant = 'toka') {
  return world.t.app.inject({
    method,
    url,
    headers: { 'x-tenant': tenant, authorization: `Bearer ${token}` },
    remoteAddress: nextIp(),
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
}

let pool: pg.Pool | undefined;
async function owner<T extends pg.QueryResultRow>(text: string, values: unknown[] = []): Promise<T[]> {
  pool ??= new pg.Pool({ connectionString: world.t.ownerUrl, max: 2 });
  return (await pool.query<T>(text, values)).rows;
}
afterAll(async () => {
  await pool?.end();
});

async function roleId(orgId: string, name: string): Promise<string> {
  const [row] = await owner<{ id: string }>('select id from roles where organization_id = $1 and name = $2', [orgId, name]);
  return row!.id;
}

async function account(admin: Session, name: string, role: string): Promise<ServiceAccount> {
  const res = await call(world.t, admin, 'POST', '/api/service_accounts', { name, role_id: role });
  expect(res.statusCode, res.body).toBe(201);
  return (res.json() as { service_account: ServiceAccount }).service_account;
}

async function token(admin: Session, accountId: string, name: string, extra: Record<string, unknown> = {}) {
  const res = await call(world.t, admin, 'POST', `/api/service_accounts/${accountId}/tokens`, { name, ...extra });
  expect(res.statusCode, res.body).toBe(201);
  return res.json() as ApiTokenCreatedResponse;
}

async function listed(admin: Session, accountId: string): Promise<ServiceAccount> {
  const res = await call(world.t, admin, 'GET', '/api/service_accounts');
  expect(res.statusCode, res.body).toBe(200);
  const found = (res.json() as ServiceAccountListResponse).service_accounts.find((s) => s.id === accountId);
  expect(found).toBeDefined();
  return found!;
}

function observation(over: Record<string, unknown> = {}) {
  return {
    type: 'unsafe_act',
    category_id: fa.ppe,
    sub_category_id: fa.gloves,
    description: 'Reported by the integration',
    site_id: fa.tokyo,
    site_node_id: fa.tokyoDivision,
    observed_at: siteTime('Asia/Tokyo', -30),
    risk_level: 'low',
    action_required: false,
    comment: 'Sent by the field app',
    anonymous: false,
    attachment_ids: [],
    actions: [],
    ...over,
  };
}

beforeAll(async () => {
  fa = await setUpOrganisation(world.t, world.a.id, 'toka');
  await setUpOrganisation(world.t, world.b.id, 'tokb');
  managerRole = await roleId(world.a.id, 'Safety manager');
  readerRole = await roleId(world.a.id, 'Reader');
  managerRoleB = await roleId(world.b.id, 'Safety manager');
}, 60_000);

describe('service accounts and their tokens', () => {
  it('creates a named token shown once, kept only as its SHA-256, and lists it with its hint and last use', async () => {
    const sa = await account(world.a.admin, 'Power BI', readerRole);
    expect(sa).toMatchObject({ name: 'Power BI', role_id: readerRole, role_name: 'Reader', active: true, tokens: [] });
    const created = await token(world.a.admin, sa.id, 'Nightly pull');
    expect(created.secret.startsWith(API_TOKEN_PREFIX)).toBe(true);
    expect(created.secret.length).toBeGreaterThan(40);
    expect(created.token).toMatchObject({ name: 'Nightly pull', created_by_name: 'Admin', last_used_at: null, revoked_at: null });
    expect(created.secret.startsWith(created.token.hint.replace('…', ''))).toBe(true);

    // The database holds the hash, never the token: not in api_tokens, not in any other table.
    const [row] = await owner<{ token_hash: string; hint: string; organization_id: string }>(
      'select token_hash, hint, organization_id from api_tokens where id = $1',
      [created.token.id],
    );
    expect(row!.organization_id).toBe(world.a.id);
    expect(row!.token_hash).toBe(createHash('sha256').update(created.secret).digest('base64url'));
    const tables = await owner<{ table_name: string }>(
      `select table_name from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
    );
    for (const { table_name: table } of tables) {
      const [hit] = await owner<{ n: number }>(`select count(*)::int as n from "${table}" t where t::text like $1`, [
        `%${created.secret.slice(API_TOKEN_PREFIX.length)}%`,
      ]);
      expect(hit!.n, `the token in clear in ${table}`).toBe(0);
    }

    // No answer shows it again.
    const list = await call(world.t, world.a.admin, 'GET', '/api/service_accounts');
    expect(list.body).not.toContain(created.secret);
    expect((await listed(world.a.admin, sa.id)).tokens[0]).toMatchObject({ id: created.token.id, last_used_at: null });

    const used = await withToken(created.secret, 'GET', '/api/v2/observations');
    expect(used.statusCode, used.body).toBe(200);
    const seen = (await listed(world.a.admin, sa.id)).tokens[0]!;
    expect(seen.last_used_at).not.toBeNull();
    expect(Math.abs(Date.parse(seen.last_used_at!) - Date.now())).toBeLessThan(60_000);
  });

  it('acts as the service account: its role decides, writes need no CSRF token and are recorded under its name', async () => {
    const sa = await account(world.a.admin, 'Field app', managerRole);
    const { secret } = await token(world.a.admin, sa.id, 'Sync');
    const res = await withToken(secret, 'POST', '/api/observations', observation());
    expect(res.statusCode, res.body).toBe(201);
    const id = (res.json() as { id: string }).id;

    const detail = await call(world.t, world.a.admin, 'GET', `/api/observations/${id}`);
    expect(detail.statusCode).toBe(200);
    const history = (detail.json() as { observation: { history: Array<{ actor: { id: string } | null }> } }).observation.history;
    expect(history.length).toBeGreaterThan(0);
    for (const h of history) expect(h.actor?.id).toBe(sa.id);
    const audit = await owner<{ actor_user_id: string }>('select actor_user_id from audit_log where entity_id = $1', [id]);
    expect(audit.length).toBeGreaterThan(0);
    expect(new Set(audit.map((a) => a.actor_user_id))).toEqual(new Set([sa.id]));

    // A reader's token reads, and is refused a write its role does not hold.
    const reader = await account(world.a.admin, 'Read only', readerRole);
    const readerToken = (await token(world.a.admin, reader.id, 'ro')).secret;
    expect((await withToken(readerToken, 'GET', `/api/observations/${id}`)).statusCode).toBe(200);
    expect((await withToken(readerToken, 'POST', '/api/observations', observation())).statusCode).toBe(403);

    // A session token still needs its CSRF token: dropping the check is for API tokens only.
    const noCsrf = await world.t.app.inject({
      method: 'POST',
      url: '/api/observations',
      headers: { 'x-tenant': 'toka', authorization: `Bearer ${world.a.admin.token}` },
      payload: observation(),
      remoteAddress: nextIp(),
    });
    expect(noCsrf.statusCode).toBe(403);
  });

  it('is never an administrator: a token may not manage tokens, whatever its role', async () => {
    const sa = await account(world.a.admin, 'Admin wannabe', managerRole);
    const { secret } = await token(world.a.admin, sa.id, 't');
    // Even a role that grants admin access to people.
    await owner('update roles set grants_admin = true where id = $1', [managerRole]);
    try {
      expect((await withToken(secret, 'GET', '/api/service_accounts')).statusCode).toBe(403);
      expect((await withToken(secret, 'POST', '/api/service_accounts', { name: 'x', role_id: managerRole })).statusCode).toBe(403);
      expect((await withToken(secret, 'POST', `/api/service_accounts/${sa.id}/tokens`, { name: 'more' })).statusCode).toBe(403);
      expect((await withToken(secret, 'GET', '/api/webhooks')).statusCode).toBe(403);
      expect((await withToken(secret, 'POST', '/api/data_exports')).statusCode).toBe(403);
    } finally {
      await owner('update roles set grants_admin = false where id = $1', [managerRole]);
    }
  });

  it('is refused on another organisation’s address, and B’s admin cannot see or touch A’s accounts', async () => {
    const sa = await account(world.a.admin, 'Cross', managerRole);
    const { secret, token: t } = await token(world.a.admin, sa.id, 'home only');
    expect((await withToken(secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
    const elsewhere = await withToken(secret, 'GET', '/api/v2/observations', undefined, 'tokb');
    expect(elsewhere.statusCode).toBe(401);
    expect((await withToken(secret, 'POST', '/api/observations', observation(), 'tokb')).statusCode).toBe(401);
    // An address that names no organisation.
    expect((await withToken(secret, 'GET', '/api/v2/observations', undefined, 'nosuchorg')).statusCode).toBe(404);

    const bList = await call(world.t, world.b.admin, 'GET', '/api/service_accounts');
    expect(bList.statusCode).toBe(200);
    expect(bList.body).not.toContain(sa.id);
    expect((await call(world.t, world.b.admin, 'POST', `/api/service_accounts/${sa.id}/tokens`, { name: 'steal' })).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'PATCH', `/api/service_accounts/${sa.id}`, { active: false })).statusCode).toBe(404);
    expect((await call(world.t, world.b.admin, 'DELETE', `/api/api_tokens/${t.id}`)).statusCode).toBe(404);
    // Another organisation's role cannot be given.
    const foreignRole = await call(world.t, world.a.admin, 'POST', '/api/service_accounts', { name: 'x', role_id: managerRoleB });
    expect(foreignRole.statusCode).toBe(400);
    expect(foreignRole.json()).toMatchObject({ fields: { role_id: expect.any(String) } });
    // The token still works at home: nothing B did touched it.
    expect((await withToken(secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
  });

  it('is limited per token to the configured requests a minute (429), without slowing the account’s other tokens', async () => {
    const sa = await account(world.a.admin, 'Busy', readerRole);
    const first = (await token(world.a.admin, sa.id, 'one')).secret;
    const second = (await token(world.a.admin, sa.id, 'two')).secret;
    for (let i = 0; i < PER_MINUTE; i += 1) expect((await withToken(first, 'GET', '/api/v2/observations')).statusCode).toBe(200);
    const limited = await withToken(first, 'GET', '/api/v2/observations');
    expect(limited.statusCode).toBe(429);
    expect((await withToken(second, 'GET', '/api/v2/observations')).statusCode).toBe(200);
  });

  it('refuses a revoked token from the next request, and an expired one at once', async () => {
    const sa = await account(world.a.admin, 'Short lived', readerRole);
    const revoked = await token(world.a.admin, sa.id, 'to revoke');
    expect((await withToken(revoked.secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
    const del = await call(world.t, world.a.admin, 'DELETE', `/api/api_tokens/${revoked.token.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect((await withToken(revoked.secret, 'GET', '/api/v2/observations')).statusCode).toBe(401);
    // Revoking twice changes nothing; the list says when.
    expect((await call(world.t, world.a.admin, 'DELETE', `/api/api_tokens/${revoked.token.id}`)).statusCode).toBe(200);
    expect((await listed(world.a.admin, sa.id)).tokens.find((x) => x.id === revoked.token.id)?.revoked_at).not.toBeNull();

    const expiring = await token(world.a.admin, sa.id, 'a day', { expires_in_days: 1 });
    expect(Date.parse(expiring.token.expires_at!) - Date.now()).toBeGreaterThan(86_000_000);
    expect((await withToken(expiring.secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
    await owner(`update api_tokens set expires_at = now() - interval '1 second' where id = $1`, [expiring.token.id]);
    expect((await withToken(expiring.secret, 'GET', '/api/v2/observations')).statusCode).toBe(401);

    expect(
      (await call(world.t, world.a.admin, 'POST', `/api/service_accounts/${sa.id}/tokens`, { name: 'x', expires_in_days: 0 })).statusCode,
    ).toBe(400);
    expect(
      (await call(world.t, world.a.admin, 'POST', `/api/service_accounts/${sa.id}/tokens`, { name: 'x', expires_in_days: 731 })).statusCode,
    ).toBe(400);
  });

  it('stops every token of a deactivated account at once, and starts them again when it is reactivated', async () => {
    const sa = await account(world.a.admin, 'Paused', readerRole);
    const { secret } = await token(world.a.admin, sa.id, 't');
    expect((await withToken(secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
    const off = await call(world.t, world.a.admin, 'PATCH', `/api/service_accounts/${sa.id}`, { active: false });
    expect(off.statusCode, off.body).toBe(200);
    expect((await withToken(secret, 'GET', '/api/v2/observations')).statusCode).toBe(403);
    await call(world.t, world.a.admin, 'PATCH', `/api/service_accounts/${sa.id}`, { active: true });
    expect((await withToken(secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
  });

  it('refuses a token that is not one: unknown, altered or of another organisation', async () => {
    expect((await withToken(`${API_TOKEN_PREFIX}nonsense`, 'GET', '/api/v2/observations')).statusCode).toBe(401);
    const sa = await account(world.b.admin, 'B integration', managerRoleB);
    const { secret } = await token(world.b.admin, sa.id, 'b');
    expect((await withToken(secret, 'GET', '/api/v2/observations', undefined, 'tokb')).statusCode).toBe(200);
    expect((await withToken(`${secret}x`, 'GET', '/api/v2/observations', undefined, 'tokb')).statusCode).toBe(401);
    expect((await withToken(secret, 'GET', '/api/v2/observations', undefined, 'toka')).statusCode).toBe(401);
  });

  it('is managed by the organisation’s admins only', async () => {
    const sa = await account(world.a.admin, 'Guarded', readerRole);
    const t = await token(world.a.admin, sa.id, 'guarded');
    const user = world.a.user;
    expect((await call(world.t, user, 'GET', '/api/service_accounts')).statusCode).toBe(403);
    expect((await call(world.t, user, 'POST', '/api/service_accounts', { name: 'mine', role_id: readerRole })).statusCode).toBe(403);
    expect((await call(world.t, user, 'PATCH', `/api/service_accounts/${sa.id}`, { active: false })).statusCode).toBe(403);
    expect((await call(world.t, user, 'POST', `/api/service_accounts/${sa.id}/tokens`, { name: 'mine' })).statusCode).toBe(403);
    expect((await call(world.t, user, 'DELETE', `/api/api_tokens/${t.token.id}`)).statusCode).toBe(403);
    expect((await withToken(t.secret, 'GET', '/api/v2/observations')).statusCode).toBe(200);
  });

  it('keeps a service account out of the people screens and away from passwords', async () => {
    const sa = await account(world.a.admin, 'Invisible', readerRole);
    const people = await call(world.t, world.a.admin, 'GET', '/api/users');
    expect(people.statusCode).toBe(200);
    expect(people.body).not.toContain(sa.id);
    const [row] = await owner<{ password_hash: string | null; is_admin: boolean; is_integration: boolean }>(
      'select password_hash, is_admin, is_integration from users where id = $1',
      [sa.id],
    );
    expect(row).toEqual({ password_hash: null, is_admin: false, is_integration: true });
    await expect(owner(`update users set is_admin = true where id = $1`, [sa.id])).rejects.toThrow(/users_integration_no_password/);
  });
});

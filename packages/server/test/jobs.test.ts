import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { connect, type Database } from '../src/platform/db/db.js';
import { startJobs, type Jobs } from '../src/platform/jobs/jobs.js';
import { purgeExpiredTokens, PURGE_QUEUE } from '../src/platform/jobs/maintenance.js';
import { freshDatabase, PASSWORD } from './helpers.js';
import { waitUntil } from './process-helpers.js';

let database: Awaited<ReturnType<typeof freshDatabase>>;
let db: Database;
let jobs: Jobs | undefined;
let orgId: string;
let userId: string;
let otherOrgId: string;
let otherUserId: string;
const logged: string[] = [];

beforeAll(async () => {
  database = await freshDatabase();
  db = connect(database.appUrl, database.ownerUrl, 2);
  const { organization, adminId } = await createOrganizationService(db.app).createOrganization({
    subDomain: 'alpha',
    name: 'Alpha Ltd',
    admin: { email: 'admin@alpha.test', fullName: 'Admin', password: PASSWORD },
  });
  orgId = organization.id;
  userId = adminId;
  const other = await createOrganizationService(db.app).createOrganization({
    subDomain: 'bravo',
    name: 'Bravo Ltd',
    admin: { email: 'admin@bravo.test', fullName: 'Admin', password: PASSWORD },
  });
  otherOrgId = other.organization.id;
  otherUserId = other.adminId;
  // As runtime.ts wires it: the real purge on the owner connection, with its hourly schedule.
  jobs = await startJobs(
    database.ownerUrl,
    {
      [PURGE_QUEUE]: async () => {
        await purgeExpiredTokens(db.owner);
      },
    },
    [{ name: PURGE_QUEUE, cron: '17 * * * *' }],
    (m) => logged.push(m),
  );
});

afterAll(async () => {
  await jobs?.stop();
  await db?.close();
  await database?.drop();
});

const resetTokens = async () =>
  (await db.ownerPool.query<{ token_hash: string }>('select token_hash from password_reset_tokens order by token_hash')).rows.map(
    (r) => r.token_hash,
  );
const refreshTokens = async () =>
  (await db.ownerPool.query<{ token_hash: string }>('select token_hash from refresh_tokens order by token_hash')).rows.map(
    (r) => r.token_hash,
  );

describe('the token purge job', () => {
  it('registers the hourly schedule of the purge queue', async () => {
    const { rows } = await db.ownerPool.query<{ name: string; cron: string }>('select name, cron from pgboss.schedule');
    expect(rows).toContainEqual({ name: PURGE_QUEUE, cron: '17 * * * *' });
  });

  it('deletes expired and long-used tokens of every organisation when a purge job is sent, and keeps the live ones', async () => {
    // The owner connection bypasses the tenant default, so organization_id is given explicitly.
    await db.ownerPool.query(
      `insert into password_reset_tokens (organization_id, token_hash, user_id, expires_at, used_at) values
        ($1, 'reset-expired', $2, now() - interval '1 minute', null),
        ($1, 'reset-live', $2, now() + interval '1 hour', null),
        ($1, 'reset-used-long-ago', $2, now() + interval '1 hour', now() - interval '2 days'),
        ($1, 'reset-used-just-now', $2, now() + interval '1 hour', now() - interval '1 minute')`,
      [orgId, userId],
    );
    await db.ownerPool.query(
      `insert into password_reset_tokens (organization_id, token_hash, user_id, expires_at) values
        ($1, 'reset-expired-bravo', $2, now() - interval '1 second'), ($1, 'reset-live-bravo', $2, now() + interval '1 hour')`,
      [otherOrgId, otherUserId],
    );
    const {
      rows: [session],
    } = await db.ownerPool.query<{ id: string }>('insert into sessions (organization_id, user_id) values ($1, $2) returning id', [
      orgId,
      userId,
    ]);
    await db.ownerPool.query(
      `insert into refresh_tokens (organization_id, token_hash, session_id, expires_at) values
        ($1, 'refresh-expired', $2, now() - interval '1 minute'),
        ($1, 'refresh-live', $2, now() + interval '1 day')`,
      [orgId, session!.id],
    );
    expect(await resetTokens()).toEqual([
      'reset-expired',
      'reset-expired-bravo',
      'reset-live',
      'reset-live-bravo',
      'reset-used-just-now',
      'reset-used-long-ago',
    ]);

    await jobs!.send(PURGE_QUEUE, {});
    // The purge runs two statements (reset tokens, then refresh tokens): wait for both.
    await waitUntil(
      'the purge job to delete the expired tokens',
      async () => !(await resetTokens()).includes('reset-expired') && !(await refreshTokens()).includes('refresh-expired'),
      30_000,
      250,
    );

    expect(await resetTokens()).toEqual(['reset-live', 'reset-live-bravo', 'reset-used-just-now']);
    expect(await refreshTokens()).toEqual(['refresh-live']);
    expect(logged).toEqual([]);
  });
});

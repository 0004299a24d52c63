/**
 * The bare baseline (a child process, like the real server, so neither shares an event loop with the load
 * generator): one Fastify route per read, `GET /bare/:read/:variant?org=<id>`, which runs the read's
 * captured statements (bench/lib/capture.ts) on one owner connection, the organisation a plain parameter.
 * No tenant resolution, no token, no principal, no transaction, no row-level security, no response schema.
 *
 * `GET /bare-session` is the floor under GET /api/auth: it verifies the Bearer token with the server's own
 * signer (platform/auth/tokens.ts) and APP_SECRET and answers the same JSON, with no tenant, session row or
 * principal behind it.
 *
 * Started by startBaseline (baseline.ts): argv[2] is the JSON file of statements, PORT and OWNER_URL come
 * from the environment.
 */
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';
import pg from 'pg';
import { createTokenSigner } from '../../packages/server/src/platform/auth/tokens.js';
import type { BaselineReads } from './baseline.js';

const reads = JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as BaselineReads;
// The same pool size as the real server's app pool (platform/db/db.ts connect()).
const pool = new pg.Pool({
  connectionString: process.env.OWNER_URL,
  max: Number(process.env.POOL_SIZE ?? 10),
  application_name: process.env.APPLICATION_NAME,
});
pool.on('error', () => {});

const app = Fastify({ logger: false });
app.get<{ Params: { read: string; variant: string }; Querystring: { org?: string } }>('/bare/:read/:variant', async (req, reply) => {
  const org = req.query.org ?? '';
  const statements = reads[req.params.read]?.[org]?.[Number(req.params.variant)];
  if (!statements) return reply.status(404).send({ error: 'no such read' });
  const client = await pool.connect();
  try {
    const results: unknown[][] = [];
    for (const s of statements) {
      const params = [...s.params];
      if (s.orgParam > 0) params[s.orgParam - 1] = org;
      results.push((await client.query(s.text, params)).rows);
    }
    return { results };
  } finally {
    client.release();
  }
});

const signer = createTokenSigner(process.env.APP_SECRET ?? '');
app.get('/bare-session', async (req, reply) => {
  const header = req.headers.authorization ?? '';
  const claims = header.startsWith('Bearer ') ? await signer.verify(header.slice(7)) : null;
  if (!claims) return reply.status(401).send({ error: 'unauthorized' });
  return { auth: true as const, user_id: claims.sub, organization_id: claims.org };
});

await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
console.log('baseline ready');
process.on('SIGTERM', () => {
  void app
    .close()
    .then(() => pool.end())
    .then(() => process.exit(0));
});

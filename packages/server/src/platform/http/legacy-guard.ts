import type { Access } from '@bulwark/domain';
import { inTenant } from '../db/db.js';
import type { FastifyInstance } from 'fastify';
import { checkAccess, principalOfClaims, verifyRequest } from './access.js';
import type { Db } from '../db/db.js';
import type { TokenSigner } from '../auth/tokens.js';

// TRANSITIONAL: routes not yet mounted from a contract declare `config.access`; this hook guards them
// as before. Removed once every module is mounted through platform/http/route.ts.
declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    allowedAfterTrial?: boolean;
  }
}

export function registerLegacyGuard(app: FastifyInstance, deps: { db: Db; tokens: TokenSigner; baseDomain: string }) {
  app.addHook('preValidation', async (req) => {
    const config = req.routeOptions.config;
    if (config?.contract) return;
    const access = config?.access;
    if (!access || 'public' in access) return;
    const claims = await verifyRequest(req, deps);
    const principal = await inTenant(deps.db, claims.org, (tx) => principalOfClaims(tx, req, claims, deps));
    checkAccess(principal, { access, allowedAfterTrial: config.allowedAfterTrial ? true : undefined, method: req.method as 'GET' });
  });
}

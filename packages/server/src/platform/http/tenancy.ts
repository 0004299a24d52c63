import { tenantFromHost, TENANT_HEADER } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { PrincipalCache } from '../auth/principal-cache.js';
import type { Db, Tx } from '../db/db.js';

export type Tenant = { id: string; label: string; status: 'Active' | 'Inactive'; isPlatform: boolean; removed: boolean };

/** The tenant label of a request: the client's tenant header, else the first label of the host. */
export function tenantLabel(req: FastifyRequest, baseDomain: string): string {
  const header = req.headers[TENANT_HEADER];
  const fromHeader = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return fromHeader || tenantFromHost(req.headers.host ?? '', baseDomain);
}

/**
 * Looks the label up through the one security-definer function that may read across organisations.
 * With the node's cache, a known label is answered from it (dropped on any change to its organisation);
 * an unknown one is always asked, so a new organisation is found at once.
 */
export async function resolveTenant(db: Db | Tx, label: string, cache?: PrincipalCache | null): Promise<Tenant | null> {
  if (!/^[a-z0-9-]{1,63}$/.test(label)) return null;
  const cached = await cache?.currentTenant(label);
  if (cached) return cached;
  const generation = cache?.generation() ?? 0;
  const result = await db.execute<{ id: string; organization_status: 'Active' | 'Inactive'; is_platform: boolean; removed: boolean }>(
    sql`select * from app_resolve_tenant(${label})`,
  );
  const row = result.rows[0];
  if (!row) return null;
  const tenant: Tenant = { id: row.id, label, status: row.organization_status, isPlatform: row.is_platform, removed: row.removed };
  cache?.putTenant(tenant, generation);
  return tenant;
}

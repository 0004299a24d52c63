import { tenantFromHost, TENANT_HEADER } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db, Tx } from '../db/db.js';

export type Tenant = { id: string; label: string; status: 'Active' | 'Inactive'; isPlatform: boolean; removed: boolean };

/** The tenant label of a request: the client's tenant header, else the first label of the host. */
export function tenantLabel(req: FastifyRequest, baseDomain: string): string {
  const header = req.headers[TENANT_HEADER];
  const fromHeader = (Array.isArray(header) ? header[0] : header)?.trim().toLowerCase();
  return fromHeader || tenantFromHost(req.headers.host ?? '', baseDomain);
}

/** Looks the label up through the one security-definer function that may read across organisations. */
export async function resolveTenant(db: Db | Tx, label: string): Promise<Tenant | null> {
  if (!/^[a-z0-9-]{1,63}$/.test(label)) return null;
  const result = await db.execute<{ id: string; organization_status: 'Active' | 'Inactive'; is_platform: boolean; removed: boolean }>(
    sql`select * from app_resolve_tenant(${label})`,
  );
  const row = result.rows[0];
  if (!row) return null;
  return { id: row.id, label, status: row.organization_status, isPlatform: row.is_platform, removed: row.removed };
}

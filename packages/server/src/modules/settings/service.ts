import { KPI_DEFAULTS, type EhsOcp, type EhsOcpInput, type KpiSettings, type KpiSettingsInput } from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, pagination, searchPattern } from '../../platform/http/list.js';
import { sites } from '../sites/read.js';
import { ehsOcpSites, ehsOcps, kpiSettings } from './tables.js';

// ---- KPI settings -------------------------------------------------------------------------------

export async function getKpiSettings(tx: Tx, year: number): Promise<KpiSettings> {
  const [row] = await tx.select().from(kpiSettings).where(eq(kpiSettings.year, year));
  if (!row) return { year, is_default: true, updated_at: null, ...KPI_DEFAULTS };
  return {
    year,
    is_default: false,
    updated_at: row.updatedAt.toISOString(),
    ltifr_target: row.ltifrTarget,
    observations_per_employee_month: row.observationsPerEmployeeMonth,
    critical_closure_rate_target: row.criticalClosureRateTarget,
    serious_closure_rate_target: row.seriousClosureRateTarget,
    training_hours_per_employee: row.trainingHoursPerEmployee,
  };
}

export async function saveKpiSettings(tx: Tx, actorUserId: string, year: number, input: KpiSettingsInput): Promise<KpiSettings> {
  const values = {
    ltifrTarget: input.ltifr_target,
    observationsPerEmployeeMonth: input.observations_per_employee_month,
    criticalClosureRateTarget: input.critical_closure_rate_target,
    seriousClosureRateTarget: input.serious_closure_rate_target,
    trainingHoursPerEmployee: input.training_hours_per_employee,
    updatedBy: actorUserId,
  };
  await tx
    .insert(kpiSettings)
    .values({ year, ...values })
    .onConflictDoUpdate({ target: [kpiSettings.organizationId, kpiSettings.year], set: { ...values, updatedAt: sql`now()` } });
  await recordAudit(tx, {
    actorUserId,
    action: 'kpi_settings_saved',
    entity: 'KpiSettings',
    entityId: String(year),
    changes: { ...input },
  });
  return getKpiSettings(tx, year);
}

// ---- EHS OCP ------------------------------------------------------------------------------------

type OcpRow = typeof ehsOcps.$inferSelect;

async function withSites(tx: Tx, rows: OcpRow[]): Promise<EhsOcp[]> {
  const ids = rows.map((r) => r.id);
  const links =
    ids.length === 0
      ? []
      : await tx
          .select({ ocpId: ehsOcpSites.ocpId, id: sites.id, name: sites.name })
          .from(ehsOcpSites)
          .innerJoin(sites, and(eq(sites.organizationId, ehsOcpSites.organizationId), eq(sites.id, ehsOcpSites.siteId)))
          .where(inArray(ehsOcpSites.ocpId, ids))
          .orderBy(asc(sites.name));
  return rows.map((r) => ({
    id: r.id,
    code: r.code,
    title: r.title,
    description: r.description,
    active: r.isActive,
    sites: links.filter((l) => l.ocpId === r.id).map((l) => ({ id: l.id, name: l.name })),
    created_at: r.createdAt.toISOString(),
    updated_at: r.updatedAt.toISOString(),
  }));
}

export async function listEhsOcps(
  tx: Tx,
  q: { page: number; per_page: number; search?: string | undefined; active?: boolean | undefined },
) {
  const where: SQL[] = [];
  if (q.search) {
    const pattern = searchPattern(q.search);
    where.push(or(ilike(ehsOcps.code, pattern), ilike(ehsOcps.title, pattern))!);
  }
  if (q.active !== undefined) where.push(eq(ehsOcps.isActive, q.active));
  const filter = where.length > 0 ? and(...where) : undefined;
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select()
    .from(ehsOcps)
    .where(filter)
    .orderBy(asc(sql`lower(${ehsOcps.code})`), asc(ehsOcps.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(ehsOcps).where(filter);
  return { ehs_ocps: await withSites(tx, rows), pagination: pagination(Number(total?.n ?? 0), q.page, q.per_page) };
}

export async function getEhsOcp(tx: Tx, id: string): Promise<EhsOcp> {
  const [row] = await tx.select().from(ehsOcps).where(eq(ehsOcps.id, id));
  if (!row) throw new AppError('not_found');
  return (await withSites(tx, [row]))[0]!;
}

async function checkCode(tx: Tx, code: string, exceptId?: string) {
  const [clash] = await tx
    .select({ id: ehsOcps.id })
    .from(ehsOcps)
    .where(sql`lower(${ehsOcps.code}) = ${code.toLowerCase()}`);
  if (clash && clash.id !== exceptId) throw new AppError('conflict', { fields: { code: 'settings.validation.ocpCodeTaken' } });
}

/** The chosen sites must be the organisation's own (another organisation's id is as unknown as a made-up one). */
async function setSites(tx: Tx, ocpId: string, siteIds: string[]) {
  const unique = [...new Set(siteIds)];
  if (unique.length > 0) {
    const found = await tx.select({ id: sites.id }).from(sites).where(inArray(sites.id, unique));
    if (found.length !== unique.length)
      throw new AppError('validation_failed', { fields: { site_ids: 'settings.validation.siteUnknown' } });
  }
  await tx.delete(ehsOcpSites).where(eq(ehsOcpSites.ocpId, ocpId));
  if (unique.length > 0) await tx.insert(ehsOcpSites).values(unique.map((siteId) => ({ ocpId, siteId })));
}

export async function createEhsOcp(tx: Tx, actorUserId: string, input: EhsOcpInput): Promise<EhsOcp> {
  await checkCode(tx, input.code);
  const [row] = await tx
    .insert(ehsOcps)
    .values({ code: input.code, title: input.title, description: input.description, isActive: input.active, createdBy: actorUserId })
    .returning();
  await setSites(tx, row!.id, input.site_ids);
  await recordAudit(tx, { actorUserId, action: 'created', entity: 'EhsOcp', entityId: row!.id, changes: { ...input } });
  return getEhsOcp(tx, row!.id);
}

export async function updateEhsOcp(tx: Tx, actorUserId: string, id: string, input: Partial<EhsOcpInput>): Promise<EhsOcp> {
  const [current] = await tx.select().from(ehsOcps).where(eq(ehsOcps.id, id)).for('update');
  if (!current) throw new AppError('not_found');
  if (input.code !== undefined) await checkCode(tx, input.code, id);
  await tx
    .update(ehsOcps)
    .set({
      ...(input.code !== undefined ? { code: input.code } : {}),
      ...(input.title !== undefined ? { title: input.title } : {}),
      ...(input.description !== undefined ? { description: input.description } : {}),
      ...(input.active !== undefined ? { isActive: input.active } : {}),
      updatedAt: new Date(),
    })
    .where(eq(ehsOcps.id, id));
  if (input.site_ids !== undefined) await setSites(tx, id, input.site_ids);
  await recordAudit(tx, { actorUserId, action: 'updated', entity: 'EhsOcp', entityId: id, changes: { ...input } });
  return getEhsOcp(tx, id);
}

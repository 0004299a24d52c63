import {
  isCategoryTypeOf,
  type Category,
  type CategoryCreate,
  type CategoryListQuery,
  type CategoryModule,
  type CategoryType,
  type CategoryUpdate,
  type SubCategory,
  type SubCategoryCreate,
  type SubCategoryUpdate,
} from '@bulwark/domain';
import { and, asc, count, eq, ilike, ne, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { AppError } from '../../platform/errors.js';
import { pageWindow, pagination, searchPattern } from '../../platform/http/list.js';
import { categories, subCategories } from './tables.js';

type CategoryRow = typeof categories.$inferSelect;
type SubCategoryRow = typeof subCategories.$inferSelect;

const nameTaken = () => new AppError('conflict', { fields: { name: 'categories.validation.nameTaken' } });

/** A unique-name race lost to a concurrent request surfaces as the database's unique violation. */
export function categoryNameRace(err: unknown): AppError | null {
  for (let e: unknown = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const pg = e as { code?: string; constraint?: string };
    if (
      pg.code === '23505' &&
      ['categories_name_unique', 'sub_categories_name_unique', 'root_cause_settings_name_unique'].includes(pg.constraint ?? '')
    ) {
      return nameTaken();
    }
  }
  return null;
}

const subCount = sql<number>`(select count(*)::int from ${subCategories} s where s.organization_id = ${categories.organizationId} and s.category_id = ${categories.id})`;

function toCategory(row: CategoryRow, subCategoryCount: number): Category {
  return {
    id: row.id,
    module: row.module,
    type: row.type,
    name: row.name,
    description: row.description,
    active: row.active,
    sub_category_count: Number(subCategoryCount),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toSubCategory(row: SubCategoryRow): SubCategory {
  return {
    id: row.id,
    category_id: row.categoryId,
    name: row.name,
    active: row.active,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

/** GET /api/categories: filtered by module, type, status and name, one page at a time. */
export async function listCategories(tx: Tx, q: CategoryListQuery) {
  const where: SQL[] = [];
  if (q.module) where.push(eq(categories.module, q.module));
  if (q.type) where.push(eq(categories.type, q.type));
  if (q.status) where.push(eq(categories.active, q.status === 'active'));
  if (q.search) where.push(ilike(categories.name, searchPattern(q.search)));
  const filter = where.length > 0 ? and(...where) : undefined;
  const { limit, offset } = pageWindow(q);
  const rows = await tx
    .select({ row: categories, subs: subCount })
    .from(categories)
    .where(filter)
    .orderBy(asc(categories.module), asc(categories.type), sql`lower(${categories.name})`, asc(categories.id))
    .limit(limit)
    .offset(offset);
  const [total] = await tx.select({ n: count() }).from(categories).where(filter);
  return {
    categories: rows.map((r) => toCategory(r.row, r.subs)),
    pagination: pagination(Number(total?.n ?? 0), q.page, q.per_page),
  };
}

/** The category of this organisation, or "not found" (another organisation's id included). */
async function findCategory(tx: Tx, id: string, lock = false): Promise<CategoryRow> {
  const query = tx.select().from(categories).where(eq(categories.id, id));
  const [row] = lock ? await query.for('update') : await query;
  if (!row) throw new AppError('not_found');
  return row;
}

export async function getCategory(tx: Tx, id: string) {
  const row = await findCategory(tx, id);
  const subs = await tx
    .select()
    .from(subCategories)
    .where(eq(subCategories.categoryId, id))
    .orderBy(sql`lower(${subCategories.name})`, asc(subCategories.id));
  return { category: toCategory(row, subs.length), sub_categories: subs.map(toSubCategory) };
}

async function assertCategoryNameFree(tx: Tx, module: CategoryModule, type: CategoryType, name: string, exceptId?: string) {
  const [clash] = await tx
    .select({ id: categories.id })
    .from(categories)
    .where(
      and(
        eq(categories.module, module),
        eq(categories.type, type),
        sql`lower(${categories.name}) = lower(${name})`,
        exceptId ? ne(categories.id, exceptId) : undefined,
      ),
    );
  if (clash) throw nameTaken();
}

export async function createCategory(tx: Tx, p: Principal, body: CategoryCreate): Promise<Category> {
  await assertCategoryNameFree(tx, body.module, body.type, body.name);
  const [row] = await tx
    .insert(categories)
    .values({
      module: body.module,
      type: body.type,
      name: body.name,
      description: body.description ?? '',
      active: body.active ?? true,
      createdBy: p.userId,
    })
    .returning();
  await recordAudit(tx, { actorUserId: p.userId, action: 'create', entity: 'Category', entityId: row!.id, changes: { ...body } });
  return toCategory(row!, 0);
}

export async function updateCategory(tx: Tx, p: Principal, id: string, body: CategoryUpdate): Promise<Category> {
  const current = await findCategory(tx, id, true);
  const type = body.type ?? current.type;
  if (!isCategoryTypeOf(current.module, type)) {
    throw new AppError('validation_failed', { fields: { type: 'categories.validation.typeNotInModule' } });
  }
  const name = body.name ?? current.name;
  if (name.toLowerCase() !== current.name.toLowerCase() || type !== current.type) {
    await assertCategoryNameFree(tx, current.module, type, name, id);
  }
  const [row] = await tx
    .update(categories)
    .set({
      type,
      name,
      description: body.description ?? current.description,
      active: body.active ?? current.active,
      updatedAt: new Date(),
    })
    .where(eq(categories.id, id))
    .returning();
  await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'Category', entityId: id, changes: { ...body } });
  const [subs] = await tx.select({ n: count() }).from(subCategories).where(eq(subCategories.categoryId, id));
  return toCategory(row!, Number(subs?.n ?? 0));
}

async function assertSubNameFree(tx: Tx, categoryId: string, name: string, exceptId?: string) {
  const [clash] = await tx
    .select({ id: subCategories.id })
    .from(subCategories)
    .where(
      and(
        eq(subCategories.categoryId, categoryId),
        sql`lower(${subCategories.name}) = lower(${name})`,
        exceptId ? ne(subCategories.id, exceptId) : undefined,
      ),
    );
  if (clash) throw nameTaken();
}

export async function createSubCategory(tx: Tx, p: Principal, categoryId: string, body: SubCategoryCreate): Promise<SubCategory> {
  // Locking the category serialises sub-category writes under it (the name check and the insert).
  await findCategory(tx, categoryId, true);
  await assertSubNameFree(tx, categoryId, body.name);
  const [row] = await tx
    .insert(subCategories)
    .values({ categoryId, name: body.name, active: body.active ?? true, createdBy: p.userId })
    .returning();
  await recordAudit(tx, {
    actorUserId: p.userId,
    action: 'create',
    entity: 'SubCategory',
    entityId: row!.id,
    changes: { categoryId, ...body },
  });
  return toSubCategory(row!);
}

export async function updateSubCategory(
  tx: Tx,
  p: Principal,
  categoryId: string,
  subId: string,
  body: SubCategoryUpdate,
): Promise<SubCategory> {
  await findCategory(tx, categoryId, true);
  const [current] = await tx
    .select()
    .from(subCategories)
    .where(and(eq(subCategories.categoryId, categoryId), eq(subCategories.id, subId)));
  if (!current) throw new AppError('not_found');
  if (body.name !== undefined && body.name.toLowerCase() !== current.name.toLowerCase())
    await assertSubNameFree(tx, categoryId, body.name, subId);
  const [row] = await tx
    .update(subCategories)
    .set({
      name: body.name ?? current.name,
      active: body.active ?? current.active,
      updatedAt: new Date(),
    })
    .where(eq(subCategories.id, subId))
    .returning();
  await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'SubCategory', entityId: subId, changes: { ...body } });
  return toSubCategory(row!);
}

import { CATEGORY_MODULES, CATEGORY_TYPES_BY_MODULE, categoriesApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import {
  categoryNameRace,
  createCategory,
  createSubCategory,
  getCategory,
  listCategories,
  updateCategory,
  updateSubCategory,
} from './service.js';

/** Runs a write and turns a lost unique-name race into the same refusal as the service's own check. */
export async function withNameRace<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    throw categoryNameRace(err) ?? err;
  }
}

export function categoryRoutes(r: Router) {
  r.route(api.list, ({ tx, query }) => listCategories(tx, query));

  r.route(api.types, () => ({
    category_types: CATEGORY_MODULES.map((module) => ({ module, types: [...CATEGORY_TYPES_BY_MODULE[module]] })),
  }));

  r.route(api.get, ({ tx, params }) => getCategory(tx, params.id));

  r.route(api.create, ({ tx, principal, body }) => withNameRace(() => createCategory(tx, principal, body)));

  r.route(api.update, ({ tx, principal, params, body }) => withNameRace(() => updateCategory(tx, principal, params.id, body)));

  r.route(api.subCategories, async ({ tx, params }) => ({ sub_categories: (await getCategory(tx, params.id)).sub_categories }));

  r.route(api.createSubCategory, ({ tx, principal, params, body }) =>
    withNameRace(() => createSubCategory(tx, principal, params.id, body)),
  );

  r.route(api.updateSubCategory, ({ tx, principal, params, body }) =>
    withNameRace(() => updateSubCategory(tx, principal, params.id, params.subId, body)),
  );
}

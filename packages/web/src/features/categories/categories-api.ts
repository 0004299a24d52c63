import {
  can,
  categoriesApi,
  rootCauseSettingsApi,
  type Action,
  type Category,
  type CategoryCreate,
  type CategoryUpdate,
  type SubCategoryCreate,
  type SubCategoryUpdate,
  type RootCauseCreate,
  type RootCauseUpdate,
  type Subject,
} from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import type { LoadedPage } from '../../ui/index.js';

/** Query keys of the categories and why-analysis screens; a write invalidates the whole family. */
export const CATEGORIES_KEY = ['categories'] as const;
export const categoryKey = (id: string) => [...CATEGORIES_KEY, 'one', id] as const;
export const CATEGORY_TYPES_KEY = [...CATEGORIES_KEY, 'types'] as const;
export const ROOT_CAUSES_KEY = ['root_cause_settings'] as const;
export const rootCauseKey = (id: string) => [...ROOT_CAUSES_KEY, 'one', id] as const;

/** Whether the signed-in user may take this action: the same `can()` as the server's guard. */
export function useRight(subject: Subject, action: Action): boolean {
  const profile = useProfile();
  return profile ? can(principalFromProfile(profile).access, subject, action) : false;
}

// --- Categories -------------------------------------------------------------------------------------

/** The category types of each module (they never change while the app runs). */
export function useCategoryTypesQuery() {
  const api = useApi(categoriesApi);
  return useQuery({ queryKey: CATEGORY_TYPES_KEY, queryFn: () => api.types(), staleTime: Infinity });
}

/** A category with its sub-categories; a missing one is shown by the screen, not notified. */
export function useCategory(id: string | null) {
  const api = useApi(categoriesApi);
  return useQuery({
    queryKey: categoryKey(id ?? ''),
    enabled: id !== null,
    queryFn: () => api.get({ params: { id: id! } }, { notify: false }),
    retry: false,
  });
}

/** The list's pages, for `usePagedList`. */
export function useCategoryListLoader(): (query: Record<string, string>) => Promise<LoadedPage<Category>> {
  const api = useApi(categoriesApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.categories, pagination: page.pagination };
  };
}

/** What the category screens send. Forms show refusals under their fields; a toggle's refusal is notified. */
export function useCategoryCommands() {
  const api = useApi(categoriesApi);
  const quiet = { notify: false };
  return {
    create: (body: CategoryCreate) => api.create({ body }, quiet),
    update: (id: string, body: CategoryUpdate) => api.update({ params: { id }, body }, quiet),
    setActive: (id: string, active: boolean) => api.update({ params: { id }, body: { active } }),
    createSubCategory: (id: string, body: SubCategoryCreate) => api.createSubCategory({ params: { id }, body }, quiet),
    renameSubCategory: (id: string, subId: string, body: SubCategoryUpdate) =>
      api.updateSubCategory({ params: { id, subId }, body }, quiet),
    setSubCategoryActive: (id: string, subId: string, active: boolean) =>
      api.updateSubCategory({ params: { id, subId }, body: { active } }),
  };
}

// --- Root-cause settings (why analysis) -------------------------------------------------------------

/** The whole tree of the organisation (one query shared by the tree, the listing and the dialogs). */
export function useRootCauseTree() {
  const api = useApi(rootCauseSettingsApi);
  return useQuery({ queryKey: [...ROOT_CAUSES_KEY, 'all'], queryFn: () => api.list() });
}

/** One entry, its path from the type and the entries directly below it. */
export function useRootCauseListing(id: string) {
  const api = useApi(rootCauseSettingsApi);
  return useQuery({
    queryKey: rootCauseKey(id),
    queryFn: () => api.parentListing({ params: { id } }, { notify: false }),
    retry: false,
  });
}

/** What the why-analysis screens send. The dialog shows its refusals; toggles and deletes are notified. */
export function useRootCauseCommands() {
  const api = useApi(rootCauseSettingsApi);
  const quiet = { notify: false };
  return {
    create: (body: RootCauseCreate) => api.create({ body }, quiet),
    update: (id: string, body: RootCauseUpdate) => api.update({ params: { id }, body }, quiet),
    setActive: (id: string, active: boolean, withChildren: boolean) =>
      api.update({ params: { id }, body: { active, with_children: withChildren } }),
    remove: (id: string) => api.remove({ params: { id } }),
  };
}

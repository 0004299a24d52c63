import { rolesApi, type RoleCreateBody, type RoleSummary } from '@bulwark/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import type { LoadedPage } from '../../ui/index.js';

/** Every roles query starts with this key, so one invalidation refreshes the list and the open role. */
export const ROLES_KEY = ['roles'] as const;

export function useRole(id: string | null) {
  const api = useApi(rolesApi);
  return useQuery({
    queryKey: [...ROLES_KEY, 'one', id],
    queryFn: () => api.get({ params: { id: id! } }, { notify: false }),
    enabled: id !== null,
  });
}

/** The list's pages, for `usePagedList`. */
export function useRoleListLoader(): (query: Record<string, string>) => Promise<LoadedPage<RoleSummary>> {
  const api = useApi(rolesApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.roles, pagination: page.pagination };
  };
}

export function useSaveRole() {
  const api = useApi(rolesApi);
  const queryClient = useQueryClient();
  return useMutation({
    // Forms show their own errors (fields under fields, the rest above the form). The form sends the
    // whole role, which a change (PATCH) takes as well.
    mutationFn: (input: { id: string | null; body: RoleCreateBody }) =>
      input.id
        ? api.update({ params: { id: input.id }, body: input.body }, { notify: false })
        : api.create({ body: input.body }, { notify: false }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROLES_KEY }),
  });
}

export function useDeleteRole() {
  const api = useApi(rolesApi);
  const queryClient = useQueryClient();
  return useMutation({
    // The refusal (system role, users still holding it) is notified by the HTTP client.
    mutationFn: (id: string) => api.remove({ params: { id } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROLES_KEY }),
  });
}

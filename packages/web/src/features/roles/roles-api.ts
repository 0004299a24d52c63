import type { RoleCreateBody, RoleDetail, RoleUpdateBody } from '@bulwark/domain';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useServices } from '../../app/services.js';

/** Every roles query starts with this key, so one invalidation refreshes the list and the open role. */
export const ROLES_KEY = ['roles'] as const;

export function useRole(id: string | null) {
  const { http } = useServices();
  return useQuery({
    queryKey: [...ROLES_KEY, 'one', id],
    queryFn: async () => (await http.get<RoleDetail>(`/api/roles/${encodeURIComponent(id!)}`, { notify: false }))!,
    enabled: id !== null,
  });
}

export function useSaveRole() {
  const { http } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    // Forms show their own errors (fields under fields, the rest above the form).
    mutationFn: async (input: { id: string | null; body: RoleCreateBody | RoleUpdateBody }) =>
      (input.id
        ? await http.patch<RoleDetail>(`/api/roles/${encodeURIComponent(input.id)}`, input.body, { notify: false })
        : await http.post<RoleDetail>('/api/roles', input.body, { notify: false }))!,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROLES_KEY }),
  });
}

export function useDeleteRole() {
  const { http } = useServices();
  const queryClient = useQueryClient();
  return useMutation({
    // The refusal (system role, users still holding it) is notified by the HTTP client.
    mutationFn: (id: string) => http.delete(`/api/roles/${encodeURIComponent(id)}`),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ROLES_KEY }),
  });
}

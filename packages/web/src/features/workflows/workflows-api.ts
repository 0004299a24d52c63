import { workflowsApi, type Workflow, type WorkflowCreate } from '@bulwark/domain';
import { useQuery } from '@tanstack/react-query';
import { useApi } from '../../api/use-api.js';
import type { LoadedPage } from '../../ui/index.js';

/** Query keys of the workflows screen; a write invalidates everything under `WORKFLOWS_KEY`. */
export const WORKFLOWS_KEY = ['workflows'] as const;

/** The list's pages, for `usePagedList`. */
export function useWorkflowListLoader(): (query: Record<string, string>) => Promise<LoadedPage<Workflow>> {
  const api = useApi(workflowsApi);
  return async (query) => {
    const page = await api.list({ query });
    return { rows: page.workflows, pagination: page.pagination };
  };
}

/** Who may review and which sites exist, for the form's pickers (loaded once the dialog is open). */
export function useWorkflowOptions(enabled: boolean) {
  const api = useApi(workflowsApi);
  return useQuery({ queryKey: [...WORKFLOWS_KEY, 'options'], queryFn: () => api.options(), enabled });
}

/** What the workflows screen sends. The form shows its refusals; a delete's refusal is notified. */
export function useWorkflowCommands() {
  const api = useApi(workflowsApi);
  const quiet = { notify: false };
  return {
    create: (body: WorkflowCreate) => api.create({ body }, quiet),
    /** The form sends the whole workflow, which a change (PATCH) takes as well. */
    update: (id: string, body: WorkflowCreate) => api.update({ params: { id }, body }, quiet),
    remove: (id: string) => api.remove({ params: { id } }),
  };
}

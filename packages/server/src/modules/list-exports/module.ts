import type { ServerModule } from '../module.js';
import { listExportRoutes } from './routes.js';
import { LIST_EXPORT_QUEUE, LIST_EXPORT_SWEEP_QUEUE, runListExport, sweepListExports } from './service.js';

/**
 * Large list exports (issue 13): a list's Excel export past 10,000 rows, written by the job
 * `list-export`, kept a week for its requester, swept hourly by `list-export-sweep`.
 */
export const listExportsModule: ServerModule = {
  name: 'list-exports',
  routes: listExportRoutes,
  jobs: (deps) => ({
    handlers: {
      [LIST_EXPORT_QUEUE]: (data) => runListExport(deps, { organizationId: String(data.organizationId), id: String(data.id) }),
      [LIST_EXPORT_SWEEP_QUEUE]: () => sweepListExports(deps),
    },
    schedules: [{ name: LIST_EXPORT_SWEEP_QUEUE, cron: '35 * * * *' }],
  }),
};

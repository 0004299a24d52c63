import type { ServerModule } from '../module.js';
import { dataExportRoutes } from './routes.js';
import { EXPORT_QUEUE, EXPORT_SWEEP_QUEUE, runExport, sweepExports } from './service.js';

/**
 * The full export (issue 19): an administrator's archive of everything the organisation owns, built by
 * the job `data-export`, kept a week, swept hourly by `data-export-sweep`.
 */
export const dataExportModule: ServerModule = {
  name: 'data-export',
  routes: dataExportRoutes,
  jobs: (deps) => ({
    handlers: {
      [EXPORT_QUEUE]: (data) => runExport(deps, { organizationId: String(data.organizationId), id: String(data.id) }),
      [EXPORT_SWEEP_QUEUE]: () => sweepExports(deps),
    },
    schedules: [{ name: EXPORT_SWEEP_QUEUE, cron: '25 * * * *' }],
  }),
};

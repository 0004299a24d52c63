import type { ServerModule } from '../../modules/module.js';
import { fileRoutes } from './routes.js';
import { FILES_SWEEP_QUEUE, sweepUnlinkedFiles } from './sweep.js';

/**
 * Stored files: the one download route, and the admin's view of the storage; the modules that link
 * files decide who reads them (gates.ts) and say which records link them (links.ts). Every hour, files
 * no record has linked a day after their upload are swept (sweep.ts).
 */
export const filesModule: ServerModule = {
  name: 'files',
  routes: (r) => fileRoutes(r),
  jobs: (deps) => ({
    handlers: {
      [FILES_SWEEP_QUEUE]: async () => {
        await sweepUnlinkedFiles(deps);
      },
    },
    schedules: [{ name: FILES_SWEEP_QUEUE, cron: '40 * * * *' }],
  }),
};

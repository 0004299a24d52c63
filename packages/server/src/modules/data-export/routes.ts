import { dataExportApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { downloadExport, EXPORT_QUEUE, listExports, startExport } from './service.js';

/** The full export: the organisation's administrators (the contracts say `admin`). */
export function dataExportRoutes(r: Router) {
  const { deps } = r;
  r.route(api.list, async ({ tx }) => ({ exports: await listExports(tx) }));
  r.route(api.start, async ({ tx, principal, afterCommit }) => {
    const started = await startExport(tx, principal);
    // Built by a job worker (any node running jobs); a long build must not be taken for a dead one.
    afterCommit(() =>
      deps.jobs?.send(
        EXPORT_QUEUE,
        { organizationId: principal.organizationId, id: started.id },
        { retryLimit: 0, expireInSeconds: 6 * 3600 },
      ),
    );
    afterCommit(() => deps.push.toUser(principal.userId, { channel: 'data_exports', change: 'created', id: started.id }));
    return { export: started };
  });
  r.route(api.download, ({ tx, principal, params }) => downloadExport(tx, deps, principal, params.id));
}

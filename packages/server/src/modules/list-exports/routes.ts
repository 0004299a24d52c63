import { listExportsApi as api } from '@bulwark/domain';
import type { Router } from '../../platform/http/route.js';
import { downloadListExport, getListExport } from './service.js';

/** A large list export: its progress and its download, for the person who started it only. */
export function listExportRoutes(r: Router) {
  const { deps } = r;
  r.route(api.get, async ({ tx, principal, params }) => ({ export: await getListExport(tx, principal, params.id) }));
  r.route(api.download, ({ tx, principal, params }) => downloadListExport(tx, deps, principal, params.id));
}

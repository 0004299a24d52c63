import { sitesApi as api, pagination } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import type { Router } from '../../platform/http/route.js';
import { exportList } from '../list-exports/service.js';
import { createNode, deleteNode, siteData, siteFullNames, siteTree, updateNode } from './divisions.js';
import { getManpower, setManpower } from './manpower.js';
import { siteExport, siteFilterOf, storedSiteQuery } from './export.js';
import { activeSitesOfUser, headsOfSafety, userOptions } from './people.js';
import { createSite, getSite, listSites, updateSite } from './sites.js';

const toNodeItem = (n: { id: string; level: string; parentId: string | null; name: string }) => ({
  id: n.id,
  level: n.level,
  parent_id: n.parentId,
  name: n.name,
});

/** Sites: the list (and its Excel export), one site, creating and changing one. */
function siteRecordRoutes(r: Router) {
  const { deps } = r;
  r.route(api.list, async ({ tx, principal, query, lang, afterCommit }) => {
    if (query.export_to_excel) {
      // Every filtered site: in the request up to 10,000, past that by a job (issue 13).
      const f = siteFilterOf(query);
      return exportList({ tx, deps, principal, lang, afterCommit }, 'sites', storedSiteQuery(f), siteExport(tx, f, lang));
    }
    const page = await listSites(tx, query);
    return { sites: page.sites, pagination: pagination(page.total, query.page, query.per_page) };
  });

  r.route(api.get, ({ tx, params }) => getSite(tx, params.id));
  r.route(api.create, ({ tx, principal, body }) => createSite(tx, principal, body));

  r.route(api.update, ({ tx, principal, params, body }) =>
    // Only the fields the caller sent: the service merges them into the stored site and checks the whole.
    updateSite(tx, principal, params.id, { ...body }),
  );
}

/** Divisions, departments and units: a site's tree, its changes, full names for pickers, the organisation's data. */
function divisionRoutes(r: Router) {
  r.route(api.tree, ({ tx, params }) => siteTree(tx, params.id));

  r.route(api.createNode, async ({ tx, principal, params, body }) => toNodeItem(await createNode(tx, principal, params.id, body)));

  r.route(api.updateNode, async ({ tx, principal, params, body }) => {
    // Only the fields sent change: an omitted head stays, an explicit null clears it.
    const input = {
      ...('name' in body && body.name !== undefined ? { name: body.name } : {}),
      ...('head_id' in body ? { head_id: body.head_id ?? null } : {}),
      ...('supervisor_id' in body ? { supervisor_id: body.supervisor_id ?? null } : {}),
    };
    return toNodeItem(await updateNode(tx, principal, params.id, params.node_id, input));
  });

  r.route(api.removeNode, async ({ tx, principal, params }) => {
    await deleteNode(tx, principal, params.id, params.node_id);
    return { ok: true as const };
  });

  r.route(api.fullNames, async ({ tx }) => ({ sites: await siteFullNames(tx) }));

  r.route(api.organizationData, async ({ tx, principal, params }) => {
    // Another organisation is "not found", exactly like one that does not exist.
    if (params.organization_id !== principal.organizationId) throw new AppError('not_found');
    return { sites: await siteData(tx) };
  });
}

/** Monthly manpower of every site (admin). */
function manpowerRoutes(r: Router) {
  r.route(api.manpower, ({ tx, query }) => getManpower(tx, query.year));
  r.route(api.setManpower, ({ tx, principal, body }) => setManpower(tx, principal, body));
}

/** People and options: the people pickers offer, heads of safety, the signed-in user's sites. */
function peopleRoutes(r: Router) {
  r.route(api.userOptions, async ({ tx, query }) => ({ users: await userOptions(tx, query.search) }));
  r.route(api.headsOfSafety, async ({ tx }) => ({ heads_of_safety: await headsOfSafety(tx) }));
  r.route(api.activeSitesOfUser, async ({ tx, principal }) => ({ sites: await activeSitesOfUser(tx, principal) }));
}

/** Sites (spec 001 §3, §5, §9), by area. */
export function siteRoutes(r: Router) {
  siteRecordRoutes(r);
  divisionRoutes(r);
  manpowerRoutes(r);
  peopleRoutes(r);
}

import { sitesApi as api, pagination, translate, type Language, type SiteResponse } from '@bulwark/domain';
import { AppError } from '../../platform/errors.js';
import { workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import type { Router } from '../../platform/http/route.js';
import { createNode, deleteNode, siteData, siteFullNames, siteTree, updateNode } from './divisions.js';
import { getManpower, setManpower } from './manpower.js';
import { activeSitesOfUser, headsOfSafety, userOptions } from './people.js';
import { allSites, createSite, getSite, listSites, updateSite } from './sites.js';

function excelColumns(lang: Language): ExcelColumn<SiteResponse>[] {
  const t = (key: string) => translate(lang, `sites.${key}`);
  return [
    { header: t('fields.name'), key: 'name', width: 28, value: (s) => s.name },
    { header: t('fields.shortName'), key: 'short_name', value: (s) => s.short_name },
    { header: t('fields.siteCode'), key: 'site_code', value: (s) => s.site_code },
    { header: t('fields.timeZone'), key: 'time_zone', width: 22, value: (s) => s.time_zone },
    { header: t('fields.headOfSafety'), key: 'head_of_safety', width: 24, value: (s) => s.head_of_safety?.full_name },
    { header: t('fields.headOfSite'), key: 'head_of_site', width: 24, value: (s) => s.head_of_site?.full_name },
    { header: t('fields.emergencyPhone'), key: 'emergency_phone', width: 18, value: (s) => s.emergency_phone },
    { header: t('fields.emergencyEmail'), key: 'emergency_email', width: 26, value: (s) => s.emergency_email },
    { header: t('fields.address'), key: 'address', width: 32, value: (s) => s.address },
    { header: t('fields.city'), key: 'city', value: (s) => s.city },
    { header: t('fields.state'), key: 'state', value: (s) => s.state },
    { header: t('fields.country'), key: 'country', value: (s) => s.country },
    { header: t('fields.zip'), key: 'zip', value: (s) => s.zip },
    { header: t('fields.latitude'), key: 'latitude', value: (s) => s.latitude },
    { header: t('fields.longitude'), key: 'longitude', value: (s) => s.longitude },
    { header: t('fields.status'), key: 'status', value: (s) => t(s.is_active ? 'list.active' : 'list.inactive') },
  ];
}

const toNodeItem = (n: { id: string; level: string; parentId: string | null; name: string }) => ({
  id: n.id,
  level: n.level,
  parent_id: n.parentId,
  name: n.name,
});

/** Sites: the list (and its Excel export), one site, creating and changing one. */
function siteRecordRoutes(r: Router) {
  r.route(api.list, async ({ tx, query, lang }) => {
    if (query.export_to_excel) {
      const rows = await allSites(tx, { search: query.search, active: query.active });
      return workbookAnswer(translate(lang, 'sites.list.exportName'), translate(lang, 'sites.excel.sheet'), excelColumns(lang), rows);
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

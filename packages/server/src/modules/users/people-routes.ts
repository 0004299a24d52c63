import { pagination, pageWindow, translate, usersApi as api, type Language, type UserRecord } from '@bulwark/domain';
import { workbookAnswer, type ExcelColumn } from '../../platform/export/excel.js';
import type { Router } from '../../platform/http/route.js';
import { LICENCE_SUBJECT } from './groups.js';
import { ACTION_PICKERS, ANY_MODULE_READER, MODULE_PICKERS, needsOneOf, SI_PICKERS, USER_READ } from './pickers.js';
import type { UsersRouteContext } from './routes.js';

function excelColumns(lang: Language): ExcelColumn<UserRecord>[] {
  const t = (k: string) => translate(lang, k);
  return [
    { header: t('users.columns.name'), key: 'name', width: 28, value: (u) => u.full_name },
    { header: t('users.columns.email'), key: 'email', width: 32, value: (u) => u.email },
    { header: t('users.columns.employeeId'), key: 'employee_id', value: (u) => u.employee_id },
    { header: t('users.columns.phone'), key: 'phone', width: 18, value: (u) => u.phone },
    { header: t('users.columns.gender'), key: 'gender', value: (u) => (u.gender ? t(`users.gender.${u.gender}`) : '') },
    { header: t('users.columns.shift'), key: 'shift', value: (u) => (u.shift ? t(`users.shift.${u.shift}`) : '') },
    { header: t('users.columns.role'), key: 'role', width: 20, value: (u) => u.role_name },
    { header: t('users.columns.status'), key: 'status', value: (u) => t(`users.status.${u.status}`) },
    { header: t('users.columns.verified'), key: 'verified', value: (u) => t(u.verified ? 'users.verified.yes' : 'users.verified.no') },
    { header: t('users.columns.admin'), key: 'is_admin', value: (u) => u.is_admin },
    { header: t('users.columns.canIssuePermit'), key: 'can_issue_permit', value: (u) => u.can_issue_permit },
    { header: t('users.columns.siTrained'), key: 'si_trained', value: (u) => u.si_trained },
  ];
}

/** The organisation's users (spec 001 §2 Settings/users) and the groups of active users pickers offer. */
export function peopleRoutes(r: Router, { service, groups }: UsersRouteContext) {
  r.route(api.list, async ({ tx, query, lang }) => {
    const filter = { search: query.search, status: query.status, role: query.role, site: query.site, verified: query.verified };
    if (query.export_to_excel) {
      const { rows } = await service.list(tx, filter, null);
      return workbookAnswer('users', translate(lang, 'users.title'), excelColumns(lang), rows);
    }
    const { rows, total } = await service.list(tx, filter, pageWindow(query));
    return { users: rows, pagination: pagination(total, query.page, query.per_page) };
  });

  r.route(api.allActive, async ({ tx }) => ({ users: await groups.allActive(tx) }), { authorize: ACTION_PICKERS });
  r.route(api.siTrained, async ({ tx }) => ({ users: await groups.siTrained(tx) }), { authorize: SI_PICKERS });
  r.route(api.moduleBased, ({ tx }) => groups.moduleBased(tx), { authorize: MODULE_PICKERS });
  r.route(api.roleWise, ({ tx }) => groups.roleWise(tx));
  r.route(
    api.moduleAtSite,
    async ({ tx, principal, query }) => {
      needsOneOf(USER_READ, [LICENCE_SUBJECT[query.module], 'read'])(principal);
      return { users: await groups.moduleAtSite(tx, query.module, query.site ?? null) };
    },
    { authorize: ANY_MODULE_READER },
  );
  r.route(api.siteModuleBased, ({ tx, params }) => groups.moduleBased(tx, [params.site_id]), { authorize: MODULE_PICKERS });
  r.route(
    api.sitesModuleBased,
    ({ tx, query }) => {
      const raw = query['sites[]'] ?? query.sites ?? [];
      return groups.moduleBased(tx, Array.isArray(raw) ? raw : [raw]);
    },
    { authorize: MODULE_PICKERS },
  );
}

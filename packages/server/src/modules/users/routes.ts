import {
  FILE_RULES,
  LICENCE_MODULES,
  USER_IMPORT_COLUMNS,
  errorResponse,
  importResultResponse,
  importRowErrorSchema,
  licenceBody,
  licenceCountsResponse,
  moduleBasedUsersResponse,
  okResponse,
  profileResponse,
  roleWiseUsersResponse,
  translate,
  updateMyProfileBody,
  userActivateBody,
  userBriefSchema,
  userInviteBody,
  userListFilters,
  userSchema,
  userUpdateBody,
  ROLE_SUBJECTS,
  isWorkflowSubject,
  userFormOptionsResponse,
  userPermissionsResponse,
  type PushChannel,
  type UserRecord,
} from '@bulwark/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { loadPrincipal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import { inTenant } from '../../platform/db/db.js';
import { roleActions, roles, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { buildWorkbook, readWorkbookRows, sendWorkbook, type ExcelColumn } from '../../platform/export/excel.js';
import { principalOf, requireTenant } from '../../platform/http/access.js';
import { limitLinkTokens } from '../../platform/http/rate-limit.js';
import { exportFlag, listQuery, pageWindow, pagination, paginationSchema } from '../../platform/http/list.js';
import { readUpload } from '../../platform/http/upload.js';
import { createUserGroups } from './groups.js';
import { IMPORT_EXAMPLE, importUsers } from './import.js';
import { assignLicence, licenceCounts, licencesHeldBy, unassignLicence } from './licences.js';
import { allSites } from '../sites/service.js';
import { buildProfile } from './profile.js';
import { activateUser, createUsersService } from './service.js';
import type { UserSiteLinks } from './site-links.js';
import { userDetails } from './tables.js';

const tags = ['Users'];
const errors = {
  400: errorResponse,
  401: errorResponse,
  403: errorResponse,
  404: errorResponse,
  409: errorResponse,
  410: errorResponse,
  413: errorResponse,
  415: errorResponse,
};
const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
const briefList = z.object({ users: z.array(userBriefSchema) });
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Push channels whose content a change of users can alter. */
const USER_CHANNELS: PushChannel[] = ['role_wise_users', 'module_based_users', 'used_license_count'];

export function userRoutes(app: FastifyInstance, deps: AppDeps, links: UserSiteLinks) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const service = createUsersService({ config: deps.config, mail: deps.mail, jobs: deps.jobs, push: deps.push, sites: links });
  const groups = createUserGroups(links);
  const announce = (organizationId: string, id?: string) => {
    for (const channel of USER_CHANNELS) deps.push.toOrganization(organizationId, { channel, change: 'all' });
    if (id) deps.push.toUser(id, { channel: 'user', change: 'updated', id });
  };

  // --- The signed-in user's own profile (spec 000 §7) -------------------------------------------------

  for (const url of ['/api/users/user_profile', '/api/v2/users/user_profile']) {
    r.get(
      url,
      {
        config: { access: { session: true } },
        schema: { tags, summary: 'The signed-in user, organisation, rules and modules', response: { 200: profileResponse, ...errors } },
      },
      async (req) => {
        const p = principalOf(req);
        return inTenant(deps.db.app, p.organizationId, (tx) => buildProfile(tx, p, deps.config.hiraV2UserIds));
      },
    );
  }

  r.patch(
    '/api/users/user_profile',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Change the signed-in user’s own language',
        body: updateMyProfileBody,
        response: { 200: profileResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const profile = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        await tx.update(users).set({ locale: req.body.locale, updatedAt: new Date() }).where(eq(users.id, p.userId));
        await recordAudit(tx, {
          actorUserId: p.userId,
          action: 'update',
          entity: 'User',
          entityId: p.userId,
          changes: { locale: req.body.locale },
        });
        const fresh = await loadPrincipal(tx, p.userId, p.sessionId);
        return buildProfile(tx, fresh!, deps.config.hiraV2UserIds);
      });
      deps.push.toUser(p.userId, { channel: 'user', change: 'updated', id: p.userId });
      return profile;
    },
  );

  // --- Administration (spec 001 §2 Settings/users) ----------------------------------------------------

  r.get(
    '/api/users',
    {
      config: { access: { subject: 'User', action: 'read' } },
      schema: {
        tags,
        summary: 'Users of the organisation (search, status, role, site, verified; export_to_excel for a workbook)',
        querystring: listQuery.extend(userListFilters.shape).extend(exportFlag.shape),
        response: { 200: z.object({ users: z.array(userSchema), pagination: paginationSchema }), ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const q = req.query;
      const filter = { search: q.search, status: q.status, role: q.role, site: q.site, verified: q.verified };
      if (q.export_to_excel) {
        const { rows } = await inTenant(deps.db.app, p.organizationId, (tx) => service.list(tx, filter, null));
        const t = (k: string) => translate(req.lang, k);
        const columns: ExcelColumn<UserRecord>[] = [
          { header: t('users.columns.name'), key: 'name', width: 28, value: (u) => u.full_name },
          { header: t('users.columns.email'), key: 'email', width: 32, value: (u) => u.email },
          { header: t('users.columns.employeeId'), key: 'employee_id', value: (u) => u.employee_id },
          { header: t('users.columns.phone'), key: 'phone', width: 18, value: (u) => u.phone },
          { header: t('users.columns.gender'), key: 'gender', value: (u) => (u.gender ? t(`users.gender.${u.gender}`) : '') },
          { header: t('users.columns.shift'), key: 'shift', value: (u) => (u.shift ? t(`users.shift.${u.shift}`) : '') },
          { header: t('users.columns.role'), key: 'role', width: 20, value: (u) => u.role_name },
          { header: t('users.columns.status'), key: 'status', value: (u) => t(`users.status.${u.status}`) },
          {
            header: t('users.columns.verified'),
            key: 'verified',
            value: (u) => t(u.verified ? 'users.verified.yes' : 'users.verified.no'),
          },
          { header: t('users.columns.admin'), key: 'is_admin', value: (u) => u.is_admin },
          { header: t('users.columns.canIssuePermit'), key: 'can_issue_permit', value: (u) => u.can_issue_permit },
          { header: t('users.columns.siTrained'), key: 'si_trained', value: (u) => u.si_trained },
        ];
        return sendWorkbook(reply, 'users', t('users.title'), columns, rows);
      }
      const { rows, total } = await inTenant(deps.db.app, p.organizationId, (tx) => service.list(tx, filter, pageWindow(q)));
      return { users: rows, pagination: pagination(total, q.page, q.per_page) };
    },
  );

  r.post(
    '/api/users',
    {
      config: { access: { subject: 'User', action: 'create' } },
      schema: {
        tags,
        summary: 'Invite a user by e-mail (activation link valid 7 days)',
        body: userInviteBody,
        response: { 201: userSchema, ...errors },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const { record, queued } = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        const { id, queued } = await service.invite(tx, p, req.body, req.lang);
        return { record: await service.get(tx, id), queued };
      });
      await service.deliver(queued);
      announce(p.organizationId);
      return reply.status(201).send(record);
    },
  );

  r.get(
    '/api/users/all_active_users',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Every active user (for pickers)', response: { 200: briefList, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return { users: await inTenant(deps.db.app, p.organizationId, (tx) => groups.allActive(tx)) };
    },
  );

  r.get(
    '/api/users/users_with_si_trained',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Active users trained for safety interactions', response: { 200: briefList, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return { users: await inTenant(deps.db.app, p.organizationId, (tx) => groups.siTrained(tx)) };
    },
  );

  r.get(
    '/api/users/module_based_users',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Active users whose role reads User, Permit, Incident, Audit',
        response: { 200: moduleBasedUsersResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleBased(tx));
    },
  );

  r.get(
    '/api/v2/sites/role_wise_users',
    {
      config: { access: { session: true } },
      schema: { tags, summary: 'Active users grouped by role', response: { 200: roleWiseUsersResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => groups.roleWise(tx));
    },
  );

  r.get(
    '/api/individual_module_site_based_all_users',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Active users of a site whose role reads the module',
        querystring: z.object({
          module: z.enum(LICENCE_MODULES, { message: 'validation.invalid' }),
          site: z.uuid({ message: 'validation.invalid' }).optional(),
        }),
        response: { 200: briefList, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return {
        users: await inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleAtSite(tx, req.query.module, req.query.site ?? null)),
      };
    },
  );

  r.get(
    '/api/site_based_module_based_users/:site_id',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Module-based users of one site',
        params: z.object({ site_id: z.uuid({ message: 'validation.invalid' }) }),
        response: { 200: moduleBasedUsersResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleBased(tx, [req.params.site_id]));
    },
  );

  r.get(
    '/api/site_based_module_based_users',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'Module-based users of several sites (sites[]=...)',
        querystring: z.object({
          'sites[]': z
            .union([z.uuid({ message: 'validation.invalid' }), z.array(z.uuid({ message: 'validation.invalid' })).max(500)])
            .optional(),
          sites: z
            .union([z.uuid({ message: 'validation.invalid' }), z.array(z.uuid({ message: 'validation.invalid' })).max(500)])
            .optional(),
        }),
        response: { 200: moduleBasedUsersResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const raw = req.query['sites[]'] ?? req.query.sites ?? [];
      const siteIds = Array.isArray(raw) ? raw : [raw];
      return inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleBased(tx, siteIds));
    },
  );

  // --- Licences (admin only) ---------------------------------------------------------------------------

  r.get(
    '/api/users/licences',
    {
      config: { access: { admin: true } },
      schema: { tags, summary: 'Licences used and unassigned per module', response: { 200: licenceCountsResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => licenceCounts(tx));
    },
  );

  r.get(
    '/api/users/licences/mine',
    {
      config: { access: { session: true } },
      schema: {
        tags,
        summary: 'The modules the signed-in user holds a licence for',
        response: { 200: z.object({ modules: z.array(z.enum(LICENCE_MODULES)), is_admin: z.boolean() }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return { modules: await inTenant(deps.db.app, p.organizationId, (tx) => licencesHeldBy(tx, p.userId)), is_admin: p.isAdmin };
    },
  );

  r.post(
    '/api/users/licences',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'Give a user a licence for a module',
        body: licenceBody,
        response: { 200: licenceCountsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const counts = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        await assignLicence(tx, p, req.body.user_id, req.body.module);
        return licenceCounts(tx);
      });
      announce(p.organizationId, req.body.user_id);
      return counts;
    },
  );

  r.delete(
    '/api/users/licences/:user_id/:module',
    {
      config: { access: { admin: true } },
      schema: {
        tags,
        summary: 'Take a module licence back from a user',
        params: z.object({
          user_id: z.uuid({ message: 'validation.invalid' }),
          module: z.enum(LICENCE_MODULES, { message: 'validation.invalid' }),
        }),
        response: { 200: licenceCountsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const counts = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        await unassignLicence(tx, p, req.params.user_id, req.params.module);
        return licenceCounts(tx);
      });
      announce(p.organizationId, req.params.user_id);
      return counts;
    },
  );

  // --- Bulk import from Excel --------------------------------------------------------------------------

  r.get(
    '/api/users/import_template',
    {
      config: { access: { subject: 'User', action: 'create' } },
      schema: { tags, summary: 'The Excel template of the bulk import' },
    },
    async (_req, reply) => {
      const body = await buildWorkbook(
        'users',
        USER_IMPORT_COLUMNS.map((c) => ({ header: c, key: c, width: 24, value: (row: Record<string, string>) => row[c] })),
        [IMPORT_EXAMPLE],
      );
      return reply
        .header('content-type', XLSX)
        .header('content-disposition', 'attachment; filename="users-import-template.xlsx"')
        .header('cache-control', 'no-store')
        .send(body);
    },
  );

  r.post(
    '/api/users/import',
    {
      config: { access: { subject: 'User', action: 'create' } },
      schema: {
        tags,
        summary: 'Invite every user of an Excel sheet, or none when any row is wrong (multipart field "file")',
        consumes: ['multipart/form-data'],
        response: { ...errors, 200: importResultResponse, 400: errorResponse.extend({ rows: z.array(importRowErrorSchema).optional() }) },
      },
    },
    async (req, reply) => {
      const p = principalOf(req);
      const upload = await readUpload(req, FILE_RULES.workbook.maxBytes);
      const sheet = await readWorkbookRows(upload.bytes);
      const result = await inTenant(deps.db.app, p.organizationId, (tx) => importUsers(tx, p, service, links, sheet, req.lang));
      if (result.errors.length > 0) {
        // `fields` carries the same report keyed "<row>.<column>", for clients that read only the standard shape.
        const fields = Object.fromEntries(result.errors.map((e) => [`${e.row}.${e.field}`, e.message]));
        return reply
          .status(400)
          .send({ errors: [translate(req.lang, 'users.importDialog.failed')], code: 'validation_failed', fields, rows: result.errors });
      }
      await service.deliver(result.queued);
      announce(p.organizationId);
      return { imported: result.imported, errors: [] };
    },
  );

  // --- Activation (public: the invited person has no session yet) -----------------------------------

  r.post(
    '/api/users/activate',
    {
      config: { access: { public: true } },
      // The same budget as password reset links: both guess at one token table.
      onRequest: (req) => limitLinkTokens(deps.db.app, req.ip),
      schema: {
        tags,
        summary: 'Set the password through the e-mailed activation link (single use, 7 days)',
        body: userActivateBody,
        response: { 200: okResponse, ...errors },
      },
    },
    async (req) => {
      const tenant = await requireTenant(req, deps.db.app, deps.config.baseDomain);
      await inTenant(deps.db.app, tenant.id, (tx) => activateUser(tx, req.body.token, req.body.password));
      announce(tenant.id);
      return { ok: true as const };
    },
  );

  r.get(
    '/api/users/form_options',
    {
      config: { access: { subject: 'User', action: 'read' } },
      schema: { tags, summary: 'Roles and active sites the user forms offer', response: { 200: userFormOptionsResponse, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, async (tx) => ({
        roles: (
          await tx
            .select({ id: roles.id, name: roles.name, grants_admin: roles.grantsAdmin })
            .from(roles)
            .orderBy(asc(sql`lower(${roles.name})`))
        ).filter((role) => p.isAdmin || !role.grants_admin),
        sites: (await allSites(tx, { active: 'active' })).map((s) => ({ id: s.id, name: s.name })),
      }));
    },
  );

  r.get(
    '/api/users/:id/permissions',
    {
      config: { access: { subject: 'User', action: 'read' } },
      schema: {
        tags,
        summary: 'The user’s role matrix (read-only) and special rights',
        params: idParams,
        response: { 200: userPermissionsResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, async (tx) => {
        const row = await service.findRow(tx, req.params.id);
        const rows = row.roleId
          ? await tx
              .select()
              .from(roleActions)
              .where(and(eq(roleActions.roleId, row.roleId)))
          : [];
        return {
          user: { id: row.id, full_name: row.fullName, is_admin: row.isAdmin, can_issue_permit: row.canIssuePermit },
          role: row.roleId && row.roleName ? { id: row.roleId, name: row.roleName } : null,
          matrix: ROLE_SUBJECTS.map((subject) => {
            const ra = rows.find((x) => x.name === subject);
            const wf = isWorkflowSubject(subject);
            return {
              subject,
              read: ra?.rView ?? false,
              create: ra?.rAdd ?? false,
              update: ra?.rEdit ?? false,
              delete: ra?.rDestroy ?? false,
              workflow: wf
                ? (['revoke', 'extend', 'close', 'reject', 'approve'] as const).filter(
                    (a) => ra?.[`is${a[0]!.toUpperCase()}${a.slice(1)}` as 'isRevoke'] ?? false,
                  )
                : null,
            };
          }),
        };
      });
    },
  );

  // --- One user ----------------------------------------------------------------------------------------

  r.get(
    '/api/users/:id',
    {
      config: { access: { subject: 'User', action: 'read' } },
      schema: { tags, summary: 'One user', params: idParams, response: { 200: userSchema, ...errors } },
    },
    async (req) => {
      const p = principalOf(req);
      return inTenant(deps.db.app, p.organizationId, (tx) => service.get(tx, req.params.id));
    },
  );

  r.patch(
    '/api/users/:id',
    {
      config: { access: { subject: 'User', action: 'update' } },
      schema: {
        tags,
        summary: 'Change a user’s fields, rights or status (Active/Inactive)',
        params: idParams,
        body: userUpdateBody,
        response: { 200: userSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { record, queued } = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        const { queued } = await service.update(tx, p, req.params.id, req.body);
        return { record: await service.get(tx, req.params.id), queued };
      });
      await service.deliver(queued);
      announce(p.organizationId, req.params.id);
      deps.push.toUser(req.params.id, { channel: 'rules', change: 'all' });
      return record;
    },
  );

  r.post(
    '/api/users/:id/resend_activation',
    {
      config: { access: { subject: 'User', action: 'create' } },
      schema: {
        tags,
        summary: 'Send a new activation link to a user who has not activated yet',
        params: idParams,
        response: { 200: z.object({ email: z.string() }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { email, queued } = await inTenant(deps.db.app, p.organizationId, (tx) => service.resend(tx, p, req.params.id));
      await service.deliver(queued);
      return { email };
    },
  );

  r.post(
    '/api/users/:id/photo',
    {
      config: { access: { subject: 'User', action: 'update' } },
      schema: {
        tags,
        summary: 'Set the user’s photo (JPEG or PNG under 500 KB; multipart field "file")',
        params: idParams,
        consumes: ['multipart/form-data'],
        response: { 200: userSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const upload = await readUpload(req, FILE_RULES.photo.maxBytes);
      const old: { purge?: () => Promise<void> } = {};
      const record = await inTenant(deps.db.app, p.organizationId, async (tx) => {
        const row = await service.findRow(tx, req.params.id);
        const stored = await deps.storage.store(tx, {
          purpose: 'photo',
          fileName: upload.fileName,
          bytes: upload.bytes,
          uploadedBy: p.userId,
        });
        await tx.update(userDetails).set({ photoFileId: stored.id }).where(eq(userDetails.id, row.id));
        if (row.photoFileId) old.purge = (await deps.storage.remove(tx, row.photoFileId))?.purge;
        await recordAudit(tx, {
          actorUserId: p.userId,
          action: 'photo',
          entity: 'User',
          entityId: row.id,
          changes: { file_id: stored.id },
        });
        return service.get(tx, row.id);
      });
      await old.purge?.();
      deps.push.toUser(req.params.id, { channel: 'user', change: 'updated', id: req.params.id });
      return record;
    },
  );
}

/** Push requests of spec 000 §7 answered by this module. */
export function userPushHandlers(deps: AppDeps, links: UserSiteLinks) {
  const groups = createUserGroups(links);
  return {
    get_role_wise_users: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => groups.roleWise(tx)),
    get_module_based_users: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => groups.moduleBased(tx)),
    get_used_lincence_count: (p: { organizationId: string }) => inTenant(deps.db.app, p.organizationId, (tx) => licenceCounts(tx)),
  };
}

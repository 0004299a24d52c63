import {
  LANGUAGES,
  errorResponse,
  isMailerScenarioId,
  mailOutboxItemSchema,
  mailerModulesResponse,
  mailerScenarioDetailSchema,
  mailerScenariosResponse,
  mailerTemplateSchema,
} from '@bulwark/domain';
import { count, desc } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Principal } from '../../platform/auth/principal.js';
import { inTenant } from '../../platform/db/db.js';
import { mailOutbox } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf } from '../../platform/http/access.js';
import { listQuery, pageWindow, pagination, paginationSchema } from '../../platform/http/list.js';
import {
  listMailerModules,
  listMailerScenarios,
  mailerScenarioDetail,
  requireModule,
  resetMailerTemplate,
  saveMailerTemplate,
} from './service.js';

const tags = ['Mailers'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };
const admin = { access: { admin: true as const } };

const orgParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });
const moduleParams = orgParams.extend({ moduleId: z.coerce.number({ message: 'validation.invalid' }).int().positive() });
const scenarioParams = moduleParams.extend({ scenarioId: z.string().max(60) });

/**
 * Sign-in links (password reset, activation: /password-reset/<token>) let whoever holds them take over
 * the account. A message the mail server delivers (or will) is its recipient's alone, so the outbox
 * hides the token. A message kept without SMTP is shown whole (the outbox is then the only way it
 * reaches anyone: the demo case), except another person's password-reset link: an admin may read the
 * invitations they sent, but never take over an existing account.
 */
export function outboxBody(body: string, status: 'pending' | 'sent' | 'failed' | 'kept', forViewer = true): string {
  const hideAll = status !== 'kept';
  return body.replace(
    /(\/password-reset\/)([^\s?#]+)(\?activate=1)?/g,
    (link, prefix: string, _token: string, activate: string | undefined) =>
      hideAll || (!activate && !forViewer) ? `${prefix}••••••${activate ?? ''}` : link,
  );
}

/** The organisation in the URL must be the caller's own; any other id is "not found", like a missing one. */
function ownOrganization(p: Principal, id: string) {
  if (id !== p.organizationId) throw new AppError('not_found');
}

function scenarioOf(params: z.infer<typeof scenarioParams>) {
  const module = requireModule(params.moduleId, params.scenarioId);
  if (!isMailerScenarioId(params.scenarioId)) throw new AppError('not_found');
  return { module, id: params.scenarioId };
}

export function mailerRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const inOrg = <T>(p: Principal, fn: Parameters<typeof inTenant<T>>[2]) => inTenant(deps.db.app, p.organizationId, fn);

  // Paths keep the name :id for the organisation: find-my-way needs one parameter name per position,
  // and /api/organizations/:id is the organisation route of the platform core.
  r.get(
    '/api/organizations/:id/mailer_modules',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Modules of mail content management, with how many scenarios each has customised',
        params: orgParams,
        response: { 200: mailerModulesResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      ownOrganization(p, req.params.id);
      return inOrg(p, (tx) => listMailerModules(tx));
    },
  );

  r.get(
    '/api/organizations/:id/mailer_modules/:moduleId/scenarios',
    {
      config: admin,
      schema: {
        tags,
        summary: 'Scenarios of one module, their variables and customised languages',
        params: moduleParams,
        response: { 200: mailerScenariosResponse, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      ownOrganization(p, req.params.id);
      const module = requireModule(req.params.moduleId);
      return inOrg(p, (tx) => listMailerScenarios(tx, module));
    },
  );

  r.get(
    '/api/organizations/:id/mailer_modules/:moduleId/scenarios/:scenarioId',
    {
      config: admin,
      schema: {
        tags,
        summary: 'One scenario: its texts in every language (own or default) and the defaults',
        params: scenarioParams,
        response: { 200: mailerScenarioDetailSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      ownOrganization(p, req.params.id);
      const { module, id } = scenarioOf(req.params);
      return inOrg(p, (tx) => mailerScenarioDetail(tx, module, id));
    },
  );

  r.put(
    '/api/organizations/:id/mailer_modules/:moduleId/scenarios/:scenarioId',
    {
      config: admin,
      schema: {
        tags,
        summary: "Save the organisation's texts of a scenario in one language (variables checked)",
        params: scenarioParams,
        body: mailerTemplateSchema,
        response: { 200: mailerScenarioDetailSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      ownOrganization(p, req.params.id);
      const { module, id } = scenarioOf(req.params);
      return inOrg(p, async (tx) => {
        await saveMailerTemplate(tx, p.userId, id, req.body, req.lang);
        return mailerScenarioDetail(tx, module, id);
      });
    },
  );

  r.delete(
    '/api/organizations/:id/mailer_modules/:moduleId/scenarios/:scenarioId',
    {
      config: admin,
      schema: {
        tags,
        summary: "Reset a scenario's texts in one language to the default",
        params: scenarioParams,
        querystring: z.object({ language: z.enum(LANGUAGES, { message: 'validation.invalid' }) }),
        response: { 200: mailerScenarioDetailSchema, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      ownOrganization(p, req.params.id);
      const { module, id } = scenarioOf(req.params);
      return inOrg(p, async (tx) => {
        await resetMailerTemplate(tx, p.userId, id, req.query.language);
        return mailerScenarioDetail(tx, module, id);
      });
    },
  );

  r.get(
    '/api/mail_outbox',
    {
      config: admin,
      schema: {
        tags,
        summary: "The organisation's outbox, newest first (what was sent, is pending, failed, or kept without SMTP)",
        querystring: listQuery.pick({ page: true, per_page: true }),
        response: {
          200: z.object({ mails: z.array(mailOutboxItemSchema), pagination: paginationSchema, smtp_enabled: z.boolean() }),
          ...errors,
        },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const { limit, offset } = pageWindow(req.query);
      return inOrg(p, async (tx) => {
        const rows = await tx
          .select()
          .from(mailOutbox)
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
          .limit(limit)
          .offset(offset);
        const [total] = await tx.select({ n: count() }).from(mailOutbox);
        return {
          mails: rows.map((m) => ({
            id: m.id,
            to: m.toAddress,
            subject: m.subject,
            body: outboxBody(m.body, m.status, m.toAddress.toLowerCase() === p.email.toLowerCase()),
            status: m.status,
            attempts: m.attempts,
            last_error: m.lastError,
            created_at: m.createdAt.toISOString(),
            sent_at: m.sentAt?.toISOString() ?? null,
          })),
          pagination: pagination(Number(total?.n ?? 0), req.query.page, req.query.per_page),
          smtp_enabled: deps.mail.smtpEnabled,
        };
      });
    },
  );
}

import { errorResponse, ORGANIZATION_STATUSES, SUBSCRIPTION_TYPES } from '@bulwark/domain';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { recordAudit } from '../../platform/audit.js';
import { asPlatform, inTenant, type Tx } from '../../platform/db/db.js';
import { organizations } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { principalOf } from '../../platform/http/access.js';
import { resolveTenant } from '../../platform/http/tenancy.js';

const tags = ['Organizations'];
const errors = { 400: errorResponse, 401: errorResponse, 403: errorResponse, 404: errorResponse };

const platformOrganization = z.object({
  id: z.string(),
  name: z.string(),
  sub_domain_name: z.string(),
  organization_status: z.enum(ORGANIZATION_STATUSES),
  subscription_type: z.enum(SUBSCRIPTION_TYPES),
  is_enterprise: z.boolean(),
  trial_ends_at: z.string().nullable(),
  created_at: z.string(),
});

function toDto(o: typeof organizations.$inferSelect): z.infer<typeof platformOrganization> {
  return {
    id: o.id,
    name: o.name,
    sub_domain_name: o.subDomainName,
    organization_status: o.organizationStatus,
    subscription_type: o.subscriptionType,
    is_enterprise: o.isEnterprise,
    trial_ends_at: o.trialEndsAt?.toISOString() ?? null,
    created_at: o.createdAt.toISOString(),
  };
}

async function findCustomerOrg(tx: Tx, id: string) {
  const [org] = await tx
    .select()
    .from(organizations)
    .where(and(eq(organizations.id, id), eq(organizations.isPlatform, false), isNull(organizations.deletedAt)));
  if (!org) throw new AppError('not_found');
  return org;
}

export function organizationRoutes(app: FastifyInstance, deps: AppDeps) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const idParams = z.object({ id: z.uuid({ message: 'validation.invalid' }) });

  r.get(
    '/api/v1/organizations/lookup',
    {
      config: { access: { public: true } },
      schema: {
        tags,
        summary: 'Does an organisation use this sub-domain? (sign-in finder on the bare domain)',
        querystring: z.object({ sub_domain: z.string().trim().toLowerCase().min(1, { message: 'validation.required' }).max(63) }),
        response: { 200: z.object({ found: z.boolean() }), ...errors },
      },
    },
    async (req) => {
      const tenant = await resolveTenant(deps.db.app, req.query.sub_domain);
      return { found: !!tenant && !tenant.removed && !tenant.isPlatform };
    },
  );

  r.get(
    '/api/organizations',
    {
      config: { access: { platform: true } },
      schema: {
        tags,
        summary: 'Every customer organisation (platform admin)',
        response: { 200: z.object({ organizations: z.array(platformOrganization) }), ...errors },
      },
    },
    async () => {
      const rows = await asPlatform(deps.db.app, (tx) =>
        tx
          .select()
          .from(organizations)
          .where(and(eq(organizations.isPlatform, false), isNull(organizations.deletedAt)))
          .orderBy(asc(organizations.subDomainName)),
      );
      return { organizations: rows.map(toDto) };
    },
  );

  r.get(
    '/api/organizations/:id',
    {
      config: { access: { platform: true } },
      schema: {
        tags,
        summary: 'One customer organisation (platform admin)',
        params: idParams,
        response: { 200: platformOrganization, ...errors },
      },
    },
    async (req) => toDto(await asPlatform(deps.db.app, (tx) => findCustomerOrg(tx, req.params.id))),
  );

  r.patch(
    '/api/organizations/:id',
    {
      config: { access: { platform: true } },
      schema: {
        tags,
        summary: 'Activate or deactivate an organisation, or change its subscription (platform admin)',
        params: idParams,
        body: z.object({
          organization_status: z.enum(ORGANIZATION_STATUSES).optional(),
          subscription_type: z.enum(SUBSCRIPTION_TYPES).optional(),
        }),
        response: { 200: platformOrganization, ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      const org = await asPlatform(deps.db.app, async (tx) => {
        await findCustomerOrg(tx, req.params.id);
        const [row] = await tx
          .update(organizations)
          .set({
            ...(req.body.organization_status ? { organizationStatus: req.body.organization_status } : {}),
            ...(req.body.subscription_type ? { subscriptionType: req.body.subscription_type } : {}),
            updatedAt: new Date(),
          })
          .where(eq(organizations.id, req.params.id))
          .returning();
        return row!;
      });
      await recordPlatformAudit(deps, p.organizationId, p.userId, 'update', org.id, req.body);
      deps.push.toOrganization(org.id, { channel: 'organization', change: 'updated', id: org.id });
      return toDto(org);
    },
  );

  r.delete(
    '/api/organizations/:id',
    {
      config: { access: { platform: true } },
      schema: {
        tags,
        summary: 'Remove an organisation: its users are signed out at once (platform admin)',
        params: idParams,
        response: { 200: z.object({ ok: z.literal(true) }), ...errors },
      },
    },
    async (req) => {
      const p = principalOf(req);
      await asPlatform(deps.db.app, async (tx) => {
        await findCustomerOrg(tx, req.params.id);
        await tx
          .update(organizations)
          .set({ deletedAt: new Date(), organizationStatus: 'Inactive' })
          .where(eq(organizations.id, req.params.id));
      });
      await recordPlatformAudit(deps, p.organizationId, p.userId, 'remove', req.params.id, {});
      deps.push.toOrganization(req.params.id, { channel: 'organization', change: 'removed', id: req.params.id });
      return { ok: true as const };
    },
  );
}

/** Platform actions are recorded in the platform tenant's own trail. */
async function recordPlatformAudit(
  deps: AppDeps,
  platformOrgId: string,
  actor: string,
  action: string,
  orgId: string,
  changes: Record<string, unknown>,
) {
  await inTenant(deps.db.app, platformOrgId, (tx) =>
    recordAudit(tx, { actorUserId: actor, action, entity: 'Organization', entityId: orgId, changes }),
  );
}

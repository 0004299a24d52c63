import {
  ROLE_SUBJECTS,
  SUBJECTS,
  isWorkflowSubject,
  rulesFromRoleActions,
  type AccessContext,
  type Action,
  type Rule,
  type Subject,
} from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { createOrganizationService, createRole } from '../../src/modules/organizations/service.js';
import { asPlatform } from '../../src/platform/db/db.js';
import { mailOutbox } from '../../src/platform/db/schema.js';
import { call, nextIp, PASSWORD, signIn, type Session, type TestApp } from '../helpers.js';

/**
 * The kinds of caller a rights check must tell apart, all of one organisation (spec 000 §1, §6):
 * its admin, a role reading one module only (one per subject), a role with no rights, a guest, the
 * platform super admin at its own tenant and at the organisation's address, and nobody signed in.
 */
export type ActorKind = 'admin' | 'reader' | 'none' | 'guest' | 'platform' | 'platform-elsewhere' | 'signed-out';

export type Actor = {
  name: string;
  kind: ActorKind;
  /** The rights this actor must have: what the test granted, never what the server says. */
  access: AccessContext;
  isAdmin: boolean;
  isPlatformAdmin: boolean;
  /** The sub-domain its requests name (the platform admin's own tenant is "public"). */
  tenant: string;
  /** Null when signed out. */
  session: () => Session | null;
  /** A new session, after a probe (a sign-out route) ended the old one. */
  renew: () => Promise<void>;
};

/** Read on one subject only: the narrowest role that still holds a right. */
const readOnly = (subject: Subject): Rule[] => [{ subject, actions: ['read'] }];

/** The guest system role (modules/guests/service.ts): report and read observations and incidents. */
export const GUEST_RULES: Rule[] = [
  { subject: 'Observation', actions: ['read', 'create'] },
  { subject: 'Incident', actions: ['read', 'create'] },
];

/** The Administrator system role: every action of every subject a role can grant. */
export const ADMIN_RULES: Rule[] = rulesFromRoleActions(
  ROLE_SUBJECTS.map((name) => ({
    name,
    r_add: true,
    r_edit: true,
    r_view: true,
    r_destroy: true,
    is_revoke: true,
    is_extend: true,
    is_close: true,
    is_reject: true,
    is_approve: true,
  })),
);

export const PLATFORM_RULES: Rule[] = [{ subject: 'Organization', actions: ['read', 'create', 'update', 'delete'] }];

const context = (rules: Rule[], isPlatformAdmin = false): AccessContext => ({
  rules,
  isPlatformAdmin,
  memExhausted: false,
  subscriptionType: 'free_trial',
  trialExpired: false,
});

/** A role row granting exactly `actions` on `subject`, as the roles table stores it. */
function roleRow(subject: Subject, actions: readonly Action[]) {
  const has = (a: Action) => actions.includes(a);
  const wf = isWorkflowSubject(subject);
  return {
    name: subject,
    rAdd: has('create'),
    rEdit: has('update'),
    rView: has('read'),
    rDestroy: has('delete'),
    isRevoke: wf && has('revoke'),
    isExtend: wf && has('extend'),
    isClose: wf && has('close'),
    isReject: wf && has('reject'),
    isApprove: wf && has('approve'),
  };
}

/** The slug of a subject in e-mail addresses and role names ("RC Master" → "rc-master"). */
const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '-');

const sameRules = (a: readonly Rule[], b: readonly Rule[]) => {
  const norm = (rules: readonly Rule[]) =>
    JSON.stringify(
      rules
        .filter((r) => r.actions.length > 0)
        .map((r) => ({ s: r.subject, a: [...r.actions].sort() }))
        .sort((x, y) => x.s.localeCompare(y.s)),
    );
  return norm(a) === norm(b);
};

/** Signs in and checks that the server sees the rights the test granted, so the matrix compares against the truth. */
async function signedIn(
  t: TestApp,
  tenant: string,
  email: string,
  password: string,
  want: { rules: Rule[]; isAdmin: boolean; isPlatformAdmin: boolean },
) {
  let session = await signIn(t, tenant, email, password);
  const { user, rules } = session.profile;
  if (!sameRules(rules, want.rules) || user.is_admin !== want.isAdmin || user.is_platform_admin !== want.isPlatformAdmin) {
    throw new Error(
      `${email} signed in with ${JSON.stringify({ rules, is_admin: user.is_admin, is_platform_admin: user.is_platform_admin })}, expected ${JSON.stringify(want)}`,
    );
  }
  return {
    session: () => session,
    renew: async () => {
      session = await signIn(t, tenant, email, password);
    },
  };
}

/** A guest account made the way a visitor makes one: allowed by the admin, asked for, activated from the mail. */
export async function createGuest(t: TestApp, admin: Session, subDomain: string, email: string, password: string) {
  const allowed = await call(t, admin, 'PUT', '/api/organizations/guest_settings', { enabled: true });
  if (allowed.statusCode !== 200) throw new Error(`allowing guests failed: ${allowed.statusCode} ${allowed.body}`);
  const asked = await t.app.inject({
    method: 'POST',
    url: '/api/guest_users',
    headers: { 'x-tenant': subDomain },
    payload: { full_name: 'Gus Guest', email },
    remoteAddress: nextIp(),
  });
  if (asked.statusCode !== 202) throw new Error(`guest sign-up failed: ${asked.statusCode} ${asked.body}`);
  const [mail] = await t.deps.db.owner.select().from(mailOutbox).where(eq(mailOutbox.toAddress, email));
  const token = /\/password-reset\/([^?\s]+)\?activate=1/.exec(mail?.body ?? '')?.[1];
  if (!token) throw new Error('the guest got no activation link');
  const activated = await t.app.inject({
    method: 'POST',
    url: '/api/users/activate',
    headers: { 'x-tenant': subDomain },
    payload: { token, password },
  });
  if (activated.statusCode !== 200) throw new Error(`guest activation failed: ${activated.statusCode} ${activated.body}`);
}

/**
 * Every actor of the matrix for the organisation `org` (from createOrg). Readers come from the domain's
 * SUBJECTS, so a subject added later gets its reader without anyone naming it. Organization is among
 * them on purpose: an organisation role that lists it must still get nothing of the platform's.
 */
export async function signInActors(t: TestApp, org: { subDomain: string; adminEmail: string }): Promise<Actor[]> {
  const orgs = createOrganizationService(t.deps.db.app);
  const { subDomain } = org;
  await asPlatform(t.deps.db.app, async (tx) => {
    const rows = await tx.execute<{ id: string }>(sql`select id from organizations where sub_domain_name = ${subDomain}`);
    const id = rows.rows[0]?.id;
    if (!id) throw new Error(`no organisation ${subDomain}`);
    await tx.execute(sql`select set_config('app.organization_id', ${id}, true)`);
    for (const subject of SUBJECTS) await createRole(tx, `Reads ${subject}`, [roleRow(subject, ['read'])]);
    await createRole(tx, 'Nothing', []);
  });

  const members: Array<{ name: string; kind: ActorKind; email: string; role?: string; rules: Rule[] }> = [
    ...SUBJECTS.map((subject) => ({
      name: `reader(${subject})`,
      kind: 'reader' as const,
      email: `reads-${slug(subject)}@${subDomain}.test`,
      role: `Reads ${subject}`,
      rules: readOnly(subject),
    })),
    { name: 'no rights', kind: 'none', email: `nothing@${subDomain}.test`, role: 'Nothing', rules: [] },
  ];
  for (const m of members) await orgs.createUser(subDomain, { email: m.email, fullName: m.name, password: PASSWORD, roleName: m.role });
  const platformEmail = `root@platform-of-${subDomain}.test`;
  await orgs.createPlatformAdmin({ email: platformEmail, password: PASSWORD, fullName: 'Root' });

  const admin = await signedIn(t, subDomain, org.adminEmail, PASSWORD, { rules: ADMIN_RULES, isAdmin: true, isPlatformAdmin: false });
  const guestEmail = `guest@visitors-of-${subDomain}.test`;
  await createGuest(t, admin.session()!, subDomain, guestEmail, PASSWORD);

  const actors: Actor[] = [
    { name: 'admin', kind: 'admin', access: context(ADMIN_RULES), isAdmin: true, isPlatformAdmin: false, tenant: subDomain, ...admin },
  ];
  for (const m of members) {
    const s = await signedIn(t, subDomain, m.email, PASSWORD, { rules: m.rules, isAdmin: false, isPlatformAdmin: false });
    actors.push({ name: m.name, kind: m.kind, access: context(m.rules), isAdmin: false, isPlatformAdmin: false, tenant: subDomain, ...s });
  }
  const guest = await signedIn(t, subDomain, guestEmail, PASSWORD, { rules: GUEST_RULES, isAdmin: false, isPlatformAdmin: false });
  actors.push({
    name: 'guest',
    kind: 'guest',
    access: context(GUEST_RULES),
    isAdmin: false,
    isPlatformAdmin: false,
    tenant: subDomain,
    ...guest,
  });

  const platform = await signedIn(t, 'public', platformEmail, PASSWORD, { rules: PLATFORM_RULES, isAdmin: false, isPlatformAdmin: true });
  actors.push({
    name: 'platform admin',
    kind: 'platform',
    access: context(PLATFORM_RULES, true),
    isAdmin: false,
    isPlatformAdmin: true,
    tenant: 'public',
    ...platform,
  });
  // The same platform session, sent to the organisation's address: a token is worth nothing at another tenant.
  actors.push({
    name: `platform admin at ${subDomain}`,
    kind: 'platform-elsewhere',
    access: context(PLATFORM_RULES, true),
    isAdmin: false,
    isPlatformAdmin: true,
    tenant: subDomain,
    session: () => ({ ...platform.session()!, tenant: subDomain }),
    renew: platform.renew,
  });
  actors.push({
    name: 'signed out',
    kind: 'signed-out',
    access: context([]),
    isAdmin: false,
    isPlatformAdmin: false,
    tenant: subDomain,
    session: () => null,
    renew: async () => {},
  });
  return actors;
}

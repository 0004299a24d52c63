import {
  FREE_TRIAL_DAYS,
  FREE_TRIAL_STORAGE_BYTES,
  FREE_TRIAL_USER_LIMIT,
  PRODUCT_NAME,
  ROLE_SUBJECTS,
  emailSchema,
  isWorkflowSubject,
  passwordProblem,
  subdomainProblem,
  translate,
  type Language,
  type Subject,
} from '@bulwark/domain';
import { eq, sql } from 'drizzle-orm';
import { hashPassword } from '../../platform/auth/passwords.js';
import { recordAudit } from '../../platform/audit.js';
import { asPlatform, type Db, type Tx } from '../../platform/db/db.js';
import { organizations, roleActions, roles, users } from '../../platform/db/schema.js';
import { createNotification } from '../notifications/service.js';

/** A failure an operator can act on: the CLI prints `message`; the API maps `code`. */
export class OrgInputError extends Error {
  constructor(
    readonly code: 'conflict' | 'validation_failed' | 'not_found',
    message: string,
  ) {
    super(message);
  }
}

export type NewUser = {
  email: string;
  fullName: string;
  password: string;
  isAdmin?: boolean;
  roleName?: string;
  canIssuePermit?: boolean;
  locale?: Language;
};
/** A user whose password was hashed earlier (a sign-up keeps only the hash while it waits for its code). */
export type NewUserWithHash = Omit<NewUser, 'password'> & { passwordHash: string };

export type NewOrganization = {
  subDomain: string;
  name: string;
  admin: Omit<NewUser, 'isAdmin' | 'roleName'> | Omit<NewUserWithHash, 'isAdmin' | 'roleName'>;
  onboardingDone?: boolean;
};

function checkEmail(email: string): string {
  const parsed = emailSchema.safeParse(email);
  if (!parsed.success) throw new OrgInputError('validation_failed', `"${email}" is not a valid e-mail address.`);
  return parsed.data;
}

function checkPassword(password: string): void {
  const problem = passwordProblem(password);
  if (problem === 'tooShort') throw new OrgInputError('validation_failed', 'The password needs at least 8 characters.');
  if (problem === 'needsSpecial') throw new OrgInputError('validation_failed', 'The password needs at least one special character.');
}

async function setTenant(tx: Tx, organizationId: string) {
  await tx.execute(sql`select set_config('app.organization_id', ${organizationId}, true)`);
}

/**
 * Lets the rest of a platform admin's request transaction see every organisation row (what `asPlatform`
 * opens a transaction for). Only for routes whose contract admits the platform admin alone.
 */
export async function seeEveryOrganization(tx: Tx): Promise<void> {
  await tx.execute(sql`select set_config('app.platform', 'on', true)`);
}

/** Grants every right of every module: the system role an organisation's creator holds. */
function fullRights(subject: Subject) {
  const wf = isWorkflowSubject(subject);
  return {
    name: subject,
    rAdd: true,
    rEdit: true,
    rView: true,
    rDestroy: true,
    isRevoke: wf,
    isExtend: wf,
    isClose: wf,
    isReject: wf,
    isApprove: wf,
  };
}

export async function createRole(
  tx: Tx,
  name: string,
  rights: Array<ReturnType<typeof fullRights>>,
  flags: { isSystem?: boolean; grantsAdmin?: boolean } = {},
) {
  const [role] = await tx
    .insert(roles)
    .values({ name, isSystem: flags.isSystem ?? false, grantsAdmin: flags.grantsAdmin ?? false })
    .returning({ id: roles.id });
  if (rights.length > 0) await tx.insert(roleActions).values(rights.map((r) => ({ ...r, roleId: role!.id })));
  return role!.id;
}

/** Adds a user to the organisation of the transaction. */
export async function addUser(tx: Tx, u: NewUser | NewUserWithHash): Promise<string> {
  const email = checkEmail(u.email);
  if ('password' in u) checkPassword(u.password);
  const [taken] = await tx
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${email}`);
  if (taken) throw new OrgInputError('conflict', `A user with the e-mail ${email} already exists in this organisation.`);
  let roleId: string | null = null;
  if (u.roleName) {
    const [role] = await tx
      .select({ id: roles.id })
      .from(roles)
      .where(sql`lower(${roles.name}) = lower(${u.roleName})`);
    if (!role) throw new OrgInputError('not_found', `No role named "${u.roleName}" exists in this organisation.`);
    roleId = role.id;
  }
  const [user] = await tx
    .insert(users)
    .values({
      email,
      fullName: u.fullName.trim() || email,
      passwordHash: 'password' in u ? await hashPassword(u.password) : u.passwordHash,
      isAdmin: u.isAdmin ?? false,
      locale: u.locale ?? 'en',
      canIssuePermit: u.canIssuePermit ?? false,
      roleId,
    })
    .returning({ id: users.id });
  return user!.id;
}

/**
 * Creates an organisation on its free trial (spec 001 §9: 14 days, 100 MB, 50 users) with its
 * Administrator system role (every right) and its first admin user, inside the caller's platform
 * transaction (`asPlatform`), so the caller's own writes commit or fail with it. Leaves the
 * transaction acting for the new organisation.
 */
export async function createOrganizationIn(tx: Tx, input: NewOrganization) {
  const subDomain = checkOrganization(input);
  const [exists] = await tx.select({ id: organizations.id }).from(organizations).where(eq(organizations.subDomainName, subDomain));
  if (exists) throw new OrgInputError('conflict', `The sub-domain "${subDomain}" is already taken.`);
  const [org] = await tx
    .insert(organizations)
    .values({
      name: input.name.trim(),
      subDomainName: subDomain,
      organizationStatus: 'Active',
      isPlatform: false,
      isEnterprise: false,
      subscriptionType: 'free_trial',
      trialEndsAt: new Date(Date.now() + FREE_TRIAL_DAYS * 86_400_000),
      onboardingCompletedAt: input.onboardingDone === false ? null : new Date(),
      timezone: 'UTC',
      storageQuotaBytes: FREE_TRIAL_STORAGE_BYTES,
      storageUsedBytes: 0,
      userLimit: FREE_TRIAL_USER_LIMIT,
    })
    .returning();
  await setTenant(tx, org!.id);
  await createRole(tx, 'Administrator', ROLE_SUBJECTS.map(fullRights), { isSystem: true, grantsAdmin: true });
  const adminId = await addUser(tx, { ...input.admin, isAdmin: true, roleName: 'Administrator', canIssuePermit: true });
  const lang = input.admin.locale ?? 'en';
  await createNotification(tx, {
    userId: adminId,
    title: translate(lang, 'notifications.welcomeTitle', { product: PRODUCT_NAME }),
    body: translate(lang, 'notifications.welcomeBody'),
    // Every notification opens something (issue 15): the welcome opens the home.
    link: '/',
  });
  await recordAudit(tx, { actorUserId: null, action: 'create', entity: 'Organization', entityId: org!.id, changes: { subDomain } });
  return { organization: org!, adminId };
}

/** The checks that need no database; returns the normalised sub-domain. */
function checkOrganization(input: NewOrganization): string {
  const subDomain = input.subDomain.trim().toLowerCase();
  const problem = subdomainProblem(subDomain);
  if (problem === 'format')
    throw new OrgInputError(
      'validation_failed',
      `"${input.subDomain}" is not a valid sub-domain: use lower-case letters, digits and hyphens.`,
    );
  if (problem === 'reserved') throw new OrgInputError('validation_failed', `The sub-domain "${subDomain}" is reserved.`);
  if (!input.name.trim()) throw new OrgInputError('validation_failed', 'The organisation needs a name.');
  checkEmail(input.admin.email);
  if ('password' in input.admin) checkPassword(input.admin.password);
  return subDomain;
}

export function createOrganizationService(db: Db) {
  /** Creates an organisation and its admin in one transaction: a failure leaves nothing behind. */
  async function createOrganization(input: NewOrganization) {
    checkOrganization(input);
    return asPlatform(db, (tx) => createOrganizationIn(tx, input));
  }

  async function findOrganizationId(tx: Tx, subDomain: string): Promise<string> {
    const [org] = await tx
      .select({ id: organizations.id })
      .from(organizations)
      .where(eq(organizations.subDomainName, subDomain.toLowerCase()));
    if (!org) throw new OrgInputError('not_found', `No organisation uses the sub-domain "${subDomain}".`);
    return org.id;
  }

  /** Adds a user to an existing organisation (CLI). */
  async function createUser(subDomain: string, u: NewUser) {
    return asPlatform(db, async (tx) => {
      const organizationId = await findOrganizationId(tx, subDomain);
      await setTenant(tx, organizationId);
      const id = await addUser(tx, u);
      await recordAudit(tx, { actorUserId: null, action: 'create', entity: 'User', entityId: id, changes: { email: u.email } });
      return { id, organizationId };
    });
  }

  /** A platform super admin is a user of the public tenant with the platform flag. */
  async function createPlatformAdmin(u: Pick<NewUser, 'email' | 'password' | 'fullName'>) {
    return asPlatform(db, async (tx) => {
      const organizationId = await findOrganizationId(tx, 'public');
      await setTenant(tx, organizationId);
      const id = await addUser(tx, { ...u, isAdmin: false });
      await tx.update(users).set({ isPlatformAdmin: true }).where(eq(users.id, id));
      await recordAudit(tx, { actorUserId: null, action: 'create', entity: 'PlatformAdmin', entityId: id });
      return { id };
    });
  }

  return { createOrganization, createUser, createPlatformAdmin };
}
export type OrganizationService = ReturnType<typeof createOrganizationService>;

import { USER_ACTIVATION_TTL_SECONDS, type Language, type UserInviteInput, type UserRecord, type UserUpdateInput } from '@bulwark/domain';
import { and, asc, count, eq, ilike, inArray, isNotNull, isNull, ne, or, sql, type SQL } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { randomToken, sha256 } from '../../platform/auth/tokens.js';
import { recordAudit } from '../../platform/audit.js';
import { publicUrl } from '../../platform/config.js';
import type { Tx } from '../../platform/db/db.js';
import { organizations, passwordResetTokens, roles, sessions, users } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { AppError } from '../../platform/errors.js';
import { searchPattern } from '../../platform/http/list.js';
import type { AfterCommit } from '../../platform/http/route.js';
import { dispatchTemplatedMail, sendTemplatedMail, type QueuedTemplatedMail } from '../mailers/send.js';
import { reviewerRemoved } from '../workflows/review.js';
import type { UserSiteLinks } from './site-links.js';
import { activeAdminCount } from '../../platform/auth/admins.js';
import { administered, adminByFlagOrRole, licencesOf, selectUsers, toRecord, type UserRow } from './records.js';
import { checkAdminStanding, checkLastAdmin } from './standing.js';
import { userDetails, userLicences } from './tables.js';

export type UserListFilter = { search?: string; status?: 'Active' | 'Inactive'; role?: string; site?: string; verified?: 'true' | 'false' };

export type UsersDeps = Pick<AppDeps, 'config' | 'mail' | 'jobs' | 'push'> & { sites: UserSiteLinks };

/** The users service: every function runs inside the caller's tenant transaction. */
export function createUsersService(deps: UsersDeps) {
  async function whereOf(tx: Tx, f: UserListFilter): Promise<SQL> {
    const parts: SQL[] = [administered];
    if (f.search) {
      const pattern = searchPattern(f.search);
      parts.push(or(ilike(users.fullName, pattern), ilike(users.email, pattern), ilike(userDetails.employeeId, pattern))!);
    }
    if (f.status) parts.push(eq(users.status, f.status));
    if (f.role) parts.push(eq(users.roleId, f.role));
    if (f.verified === 'true') parts.push(isNotNull(userDetails.verifiedAt));
    if (f.verified === 'false') parts.push(isNull(userDetails.verifiedAt));
    if (f.site) {
      const ids = await deps.sites.userIdsAtSites(tx, [f.site]);
      parts.push(ids.length > 0 ? inArray(users.id, ids) : sql`false`);
    }
    return and(...parts)!;
  }

  async function records(tx: Tx, rows: UserRow[]): Promise<UserRecord[]> {
    const licences = await licencesOf(
      tx,
      rows.map((r) => r.id),
    );
    const onlyOneAdmin = rows.length > 0 && (await activeAdminCount(tx)) === 1;
    const out: UserRecord[] = [];
    for (const row of rows) {
      const lastAdmin = onlyOneAdmin && row.status === 'Active' && adminByFlagOrRole(row);
      out.push(toRecord(row, await deps.sites.listUserSiteIds(tx, row.id), licences.get(row.id) ?? [], lastAdmin));
    }
    return out;
  }

  async function list(tx: Tx, f: UserListFilter, window: { limit: number; offset: number } | null) {
    const where = await whereOf(tx, f);
    const [total] = await tx.select({ n: count() }).from(users).where(where);
    let query = selectUsers(tx)
      .where(where)
      .orderBy(asc(sql`lower(${users.fullName})`), asc(users.id))
      .$dynamic();
    if (window) query = query.limit(window.limit).offset(window.offset);
    return { rows: await records(tx, await query), total: Number(total?.n ?? 0) };
  }

  async function findRow(tx: Tx, id: string): Promise<UserRow> {
    const [row] = await selectUsers(tx).where(and(eq(users.id, id), administered));
    // Another organisation's user is invisible through row-level security: "not found", like a missing id.
    if (!row) throw new AppError('not_found');
    return row;
  }

  async function get(tx: Tx, id: string): Promise<UserRecord> {
    const [record] = await records(tx, [await findRow(tx, id)]);
    return record!;
  }

  /** Locks the organisation row so concurrent invitations cannot both take the last seat. */
  async function checkSeats(tx: Tx, adding: number): Promise<void> {
    const [org] = await tx
      .select({ limit: organizations.userLimit })
      .from(organizations)
      .where(eq(organizations.id, sql`app_current_org()`))
      .for('update');
    // Guests are unlimited (spec 001 §6): they never take a seat.
    const [active] = await tx
      .select({ n: count() })
      .from(users)
      .where(and(administered, eq(users.status, 'Active'), eq(users.isGuest, false)));
    if (Number(active?.n ?? 0) + adding > (org?.limit ?? 0)) throw new AppError('plan_limit_reached');
  }

  /** Refuses a role that does not exist or that the principal may not hand out; says whether it grants admin access. */
  async function checkRole(tx: Tx, p: Principal, roleId: string, field = 'role_id'): Promise<boolean> {
    const [role] = await tx.select({ grantsAdmin: roles.grantsAdmin }).from(roles).where(eq(roles.id, roleId));
    if (!role) throw new AppError('validation_failed', { fields: { [field]: 'users.validation.roleNotFound' } });
    // A role that grants administration is itself an admin switch: only an admin hands it out.
    if (role.grantsAdmin && !p.isAdmin) throw new AppError('forbidden', { fields: { [field]: 'users.validation.adminOnly' } });
    return role.grantsAdmin;
  }

  async function checkEmployeeId(tx: Tx, employeeId: string | null | undefined, exceptUserId?: string): Promise<void> {
    if (!employeeId) return;
    const [taken] = await tx
      .select({ id: userDetails.id })
      .from(userDetails)
      .where(
        and(sql`lower(${userDetails.employeeId}) = lower(${employeeId})`, exceptUserId ? ne(userDetails.id, exceptUserId) : undefined),
      );
    if (taken) throw new AppError('conflict', { fields: { employee_id: 'users.validation.employeeIdTaken' } });
  }

  async function emailTaken(tx: Tx, email: string): Promise<boolean> {
    const [taken] = await tx
      .select({ id: users.id })
      .from(users)
      .where(sql`lower(${users.email}) = ${email.toLowerCase()}`);
    return Boolean(taken);
  }

  /**
   * Writes a 7-day, single-use activation link and queues the "user invited" mail (the organisation's
   * own wording from the mail content settings, in the person's language).
   */
  async function sendActivation(tx: Tx, p: Principal, user: { id: string; email: string; locale: Language }): Promise<QueuedTemplatedMail> {
    // A resend makes every earlier link of this user worthless.
    await tx
      .update(passwordResetTokens)
      .set({ usedAt: new Date() })
      .where(and(eq(passwordResetTokens.userId, user.id), isNull(passwordResetTokens.usedAt)));
    const token = randomToken();
    await tx.insert(passwordResetTokens).values({
      tokenHash: sha256(token),
      userId: user.id,
      expiresAt: new Date(Date.now() + USER_ACTIVATION_TTL_SECONDS * 1000),
    });
    const link = `${publicUrl(deps.config, p.organization.subDomainName)}/password-reset/${token}?activate=1`;
    return sendTemplatedMail(tx, deps, {
      scenario: 'user_invited',
      to: user.email,
      language: user.locale,
      userId: user.id,
      variables: { inviter_name: p.fullName, invite_link: link },
    });
  }

  /** Hands queued mail to the delivery job and pushes notifications, once the transaction has committed. */
  async function deliver(queued: QueuedTemplatedMail | readonly QueuedTemplatedMail[]): Promise<void> {
    await dispatchTemplatedMail(deps, queued);
  }

  type InviteInput = UserInviteInput;

  /** Creates one invited user (no password, not verified) and queues the activation e-mail. */
  async function createInvited(
    tx: Tx,
    p: Principal,
    body: InviteInput,
    lang: Language,
  ): Promise<{ id: string; queued: QueuedTemplatedMail }> {
    const [created] = await tx
      .insert(users)
      .values({
        email: body.email,
        fullName: body.full_name,
        passwordHash: null,
        status: 'Active',
        isAdmin: body.is_admin,
        canIssuePermit: body.can_issue_permit,
        roleId: body.role_id,
        locale: lang,
      })
      .returning({ id: users.id });
    const id = created!.id;
    await tx
      .update(userDetails)
      .set({
        employeeId: body.employee_id ?? null,
        phone: body.phone ?? null,
        gender: body.gender ?? null,
        shift: body.shift ?? null,
        siTrained: body.si_trained,
        invitedAt: new Date(),
        invitedBy: p.userId,
      })
      .where(eq(userDetails.id, id));
    if (body.site_ids.length > 0) await deps.sites.setUserSites(tx, id, body.site_ids);
    const queued = await sendActivation(tx, p, { id, email: body.email, locale: lang });
    await recordAudit(tx, {
      actorUserId: p.userId,
      action: 'invite',
      entity: 'User',
      entityId: id,
      changes: { email: body.email, role_id: body.role_id },
    });
    return { id, queued };
  }

  async function invite(tx: Tx, p: Principal, body: InviteInput, lang: Language) {
    if ((body.is_admin || body.can_issue_permit) && !p.isAdmin) {
      throw new AppError('forbidden', { fields: { [body.is_admin ? 'is_admin' : 'can_issue_permit']: 'users.validation.adminOnly' } });
    }
    if (await emailTaken(tx, body.email)) throw new AppError('email_taken', { fields: { email: 'users.validation.emailTaken' } });
    await checkRole(tx, p, body.role_id);
    await checkEmployeeId(tx, body.employee_id);
    await checkSeats(tx, 1);
    return createInvited(tx, p, body, lang);
  }

  async function resend(tx: Tx, p: Principal, id: string) {
    const row = await findRow(tx, id);
    if (row.verifiedAt) throw new AppError('conflict', { messageKey: 'users.validation.alreadyVerified' });
    if (row.status !== 'Active') throw new AppError('conflict', { messageKey: 'errors.account_inactive' });
    const [u] = await tx.select({ locale: users.locale }).from(users).where(eq(users.id, id));
    const queued = await sendActivation(tx, p, { id, email: row.email, locale: u?.locale ?? 'en' });
    await recordAudit(tx, { actorUserId: p.userId, action: 'resend_activation', entity: 'User', entityId: id });
    return { email: row.email, queued };
  }

  /**
   * Changes a user. Deactivation signs the user out everywhere and releases their licences; nobody
   * deactivates themself, and the last active administrator is never demoted or deactivated (by a change
   * of status, of admin flag or of role), by anyone.
   */
  async function update(
    tx: Tx,
    p: Principal,
    id: string,
    body: UserUpdateInput,
  ): Promise<{ deactivated: boolean; queued: QueuedTemplatedMail[]; reviews: AfterCommit | null }> {
    const row = await findRow(tx, id);
    const adminSwitch = (['is_admin', 'can_issue_permit'] as const).find(
      (k) => body[k] !== undefined && body[k] !== (k === 'is_admin' ? row.isAdmin : row.canIssuePermit),
    );
    if (adminSwitch && !p.isAdmin) throw new AppError('forbidden', { fields: { [adminSwitch]: 'users.validation.adminOnly' } });
    checkAdminStanding(p, row, body);
    let roleGrantsAdmin = row.roleGrantsAdmin === true;
    if (body.role_id !== undefined && body.role_id !== row.roleId) {
      // Changing one's own role is changing one's own rights: only an administrator may.
      if (id === p.userId && !p.isAdmin) throw new AppError('forbidden', { fields: { role_id: 'users.validation.adminOnly' } });
      roleGrantsAdmin = await checkRole(tx, p, body.role_id);
    }
    if (body.employee_id !== undefined) await checkEmployeeId(tx, body.employee_id, id);

    const deactivating = body.status === 'Inactive' && row.status === 'Active';
    const reactivating = body.status === 'Active' && row.status !== 'Active';
    if (deactivating && id === p.userId) {
      throw new AppError('conflict', {
        fields: { status: 'users.validation.cannotDeactivateSelf' },
        messageKey: 'users.validation.cannotDeactivateSelf',
      });
    }
    await checkLastAdmin(tx, row, body, roleGrantsAdmin);
    if (reactivating) await checkSeats(tx, 1);

    const core: Partial<typeof users.$inferInsert> = {};
    if (body.full_name !== undefined) core.fullName = body.full_name;
    if (body.role_id !== undefined) core.roleId = body.role_id;
    if (body.status !== undefined) core.status = body.status;
    if (body.is_admin !== undefined) core.isAdmin = body.is_admin;
    if (body.can_issue_permit !== undefined) core.canIssuePermit = body.can_issue_permit;
    await tx
      .update(users)
      .set({ ...core, updatedAt: new Date() })
      .where(eq(users.id, id));

    const details: Partial<typeof userDetails.$inferInsert> = {};
    if (body.employee_id !== undefined) details.employeeId = body.employee_id;
    if (body.phone !== undefined) details.phone = body.phone;
    if (body.gender !== undefined) details.gender = body.gender;
    if (body.shift !== undefined) details.shift = body.shift;
    if (body.si_trained !== undefined) details.siTrained = body.si_trained;
    if (Object.keys(details).length > 0) await tx.update(userDetails).set(details).where(eq(userDetails.id, id));
    if (body.site_ids !== undefined) await deps.sites.setUserSites(tx, id, body.site_ids);

    let reviews: AfterCommit | null = null;

    if (deactivating) {
      await tx
        .update(sessions)
        .set({ revokedAt: new Date() })
        .where(and(eq(sessions.userId, id), isNull(sessions.revokedAt)));
      await tx.delete(userLicences).where(eq(userLicences.userId, id));
      // A deactivated reviewer counts as removed: the account creator takes their workflows and reviews in flight.
      reviews = (await reviewerRemoved(tx, deps, id)).afterCommit;
    }
    await recordAudit(tx, { actorUserId: p.userId, action: 'update', entity: 'User', entityId: id, changes: { ...body } });
    const queued: QueuedTemplatedMail[] = [];
    if (body.role_id !== undefined && body.role_id !== row.roleId && (body.status ?? row.status) === 'Active') {
      const [role] = await tx.select({ name: roles.name }).from(roles).where(eq(roles.id, body.role_id));
      const [u] = await tx.select({ locale: users.locale }).from(users).where(eq(users.id, id));
      queued.push(
        await sendTemplatedMail(tx, deps, {
          scenario: 'user_role_changed',
          to: row.email,
          language: u?.locale ?? 'en',
          userId: id,
          variables: { role_name: role?.name ?? '' },
        }),
      );
    }
    return { deactivated: deactivating, queued, reviews };
  }

  return { list, get, findRow, records, invite, createInvited, checkSeats, checkRole, emailTaken, resend, update, deliver };
}
export type UsersService = ReturnType<typeof createUsersService>;

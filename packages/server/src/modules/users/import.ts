import {
  USER_IMPORT_COLUMNS,
  USER_IMPORT_MAX_ROWS,
  translate,
  userImportRowSchema,
  type ImportRowError,
  type Language,
  type UserImportColumn,
} from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import type { Tx } from '../../platform/db/db.js';
import { roles, users } from '../../platform/db/schema.js';
import type { SheetRow } from '../../platform/export/excel.js';
import { AppError } from '../../platform/errors.js';
import type { QueuedTemplatedMail } from '../mailers/send.js';
import type { UsersService } from './service.js';
import type { UserSiteLinks } from './site-links.js';
import { userDetails } from './tables.js';

/** The example row of the template: what a filled row looks like. */
export const IMPORT_EXAMPLE: Record<UserImportColumn, string> = {
  email: 'jane.doe@example.com',
  full_name: 'Jane Doe',
  employee_id: 'EMP-1001',
  phone: '+44 20 7946 0958',
  gender: 'female',
  shift: 'general',
  role: 'Administrator',
  sites: 'Head Office; Plant 2',
};

type Valid = {
  row: number;
  email: string;
  full_name: string;
  employee_id: string | null;
  phone: string | null;
  gender: 'male' | 'female' | 'others' | null;
  shift: 'first' | 'second' | 'third' | 'general' | null;
  role_id: string;
  site_ids: string[];
};

/**
 * Validates every row of the sheet and invites all of them, or none: any wrong row means nothing is
 * written and the answer lists each row, column and translated problem. Runs in the caller's transaction.
 */
export async function importUsers(
  tx: Tx,
  p: Principal,
  service: UsersService,
  links: UserSiteLinks,
  sheet: { headers: string[]; rows: SheetRow[] },
  lang: Language,
): Promise<{ imported: number; errors: ImportRowError[]; queued: QueuedTemplatedMail[] }> {
  const headers = new Set(sheet.headers.map((h) => h.trim().toLowerCase()));
  const missing = USER_IMPORT_COLUMNS.filter((c) => !headers.has(c));
  if (missing.length > 0) {
    throw new AppError('bad_format', {
      fields: { file: 'users.validation.missingColumns' },
      messageKey: 'users.validation.missingColumns',
      vars: { columns: missing.join(', ') },
    });
  }
  if (sheet.rows.length === 0)
    throw new AppError('bad_format', { fields: { file: 'users.validation.emptyFile' }, messageKey: 'users.validation.emptyFile' });
  if (sheet.rows.length > USER_IMPORT_MAX_ROWS) {
    throw new AppError('payload_too_large', {
      fields: { file: 'users.validation.tooManyRows' },
      messageKey: 'users.validation.tooManyRows',
      vars: { max: USER_IMPORT_MAX_ROWS },
    });
  }

  const roleRows = await tx.select({ id: roles.id, name: roles.name, grantsAdmin: roles.grantsAdmin }).from(roles);
  const roleByName = new Map(roleRows.map((r) => [r.name.trim().toLowerCase(), r]));
  const siteByName = await links.siteIdsByName(tx);
  const existingEmails = new Set((await tx.select({ e: sql<string>`lower(${users.email})` }).from(users)).map((r) => r.e));
  const existingEmployeeIds = new Set(
    (
      await tx
        .select({ e: sql<string>`lower(${userDetails.employeeId})` })
        .from(userDetails)
        .where(sql`${userDetails.employeeId} is not null`)
    ).map((r) => r.e),
  );

  const errors: ImportRowError[] = [];
  const fail = (row: number, field: string, key: string, vars: Record<string, string> = {}) =>
    errors.push({ row, field, message: translate(lang, key, vars) });
  const seenEmails = new Map<string, number>();
  const seenEmployeeIds = new Map<string, number>();
  const valid: Valid[] = [];

  for (const { row, values } of sheet.rows) {
    const lower = Object.fromEntries(Object.entries(values).map(([k, v]) => [k.trim().toLowerCase(), v]));
    const input = Object.fromEntries(USER_IMPORT_COLUMNS.map((c) => [c, lower[c] ?? '']));
    const parsed = userImportRowSchema.safeParse(input);
    const before = errors.length;
    if (!parsed.success) {
      const reported = new Set<string>();
      for (const issue of parsed.error.issues) {
        const field = String(issue.path[0] ?? 'row');
        if (reported.has(field)) continue;
        reported.add(field);
        fail(row, field, /^(validation|users)\./.test(issue.message) ? issue.message : 'validation.invalid');
      }
    }
    // Every problem of the row is reported at once, so each column is checked even when another failed.
    const failed = new Set(parsed.success ? [] : parsed.error.issues.map((i) => String(i.path[0] ?? 'row')));
    const raw = (c: UserImportColumn) => String(input[c] ?? '').trim();
    const email = failed.has('email') ? '' : raw('email').toLowerCase();
    if (email) {
      if (existingEmails.has(email)) fail(row, 'email', 'users.validation.emailTaken');
      else if (seenEmails.has(email)) fail(row, 'email', 'users.validation.duplicateInFile');
      else seenEmails.set(email, row);
    }
    const employeeId = failed.has('employee_id') ? '' : raw('employee_id').toLowerCase();
    if (employeeId) {
      if (existingEmployeeIds.has(employeeId) || seenEmployeeIds.has(employeeId))
        fail(row, 'employee_id', 'users.validation.employeeIdTaken');
      else seenEmployeeIds.set(employeeId, row);
    }
    const role = failed.has('role') ? undefined : roleByName.get(raw('role').toLowerCase());
    if (!failed.has('role')) {
      if (!role) fail(row, 'role', 'users.validation.roleNotFound');
      else if (role.grantsAdmin && !p.isAdmin) fail(row, 'role', 'users.validation.adminOnly');
    }
    const siteIds: string[] = [];
    if (!failed.has('sites')) {
      for (const name of raw('sites')
        .split(/[;,]/)
        .map((n) => n.trim())
        .filter(Boolean)) {
        const id = siteByName.get(name.toLowerCase());
        if (!id) fail(row, 'sites', 'users.validation.siteNotFound', { name });
        else if (!siteIds.includes(id)) siteIds.push(id);
      }
    }
    if (parsed.success && errors.length === before && role) {
      const d = parsed.data;
      valid.push({
        row,
        email: d.email,
        full_name: d.full_name,
        employee_id: d.employee_id,
        phone: d.phone,
        gender: d.gender,
        shift: d.shift,
        role_id: role.id,
        site_ids: siteIds,
      });
    }
  }
  if (errors.length > 0) return { imported: 0, errors, queued: [] };

  await service.checkSeats(tx, valid.length);
  const queued: QueuedTemplatedMail[] = [];
  for (const v of valid) {
    const invited = await service.createInvited(
      tx,
      p,
      {
        email: v.email,
        full_name: v.full_name,
        employee_id: v.employee_id,
        phone: v.phone,
        gender: v.gender,
        shift: v.shift,
        role_id: v.role_id,
        site_ids: v.site_ids,
        is_admin: false,
        can_issue_permit: false,
        si_trained: false,
      },
      lang,
    );
    queued.push(invited.queued);
  }
  return { imported: valid.length, errors: [], queued };
}

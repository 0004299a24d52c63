import { describe, expect, it } from 'vitest';
import { userImportRowSchema, userInviteBody, userNameSchema, userPhoneSchema, userUpdateBody } from './schemas.js';

const messageOf = (r: { success: boolean; error?: { issues: Array<{ message: string }> } }) =>
  r.success ? null : r.error!.issues[0]!.message;

describe('user fields (spec 001 §3, §5)', () => {
  it('accepts names of letters in any script, with spaces, dots, apostrophes and hyphens', () => {
    for (const name of ['Ana', 'Mary-Jo O’Neil', 'José Pérez', 'Zeynep Çelik', '李伟', 'J. R. Smith'])
      expect(userNameSchema.safeParse(name).success).toBe(true);
    for (const name of ['R2-D2', 'Bob!', ' ', '-Ann'])
      expect(messageOf(userNameSchema.safeParse(name))).toMatch(/^(users\.validation\.nameLetters|validation\.required)$/);
  });

  it('checks phone numbers with libphonenumber and keeps blanks as null', () => {
    expect(userPhoneSchema.parse('+44 20 7946 0958')).toBe('+44 20 7946 0958');
    expect(userPhoneSchema.parse('')).toBeNull();
    for (const bad of ['+44 12', '12345', 'call me']) expect(messageOf(userPhoneSchema.safeParse(bad))).toBe('users.validation.phone');
  });

  it('requires a role for an invitation and defaults the rest', () => {
    expect(messageOf(userInviteBody.safeParse({ email: 'a@b.test', full_name: 'Ann' }))).toBe('users.validation.roleRequired');
    const ok = userInviteBody.parse({ email: ' A@B.TEST ', full_name: 'Ann', role_id: '01890a5d-ac96-774b-bcce-b302099a8057' });
    expect(ok).toMatchObject({ email: 'a@b.test', site_ids: [], is_admin: false, can_issue_permit: false, si_trained: false });
  });

  it('lets an administrator set only Active or Inactive', () => {
    expect(userUpdateBody.safeParse({ status: 'Inactive' }).success).toBe(true);
    expect(userUpdateBody.safeParse({ status: 'Deleted' }).success).toBe(false);
  });

  it('reads an import row: case-free gender and shift, sites split on ; or ,', () => {
    const row = userImportRowSchema.parse({
      email: 'x@y.test',
      full_name: 'Xavi',
      employee_id: '',
      phone: '',
      gender: 'Female',
      shift: 'GENERAL',
      role: 'Reader',
      sites: 'North; South , East',
    });
    expect(row).toMatchObject({ gender: 'female', shift: 'general', employee_id: null, phone: null, sites: ['North', 'South', 'East'] });
    const bad = userImportRowSchema.safeParse({
      email: 'x@y.test',
      full_name: 'Xavi',
      employee_id: '',
      phone: '',
      gender: 'robot',
      shift: 'night',
      role: '',
      sites: '',
    });
    expect(bad.success).toBe(false);
    expect(bad.error!.issues.map((i) => `${String(i.path[0])}:${i.message}`).sort()).toEqual([
      'gender:users.validation.gender',
      'role:users.validation.roleRequired',
      'shift:users.validation.shift',
    ]);
  });
});

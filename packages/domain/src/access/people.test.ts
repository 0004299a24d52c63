import { describe, expect, it } from 'vitest';
import { hasAdminAccess, losesAdminAccess, mayChangeAdminStanding, mayManageRole, personControls } from './people.js';

const standing = (active: boolean, isAdmin: boolean, roleGrantsAdmin: boolean) => ({ active, isAdmin, roleGrantsAdmin });

describe('who is an administrator (the session’s test: own flag or admin role)', () => {
  it('is an active user with either', () => {
    expect(hasAdminAccess(standing(true, true, false))).toBe(true);
    expect(hasAdminAccess(standing(true, false, true))).toBe(true);
    expect(hasAdminAccess(standing(true, false, false))).toBe(false);
    expect(hasAdminAccess(standing(false, true, true))).toBe(false);
  });

  it('loses admin access only when neither remains, or on deactivation', () => {
    expect(losesAdminAccess(standing(true, true, true), standing(true, false, true))).toBe(false);
    expect(losesAdminAccess(standing(true, true, true), standing(true, false, false))).toBe(true);
    expect(losesAdminAccess(standing(true, false, true), standing(false, false, true))).toBe(true);
    expect(losesAdminAccess(standing(true, false, false), standing(false, false, false))).toBe(false);
  });
});

describe('only an administrator changes an administrator, or a role that grants admin access', () => {
  it('holds for people', () => {
    expect(mayChangeAdminStanding({ isAdmin: false }, { admin_access: true })).toBe(false);
    expect(mayChangeAdminStanding({ isAdmin: false }, { admin_access: false })).toBe(true);
    expect(mayChangeAdminStanding({ isAdmin: true }, { admin_access: true })).toBe(true);
  });

  it('holds for roles', () => {
    expect(mayManageRole({ isAdmin: false }, { grants_admin: true })).toBe(false);
    expect(mayManageRole({ isAdmin: false }, { grants_admin: false })).toBe(true);
    expect(mayManageRole({ isAdmin: true }, { grants_admin: true })).toBe(true);
  });
});

describe('personControls(): what the users screens offer on one person', () => {
  const manager = { userId: 'm', isAdmin: false, mayUpdate: true };
  const admin = { userId: 'a', isAdmin: true, mayUpdate: true };
  const person = (over: Partial<{ id: string; status: string; admin_access: boolean; last_admin: boolean }> = {}) => ({
    id: 'p',
    status: 'Active',
    admin_access: false,
    last_admin: false,
    ...over,
  });

  it('offers a non-admin the role and status of a non-admin only', () => {
    expect(personControls(manager, person())).toEqual({ role: true, status: true });
    expect(personControls(manager, person({ admin_access: true }))).toEqual({ role: false, status: false });
  });

  it('offers nothing without User update', () => {
    expect(personControls({ ...admin, mayUpdate: false }, person())).toEqual({ role: false, status: false });
  });

  it('never offers deactivating oneself, nor a non-admin their own role', () => {
    expect(personControls(admin, person({ id: 'a', admin_access: true }))).toEqual({ role: true, status: false });
    expect(personControls(manager, person({ id: 'm' }))).toEqual({ role: false, status: false });
  });

  it('never offers deactivating the last active administrator', () => {
    expect(personControls(admin, person({ admin_access: true, last_admin: true }))).toEqual({ role: true, status: false });
  });
});

import { describe, expect, it } from 'vitest';
import {
  ACTION_STATUSES,
  actionAbilities,
  actionCreateSchema,
  actionDateIn,
  actionDayBefore,
  actionDaysBetween,
  actionItemSchema,
  actionListQuerySchema,
  actionPath,
  actionUpdateSchema,
  canMoveAction,
  mayCloseAction,
} from './schemas.js';

const ME = '0190a000-0000-7000-8000-000000000001';
const OTHER = '0190a000-0000-7000-8000-000000000002';

describe('who may move an action where', () => {
  it('lets an updater follow the table, except into overdue (the sweep), overdue back to open (a later due date) and reopening an action in progress', () => {
    const updater = { userId: OTHER, canUpdate: true };
    expect(actionAbilities({ status: 'open', responsible_id: ME }, updater).move_to).toEqual(['in_progress', 'completed']);
    expect(actionAbilities({ status: 'in_progress', responsible_id: ME }, updater).move_to).toEqual(['completed']);
    expect(actionAbilities({ status: 'overdue', responsible_id: ME }, updater).move_to).toEqual(['in_progress', 'completed']);
    expect(actionAbilities({ status: 'completed', responsible_id: ME }, updater).move_to).toEqual(['closed', 'in_progress']);
    expect(actionAbilities({ status: 'closed', responsible_id: ME }, updater)).toEqual({ edit: false, report: false, move_to: [] });
  });

  it('lets the responsible person only start and complete their own action, and report on it', () => {
    const me = { userId: ME, canUpdate: false };
    expect(actionAbilities({ status: 'open', responsible_id: ME }, me)).toEqual({
      edit: false,
      report: true,
      move_to: ['in_progress', 'completed'],
    });
    expect(actionAbilities({ status: 'in_progress', responsible_id: ME }, me).move_to).toEqual(['completed']);
    expect(actionAbilities({ status: 'completed', responsible_id: ME }, me)).toEqual({ edit: false, report: true, move_to: [] });
    expect(actionAbilities({ status: 'open', responsible_id: OTHER }, me)).toEqual({ edit: false, report: false, move_to: [] });
  });

  it('needs someone other than the completer to close, unless the organisation turns the rule off', () => {
    expect(mayCloseAction({ completed_by_id: ME }, { userId: ME }, true)).toBe(false);
    expect(mayCloseAction({ completed_by_id: ME }, { userId: OTHER }, true)).toBe(true);
    expect(mayCloseAction({ completed_by_id: ME }, { userId: ME }, false)).toBe(true);
    expect(mayCloseAction({ completed_by_id: null }, { userId: ME }, true)).toBe(true);

    const completer = { userId: ME, canUpdate: true };
    const completed = { status: 'completed' as const, responsible_id: OTHER };
    expect(actionAbilities(completed, completer, { completed_by_id: ME, close_by_other: true }).move_to).toEqual(['in_progress']);
    expect(actionAbilities(completed, completer, { completed_by_id: ME, close_by_other: false }).move_to).toEqual([
      'closed',
      'in_progress',
    ]);
    expect(actionAbilities(completed, { userId: OTHER, canUpdate: true }, { completed_by_id: ME, close_by_other: true }).move_to).toEqual([
      'closed',
      'in_progress',
    ]);
    // Without the right, turning the rule off gives nobody the right to close.
    expect(actionAbilities(completed, { userId: OTHER, canUpdate: false }, { completed_by_id: ME, close_by_other: false }).move_to).toEqual(
      [],
    );
  });

  it('never leaves closed and closes only from completed', () => {
    for (const s of ACTION_STATUSES) {
      expect(canMoveAction('closed', s)).toBe(false);
      expect(canMoveAction(s, 'closed')).toBe(s === 'completed');
    }
  });
});

describe('dates', () => {
  it('reads the calendar date of the site’s time zone', () => {
    const at = new Date('2026-03-10T12:00:00Z');
    expect(actionDateIn('Pacific/Kiritimati', at)).toBe('2026-03-11');
    expect(actionDateIn('Pacific/Honolulu', at)).toBe('2026-03-10');
    expect(actionDateIn('Europe/London', new Date('2026-03-10T23:30:00Z'))).toBe('2026-03-10');
    expect(actionDaysBetween('2026-02-27', '2026-03-02')).toBe(3);
    expect(actionDayBefore('2026-03-01')).toBe('2026-02-28');
  });
});

describe('input schemas', () => {
  const item = { description: 'Fix it', control_type: 'engineering', responsible_id: ME, due_date: '2030-01-31' };

  it('accepts an item and turns empty optional texts into null', () => {
    expect(actionItemSchema.parse({ ...item, category_id: '', remarks: '  ' })).toEqual({ ...item, category_id: null, remarks: null });
  });

  it('names each bad field with its i18n key', () => {
    const r = actionCreateSchema.safeParse({ description: '', control_type: 'luck', responsible_id: 'x', due_date: '2030-02-30' });
    expect(r.success).toBe(false);
    const byField = Object.fromEntries(r.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(byField).toEqual({
      description: 'validation.required',
      control_type: 'actions.validation.controlType',
      responsible_id: 'actions.validation.responsible',
      due_date: 'actions.validation.dueDate',
      site_id: 'actions.validation.site',
    });
  });

  it('keeps absent update fields absent and lets empty text clear a value', () => {
    expect(actionUpdateSchema.parse({ status: 'in_progress' })).toEqual({ status: 'in_progress' });
    expect(actionUpdateSchema.parse({ remarks: '', category_id: null })).toEqual({ remarks: null, category_id: null });
    expect(actionUpdateSchema.safeParse({}).success).toBe(false);
  });

  it('defaults the list to 50 a page and every status, and refuses a reversed date range', () => {
    expect(actionListQuerySchema.parse({})).toMatchObject({ page: 1, per_page: 50, status: 'all', export_to_excel: false });
    const r = actionListQuerySchema.safeParse({ due_from: '2030-02-01', due_to: '2030-01-01' });
    expect(r.error?.issues[0]).toMatchObject({ path: ['due_to'], message: 'actions.validation.dateRange' });
  });

  it('links each source to its list', () => {
    expect(actionPath('observation', 'x')).toBe('/actions/observations/summary/x');
    expect(actionPath('other', 'x')).toBe('/actions/summary/x');
  });
});

import { catalogs } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useState } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { createI18n } from '../../i18n/setup.js';
import { ActionItemsField, type ActionItemsPeople } from './action-items-field.js';
import { canRemoveActionItem, editActionItem, emptyActionItem, removeActionItem, type ActionItemRow } from './action-items.js';

const en = catalogs.en;
const USER = '22222222-2222-4222-8222-222222222222';

describe('the action rows’ rules', () => {
  it('keeps the last row only while at least one action is required', () => {
    expect(canRemoveActionItem(1, true)).toBe(false);
    expect(canRemoveActionItem(0, true)).toBe(false);
    expect(canRemoveActionItem(2, true)).toBe(true);
    expect(canRemoveActionItem(1, false)).toBe(true);
  });

  it('changes one row and names the error paths the change makes stale, by the row’s place', () => {
    const rows = [emptyActionItem(), emptyActionItem()];
    const edited = editActionItem(rows, rows[1]!.key, { description: 'Dry the floor', due_date: '2026-06-05' }, 'add_actions');
    expect(edited.rows[0]).toBe(rows[0]);
    expect(edited.rows[1]).toMatchObject({ key: rows[1]!.key, description: 'Dry the floor', due_date: '2026-06-05' });
    expect(edited.stale).toEqual(['add_actions.1.description', 'add_actions.1.due_date']);
    expect(removeActionItem(rows, rows[0]!.key)).toEqual([rows[1]]);
  });

  it('gives every blank row its own key', () => {
    expect(emptyActionItem().key).not.toBe(emptyActionItem().key);
  });
});

type Options = {
  atLeastOne?: boolean;
  disabled?: boolean;
  people?: ActionItemsPeople;
  errors?: Record<string, string>;
  onEdit?: (...paths: string[]) => void;
};

function Harness({ initial, options }: { initial: ActionItemRow[]; options: Options }) {
  const [rows, setRows] = useState(initial);
  return (
    <ActionItemsField
      rows={rows}
      onChange={setRows}
      onAdd={() => setRows((r) => [...r, emptyActionItem()])}
      onEdit={options.onEdit}
      errors={options.errors ?? {}}
      errorPrefix="actions"
      atLeastOne={options.atLeastOne}
      disabled={options.disabled}
      controlTypes={['engineering', 'ppe']}
      people={options.people ?? { options: [{ value: USER, label: 'Tomasz Kowalski' }] }}
      columns={2}
      texts={{ row: (n) => `Item ${n}`, removeLabel: (n) => `Drop item ${n}`, remove: 'Drop', add: 'Add item' }}
    />
  );
}

function renderField(initial: ActionItemRow[], options: Options = {}) {
  const i18n = createI18n('en');
  render(
    <I18nextProvider i18n={i18n}>
      <MantineProvider>
        <Harness initial={initial} options={options} />
      </MantineProvider>
    </I18nextProvider>,
  );
}

const removeButton = (n: number) => screen.getByRole('button', { name: `Drop item ${n}` }) as HTMLButtonElement;

describe('the action rows field', () => {
  it('adds rows and keeps the last one while an action is required', () => {
    renderField([emptyActionItem()], { atLeastOne: true });
    expect(removeButton(1).disabled).toBe(true);
    fireEvent.click(screen.getByRole('button', { name: 'Add item' }));
    expect(removeButton(1).disabled).toBe(false);
    fireEvent.click(removeButton(2));
    expect(screen.queryByRole('group', { name: 'Item 2' })).toBeNull();
    expect(removeButton(1).disabled).toBe(true);
  });

  it('lets every row go when none is required', () => {
    renderField([emptyActionItem()]);
    fireEvent.click(removeButton(1));
    expect(screen.queryByRole('group', { name: 'Item 1' })).toBeNull();
  });

  it('shows the server’s errors under their row and the list’s own above the rows', () => {
    renderField([emptyActionItem(), emptyActionItem()], {
      errors: { actions: 'Too many actions.', 'actions.1.due_date': 'Not before today.' },
    });
    expect(screen.getByRole('alert').textContent).toBe('Too many actions.');
    expect(within(screen.getByRole('group', { name: 'Item 2' })).getByText('Not before today.')).toBeTruthy();
    expect(within(screen.getByRole('group', { name: 'Item 1' })).queryByText('Not before today.')).toBeNull();
  });

  it('tells which error paths a change makes stale', () => {
    const onEdit = vi.fn();
    renderField([emptyActionItem(), emptyActionItem()], { onEdit });
    const row = screen.getByRole('group', { name: 'Item 2' });
    fireEvent.change(within(row).getByLabelText(new RegExp(`^${en.actions.fields.description}`)), { target: { value: 'Dry the floor' } });
    expect(onEdit).toHaveBeenCalledWith('actions.1.description');
  });

  it('hands the responsible field to the module’s own picker', () => {
    const picker = vi.fn(() => <span>picker here</span>);
    renderField([{ ...emptyActionItem(), responsible_id: USER }], { people: { picker }, disabled: true });
    expect(screen.getByText('picker here')).toBeTruthy();
    expect(picker).toHaveBeenCalledWith(expect.objectContaining({ label: en.actions.fields.responsible, value: USER, disabled: true }));
    expect(removeButton(1).disabled).toBe(true);
    expect((screen.getByRole('button', { name: 'Add item' }) as HTMLButtonElement).disabled).toBe(true);
  });
});

import { catalogs, type ReviewState } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../api/api-error.js';
import { createI18n } from '../../i18n/setup.js';
import { ReviewPanel } from './review-panel.js';

const en = catalogs.en.reviews;
const PRIYA = { id: '0190a0a0-0000-7000-8000-000000000001', full_name: 'Priya Nair' };
const TOMASZ = { id: '0190a0a0-0000-7000-8000-000000000002', full_name: 'Tomasz Kowalski' };
const LENA = { id: '0190a0a0-0000-7000-8000-000000000003', full_name: 'Lena Vogel' };
const ESCALATION = { id: '0190a0a0-0000-7000-8000-000000000004', full_name: 'Sam Lee' };

function review(over: Partial<ReviewState> = {}): ReviewState {
  const at = '2026-11-20T09:00:00Z';
  return {
    outcome: 'pending',
    round: 2,
    workflow: { id: '0190a0a0-0000-7000-8000-0000000000aa', title: 'Incident investigation review', type: 'sequential' },
    mode: 'workflow',
    lead_time_hours: 24,
    submitted_by: LENA,
    submitted_at: at,
    decided_at: null,
    reviewers: [
      {
        user: PRIYA,
        position: 1,
        state: 'approved',
        due_at: null,
        reminded_at: null,
        escalated_to: null,
        decided_at: at,
        decided_by: ESCALATION,
        comment: 'Root cause well argued',
      },
      {
        user: TOMASZ,
        position: 2,
        state: 'current',
        due_at: '2026-11-21T09:00:00Z',
        reminded_at: null,
        escalated_to: null,
        decided_at: null,
        decided_by: null,
        comment: null,
      },
    ],
    may_decide: false,
    timeline: [
      { at, round: 1, kind: 'submitted', actor: LENA, reviewer: null, to: null, comment: null, outcome: null },
      { at, round: 1, kind: 'rejected', actor: PRIYA, reviewer: PRIYA, to: null, comment: 'Witness statements missing', outcome: null },
      { at, round: 1, kind: 'closed', actor: null, reviewer: null, to: null, comment: null, outcome: 'rejected' },
      { at, round: 2, kind: 'submitted', actor: LENA, reviewer: null, to: null, comment: null, outcome: null },
      { at, round: 2, kind: 'escalated', actor: null, reviewer: PRIYA, to: ESCALATION, comment: null, outcome: null },
      { at, round: 2, kind: 'approved', actor: ESCALATION, reviewer: PRIYA, to: null, comment: 'Root cause well argued', outcome: null },
    ],
    ...over,
  };
}

function renderPanel(ui: ReactNode) {
  return render(
    <I18nextProvider i18n={createI18n('en')}>
      <MantineProvider>{ui}</MantineProvider>
    </I18nextProvider>,
  );
}

/** What the decision tests need: one asked reviewer, one step. */
const asked = () => review({ may_decide: true, reviewers: review().reviewers.slice(1), timeline: review().timeline.slice(0, 1) });

const decisionButtons = () => screen.queryAllByRole('button').map((b) => b.textContent);

describe('the review panel', () => {
  it('says when the record was never submitted, and offers nothing', () => {
    renderPanel(<ReviewPanel review={null} onDecide={vi.fn()} />);
    expect(screen.getByText(en.notSubmitted)).toBeTruthy();
    expect(decisionButtons()).toEqual([]);
  });

  it('shows the round, the reviewers in order and every step, without controls for who may not decide', () => {
    renderPanel(<ReviewPanel review={review()} onDecide={vi.fn()} />);
    expect(screen.getByText('Round 2')).toBeTruthy();
    expect(screen.getByText(en.outcome.pending)).toBeTruthy();
    expect(screen.getByText(/Incident investigation review · Sequential · 24 h per reviewer/)).toBeTruthy();
    const list = screen.getByRole('list', { name: en.reviewers });
    const items = within(list)
      .getAllByRole('listitem')
      .map((li) => li.textContent);
    expect(items[0]).toContain('Priya Nair');
    expect(items[0]).toContain(en.states.approved);
    expect(items[0]).toContain('by Sam Lee');
    expect(items[1]).toContain('Tomasz Kowalski');
    expect(items[1]).toContain(en.states.current);
    expect(items[1]).toContain('Reminder due');
    expect(screen.getAllByText('Lena Vogel submitted it for review')).toHaveLength(2);
    for (const text of [
      'Priya Nair rejected',
      'Round 1 closed: rejected',
      'The review of Priya Nair went to Sam Lee',
      'Sam Lee approved in place of Priya Nair',
      'Witness statements missing',
    ]) {
      expect(screen.getByText(text)).toBeTruthy();
    }
    expect(decisionButtons()).toEqual([]);
  });

  it('sends nothing when the confirmation is cancelled', async () => {
    const onDecide = vi.fn().mockResolvedValue(undefined);
    renderPanel(<ReviewPanel review={asked()} onDecide={onDecide} />);
    fireEvent.click(screen.getByRole('button', { name: en.actions.approve }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(en.actions.approveBody)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: catalogs.en.common.cancel }));
    await waitFor(() => expect(screen.queryByText(en.actions.approveBody)).toBeNull());
    expect(onDecide).not.toHaveBeenCalled();
  });

  it('approves once confirmed, with the optional comment', async () => {
    const onDecide = vi.fn().mockResolvedValue(undefined);
    renderPanel(<ReviewPanel review={asked()} onDecide={onDecide} />);
    fireEvent.click(screen.getByRole('button', { name: en.actions.approve }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(within(dialog).getByLabelText(en.actions.comment), { target: { value: ' Looks right ' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.actions.confirmApprove }));
    await waitFor(() => expect(onDecide).toHaveBeenCalledWith({ approve: true, comment: 'Looks right' }));
  });

  it('needs a reason to reject, and keeps a refusal in the dialog', async () => {
    const onDecide = vi
      .fn()
      .mockRejectedValueOnce(new ApiError('Your turn to review has not come yet.', 409, 'conflict'))
      .mockResolvedValue(undefined);
    renderPanel(<ReviewPanel review={asked()} onDecide={onDecide} />);
    fireEvent.click(screen.getByRole('button', { name: en.actions.reject }));
    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText(en.actions.rejectBody)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: en.actions.confirmReject }));
    expect(await within(dialog).findByText(en.validation.reasonRequired)).toBeTruthy();
    expect(onDecide).not.toHaveBeenCalled();

    fireEvent.change(within(dialog).getByLabelText(new RegExp(en.actions.reason)), { target: { value: 'Gas test missing' } });
    fireEvent.click(within(dialog).getByRole('button', { name: en.actions.confirmReject }));
    expect(await within(dialog).findByText('Your turn to review has not come yet.')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: en.actions.confirmReject }));
    await waitFor(() => expect(onDecide).toHaveBeenLastCalledWith({ approve: false, comment: 'Gas test missing' }));
    await waitFor(() => expect(screen.queryByText(en.actions.rejectBody)).toBeNull());
  });

  it('says who decides when no workflow applies, and that a rejected record went back', () => {
    renderPanel(
      <ReviewPanel
        review={review({ mode: 'approve_right', workflow: null, reviewers: [], outcome: 'rejected', lead_time_hours: null })}
        onDecide={vi.fn()}
      />,
    );
    expect(screen.getByText(en.byRight)).toBeTruthy();
    expect(screen.getByText(en.rejectedHelp)).toBeTruthy();
    expect(screen.queryByRole('list', { name: en.reviewers })).toBeNull();
  });
});

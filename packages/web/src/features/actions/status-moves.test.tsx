import { actionAbilities, catalogs, type ActionDetail, type ActionStatus } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../api/http.js';
import type { PushClient } from '../../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../../api/session-store.js';
import { ServicesContext, type Services } from '../../app/services.js';
import { createI18n } from '../../i18n/setup.js';
import { ActionDetails, workPhotos } from './action-details.js';
import { movesOf, StatusMoves } from './status-moves.js';

const en = catalogs.en.actions.form;
const SUPERVISOR = '0190a0a0-0000-7000-8000-000000000017';
const MANAGER = '0190a0a0-0000-7000-8000-000000000002';
const OTHER = '0190a0a0-0000-7000-8000-000000000031';

/** An action as the server describes it to `viewer`: its `can` comes from the same domain rule the server uses. */
function detail(
  status: ActionStatus,
  viewer: { id: string; canUpdate: boolean },
  responsibleId = SUPERVISOR,
  close: { completedBy: string | null; closeByOther: boolean } = { completedBy: null, closeByOther: true },
): ActionDetail {
  return {
    id: '0190a0a0-0000-7000-8000-0000000000aa',
    serial: 12,
    description: 'Fit a guard rail to the mezzanine stairs',
    control_type: 'engineering',
    status,
    due_date: '2026-12-01',
    responsible: { id: responsibleId, full_name: 'Tomasz Kowalski' },
    source_type: 'other',
    source_id: null,
    source_serial: null,
    site: { id: '0190a0a0-0000-7000-8000-0000000000b1', name: 'North Plant', time_zone: 'Europe/London' },
    category: null,
    source: { type: 'other', id: null, serial: null, label: null },
    remarks: null,
    created_by: { id: MANAGER, full_name: 'Priya Nair' },
    created_at: '2026-11-20T09:00:00Z',
    completed_at: null,
    closed_at: null,
    image_description: null,
    completed_by: close.completedBy ? { id: close.completedBy, full_name: 'Tomasz Kowalski' } : null,
    closed_by: null,
    updated_at: '2026-11-20T09:00:00Z',
    attachments: [],
    history: [],
    can: actionAbilities(
      { status, responsible_id: responsibleId },
      { userId: viewer.id, canUpdate: viewer.canUpdate },
      { completed_by_id: close.completedBy, close_by_other: close.closeByOther },
    ),
  };
}

function renderWith(ui: ReactNode, http: Partial<HttpClient>) {
  const i18n = createI18n('en');
  const queryClient = new QueryClient();
  const services: Services = {
    http: http as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient,
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  return render(
    <ServicesContext.Provider value={services}>
      <QueryClientProvider client={queryClient}>
        <I18nextProvider i18n={i18n}>
          <MantineProvider>{ui}</MantineProvider>
        </I18nextProvider>
      </QueryClientProvider>
    </ServicesContext.Provider>,
  );
}

const buttons = () => screen.queryAllByRole('button').map((b) => b.textContent);
const supervisor = { id: SUPERVISOR, canUpdate: false };
const manager = { id: MANAGER, canUpdate: true };

describe('which status moves an action offers', () => {
  it('lets the responsible person start and complete their open action, and nothing more', () => {
    renderWith(<StatusMoves action={detail('open', supervisor)} />, {});
    expect(buttons()).toEqual([en.start, en.complete]);
  });

  it('offers an in-progress action to its responsible person only to complete', () => {
    renderWith(<StatusMoves action={detail('in_progress', supervisor)} />, {});
    expect(buttons()).toEqual([en.complete]);
  });

  it('offers nothing to someone who is neither responsible nor allowed to update', () => {
    renderWith(<StatusMoves action={detail('open', { id: OTHER, canUpdate: false })} />, {});
    expect(buttons()).toEqual([]);
    expect(screen.getByText(catalogs.en.actionsWeb.moves.none)).toBeTruthy();
  });

  it('lets a manager close a completed action or send it back, but the responsible person neither', () => {
    expect(movesOf(detail('completed', manager)).map((m) => m.label)).toEqual(['actions.form.sendBack', 'actions.form.close']);
    expect(movesOf(detail('completed', supervisor))).toEqual([]);
  });

  it('never offers closing before completion, nor overdue by hand', () => {
    for (const status of ['open', 'in_progress', 'overdue'] as const) {
      const targets = movesOf(detail(status, manager)).map((m) => m.to);
      expect(targets).not.toContain('closed');
      expect(targets).not.toContain('overdue');
    }
  });

  it('hides "Close action" from the supervisor who completed it while the organisation needs another person, and says why', () => {
    const supervisorManager = { id: SUPERVISOR, canUpdate: true };
    renderWith(
      <StatusMoves action={detail('completed', supervisorManager, SUPERVISOR, { completedBy: SUPERVISOR, closeByOther: true })} />,
      {},
    );
    expect(buttons()).toEqual([en.sendBack]);
    expect(screen.queryByRole('button', { name: en.close })).toBeNull();
    expect(screen.getByText(catalogs.en.actionsWeb.panel.closeByOther)).toBeTruthy();
  });

  it('offers "Close action" to another manager, and to the completer once the rule is off', () => {
    const completedBySupervisor = { completedBy: SUPERVISOR, closeByOther: true };
    expect(movesOf(detail('completed', manager, SUPERVISOR, completedBySupervisor)).map((m) => m.to)).toContain('closed');
    const { unmount } = renderWith(
      <StatusMoves
        action={detail('completed', { id: SUPERVISOR, canUpdate: true }, SUPERVISOR, { completedBy: SUPERVISOR, closeByOther: false })}
      />,
      {},
    );
    expect(screen.getByRole('button', { name: en.close })).toBeTruthy();
    expect(screen.queryByText(catalogs.en.actionsWeb.panel.closeByOther)).toBeNull();
    unmount();
  });

  it('does not offer "Reopen" on an action in progress', () => {
    renderWith(<StatusMoves action={detail('in_progress', manager)} />, {});
    expect(buttons()).toEqual([en.complete]);
    expect(movesOf({ status: 'in_progress', can: { edit: true, report: true, move_to: ['open', 'completed'] } }).map((m) => m.to)).toEqual([
      'completed',
    ]);
  });

  it('shows a closed action as read only', () => {
    renderWith(<StatusMoves action={detail('closed', manager)} />, {});
    expect(buttons()).toEqual([]);
    expect(screen.getByText(en.readOnly)).toBeTruthy();
  });

  it('closes only after the person confirms', async () => {
    const patch = vi.fn().mockResolvedValue(null);
    renderWith(<StatusMoves action={detail('completed', manager)} />, { patch });
    fireEvent.click(screen.getByRole('button', { name: en.close }));
    const dialog = await screen.findByRole('dialog');
    expect(dialog.textContent).toContain(en.confirmCloseBody);
    fireEvent.click(screen.getByRole('button', { name: catalogs.en.common.cancel }));
    await waitFor(() => expect(screen.queryByText(en.confirmCloseBody)).toBeNull());
    expect(patch).not.toHaveBeenCalled();

    fireEvent.click(screen.getByRole('button', { name: en.close }));
    await screen.findByText(en.confirmCloseBody);
    const confirmButtons = screen.getAllByRole('button', { name: en.close });
    fireEvent.click(confirmButtons[confirmButtons.length - 1]!);
    await waitFor(() =>
      expect(patch).toHaveBeenCalledWith(
        `/api/actions/${detail('completed', manager).id}`,
        { status: 'closed' },
        expect.objectContaining({ notify: false }),
      ),
    );
  });
});

describe('completing an action', () => {
  it('asks for the remarks before sending anything', async () => {
    const post = vi.fn();
    const patch = vi.fn();
    renderWith(<StatusMoves action={detail('in_progress', supervisor)} />, { post, patch });
    fireEvent.click(screen.getByRole('button', { name: en.complete }));
    await screen.findByRole('dialog');
    const submit = screen.getAllByRole('button', { name: en.complete });
    fireEvent.click(submit[submit.length - 1]!);
    expect(await screen.findByText(catalogs.en.actions.validation.remarksToComplete)).toBeTruthy();
    expect(post).not.toHaveBeenCalled();
    expect(patch).not.toHaveBeenCalled();
  });

  it('uploads the photo first, then completes with the remarks', async () => {
    const calls: string[] = [];
    const post = vi.fn(async (path: string) => {
      calls.push(`post ${path}`);
      return null;
    });
    const patch = vi.fn(async (path: string, body: unknown) => {
      calls.push(`patch ${path} ${JSON.stringify(body)}`);
      return null;
    });
    Object.assign(URL, { createObjectURL: () => 'blob:preview', revokeObjectURL: () => undefined });
    const action = detail('in_progress', supervisor);
    renderWith(<StatusMoves action={action} />, { post, patch });
    fireEvent.click(screen.getByRole('button', { name: en.complete }));
    const dialog = await screen.findByRole('dialog');
    fireEvent.change(screen.getByLabelText(new RegExp(catalogs.en.actions.fields.remarks)), {
      target: { value: 'Rail fitted and checked.' },
    });

    const input = dialog.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]');
    if (!input) throw new Error('no file input');
    const tooBig = new File([new Uint8Array(11 * 1024 * 1024)], 'huge.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [tooBig] } });
    expect(await screen.findByText('The file is larger than 10 MB.')).toBeTruthy();

    const photo = new File([new Uint8Array([137, 80, 78, 71])], 'rail.png', { type: 'image/png' });
    fireEvent.change(input, { target: { files: [photo] } });
    expect(await screen.findByAltText('Preview of rail.png')).toBeTruthy();

    const submit = screen.getAllByRole('button', { name: en.complete });
    fireEvent.click(submit[submit.length - 1]!);
    await waitFor(() => expect(calls).toHaveLength(2));
    expect(calls).toEqual([
      `post /api/actions/${action.id}/attachments`,
      `patch /api/actions/${action.id} {"status":"completed","remarks":"Rail fitted and checked."}`,
    ]);
  });
});

describe('the work done', () => {
  it('shows the completion photo under "Work done", not only in the attachments count', async () => {
    Object.assign(URL, { createObjectURL: () => 'blob:photo', revokeObjectURL: () => undefined });
    const file = (id: string, name: string, mime: string, by: string) => ({
      id,
      file_name: name,
      mime_type: mime,
      size_bytes: 4,
      url: `/api/files/${id}`,
      uploaded_by: { id: by, full_name: 'Someone' },
      created_at: '2026-11-21T09:00:00Z',
    });
    const action: ActionDetail = {
      ...detail('completed', manager, SUPERVISOR, { completedBy: SUPERVISOR, closeByOther: true }),
      remarks: 'Rail fitted and checked.',
      attachments: [
        file('0190a0a0-0000-7000-8000-0000000000f1', 'hazard.png', 'image/png', MANAGER),
        file('0190a0a0-0000-7000-8000-0000000000f2', 'rail.png', 'image/png', SUPERVISOR),
        file('0190a0a0-0000-7000-8000-0000000000f3', 'checklist.pdf', 'application/pdf', SUPERVISOR),
      ],
    };
    expect(workPhotos(action).map((f) => f.file_name)).toEqual(['rail.png']);
    expect(workPhotos({ ...action, completed_by: null })).toEqual([]);

    const download = vi.fn().mockResolvedValue({ blob: new Blob([new Uint8Array([137, 80, 78, 71])]), fileName: 'rail.png' });
    renderWith(<ActionDetails action={action} />, { download });
    const photo = await screen.findByAltText('rail.png');
    const workDone = screen.getByText(catalogs.en.actionsWeb.panel.workDone).closest('.mantine-Paper-root');
    expect(workDone?.contains(photo)).toBe(true);
    expect(screen.getByText(catalogs.en.actionsWeb.panel.workPhotos)).toBeTruthy();
    expect(screen.queryByAltText('hazard.png')).toBeNull();
    expect(download).toHaveBeenCalledWith('/api/files/0190a0a0-0000-7000-8000-0000000000f2', expect.anything());
  });
});

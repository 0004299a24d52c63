import { catalogs } from '@bulwark/domain';
import { MantineProvider } from '@mantine/core';
import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { I18nextProvider } from 'react-i18next';
import { describe, expect, it, vi, type Mock } from 'vitest';
import { ApiError } from '../api/api-error.js';
import type { HttpClient } from '../api/http.js';
import type { PushClient } from '../api/push-client.js';
import { createMemoryStorage, createSessionStore } from '../api/session-store.js';
import { ServicesContext, type Services } from '../app/services.js';
import { createI18n } from '../i18n/setup.js';
import { ExcelImportDialog, importProblems, type ImportTexts } from './import-dialog.js';

const en = catalogs.en.users.importDialog;

describe('the import report', () => {
  it('turns "<row>.<column>" field texts into rows sorted by row, ignoring other fields', () => {
    expect(importProblems(null, { '12.email': 'Bad e-mail', '3.role': 'No role', '3.email': 'Taken', file: 'Not a workbook' })).toEqual([
      { row: 3, field: 'email', message: 'Taken' },
      { row: 3, field: 'role', message: 'No role' },
      { row: 12, field: 'email', message: 'Bad e-mail' },
    ]);
  });

  it('merges an answer’s errors list with field texts', () => {
    expect(importProblems({ errors: [{ row: 4, field: 'site', message: 'Unknown site' }] }, { '2.type': 'Bad type' })).toEqual([
      { row: 2, field: 'type', message: 'Bad type' },
      { row: 4, field: 'site', message: 'Unknown site' },
    ]);
  });
});

const TEXTS: ImportTexts = {
  title: 'users.importDialog.title',
  help: 'users.importDialog.help',
  template: 'users.importDialog.template',
  choose: 'users.importDialog.choose',
  upload: 'users.importDialog.upload',
  noFile: 'storage.noFile',
  failed: 'users.importDialog.failed',
  done: 'users.notice.imported',
  row: 'users.importDialog.row',
  field: 'users.importDialog.field',
  message: 'users.importDialog.message',
};

function renderDialog(post: Mock) {
  const i18n = createI18n('en');
  const services: Services = {
    http: {} as HttpClient,
    session: createSessionStore(createMemoryStorage()),
    push: {} as PushClient,
    queryClient: new QueryClient(),
    i18n,
    storage: createMemoryStorage(),
    location: { host: 'demo.localhost:3000', protocol: 'http:', assign: vi.fn() },
    now: () => 0,
  };
  const onImported = vi.fn(async () => undefined);
  const onClose = vi.fn();
  render(
    <ServicesContext.Provider value={services}>
      <I18nextProvider i18n={i18n}>
        <MantineProvider>
          <ExcelImportDialog
            opened
            onClose={onClose}
            template={vi.fn()}
            upload={post}
            onImported={onImported}
            texts={TEXTS}
            fieldLabel={(f) => `Column ${f}`}
          />
        </MantineProvider>
      </I18nextProvider>
    </ServicesContext.Provider>,
  );
  return { onImported, onClose };
}

async function chooseAndUpload() {
  const dialog = await screen.findByRole('dialog');
  const input = dialog.ownerDocument.querySelector<HTMLInputElement>('input[type="file"]');
  if (!input) throw new Error('no file input');
  fireEvent.change(input, { target: { files: [new File(['xlsx'], 'things.xlsx')] } });
  fireEvent.click(screen.getByRole('button', { name: en.upload }));
}

describe('the Excel import dialog', () => {
  it('asks for a file before sending anything', async () => {
    const post = vi.fn();
    renderDialog(post);
    fireEvent.click(await screen.findByRole('button', { name: en.upload }));
    expect((await screen.findByRole('alert')).textContent).toBe(catalogs.en.storage.noFile);
    expect(post).not.toHaveBeenCalled();
  });

  it('lists the wrong rows of a refused upload, with the module’s column names, and stays open', async () => {
    const post = vi.fn().mockRejectedValue(new ApiError('Invalid', 422, 'validation_failed', { '7.email': 'Taken', '2.role': 'No role' }));
    const { onImported, onClose } = renderDialog(post);
    await chooseAndUpload();
    expect((await screen.findByRole('alert')).textContent).toBe(en.failed);
    const rows = within(screen.getByRole('table'))
      .getAllByRole('row')
      .slice(1)
      .map((r) => r.textContent);
    expect(rows).toEqual(['2Column roleNo role', '7Column emailTaken']);
    expect(post).toHaveBeenCalledWith(expect.any(File));
    expect(onImported).not.toHaveBeenCalled();
    expect(onClose).not.toHaveBeenCalled();
  });

  it('lists the errors an answer carries, as nothing was written', async () => {
    const post = vi.fn().mockResolvedValue({ imported: 0, errors: [{ row: 3, field: 'type', message: 'Bad type' }] });
    const { onImported } = renderDialog(post);
    await chooseAndUpload();
    expect((await screen.findByRole('alert')).textContent).toBe(en.failed);
    expect(screen.getByRole('cell', { name: 'Bad type' })).toBeTruthy();
    expect(onImported).not.toHaveBeenCalled();
  });

  it('says what is wrong with the file itself when no row is to blame', async () => {
    const post = vi.fn().mockRejectedValue(new ApiError('Invalid', 422, 'validation_failed', { file: 'Not a workbook' }));
    renderDialog(post);
    await chooseAndUpload();
    expect((await screen.findByRole('alert')).textContent).toBe('Not a workbook');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('refreshes the lists and closes after an import', async () => {
    const post = vi.fn().mockResolvedValue({ imported: 4 });
    const { onImported, onClose } = renderDialog(post);
    await chooseAndUpload();
    await waitFor(() => expect(onClose).toHaveBeenCalled());
    expect(onImported).toHaveBeenCalledTimes(1);
  });
});

import { catalogs, type ListExport } from '@bulwark/domain';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { DownloadedFile, HttpClient } from '../api/http.js';
import { renderWithServices } from '../../test/render-with-services.js';
import { ExportButton } from './export-button.js';

const en = catalogs.en;

function renderButton(http: Partial<Record<keyof HttpClient, unknown>>, download: () => Promise<DownloadedFile>, path = '/observations') {
  renderWithServices(<ExportButton download={download} />, http, path);
}

const exp = (over: Partial<ListExport>): ListExport => ({
  id: 'e1',
  status: 'running',
  rows_done: 4500,
  rows_total: 12000,
  file_name: 'Observations.xlsx',
  created_at: '2026-01-02T10:00:00.000Z',
  finished_at: null,
  expires_at: null,
  size_bytes: null,
  ...over,
});

describe('export button (issue 13)', () => {
  it('saves a small list’s workbook at once', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const download = vi.fn().mockResolvedValue({ blob: new Blob(['xlsx'], { type: 'application/vnd.ms-excel' }), fileName: 'o.xlsx' });
    const get = vi.fn();
    renderButton({ get }, download);
    fireEvent.click(screen.getByRole('button', { name: en.kit.exportExcel }));
    await waitFor(() => expect(URL.createObjectURL).toHaveBeenCalled());
    expect(get).not.toHaveBeenCalled();
  });

  it('follows a large export: its progress in rows, then its download', async () => {
    URL.createObjectURL = vi.fn(() => 'blob:x');
    URL.revokeObjectURL = vi.fn();
    const started = { export: { id: 'e1', status: 'queued', rows_total: 12000 } };
    const download = vi.fn().mockResolvedValue({
      blob: new Blob([JSON.stringify(started)], { type: 'application/json; charset=utf-8' }),
      fileName: 'download',
    });
    let answer = exp({});
    const get = vi.fn(async (path: string) => {
      if (path === '/api/list_exports/e1') return { export: answer };
      throw new Error(`unexpected GET ${path}`);
    });
    const file = vi.fn().mockResolvedValue({ blob: new Blob(['xlsx']), fileName: 'Observations.xlsx' });
    renderButton({ get, download: file }, download);
    fireEvent.click(screen.getByRole('button', { name: en.kit.exportExcel }));
    expect(await screen.findByText('Exporting: 4,500 of 12,000 rows')).toBeDefined();
    expect(screen.getByRole('progressbar', { name: en.listExport.progressLabel })).toBeDefined();

    answer = exp({ status: 'ready', rows_done: 12000 });
    fireEvent.click(await screen.findByRole('button', { name: en.listExport.download }, { timeout: 4000 }));
    await waitFor(() => expect(file).toHaveBeenCalledWith('/api/list_exports/e1/download', expect.anything()));
  }, 20_000);

  it('shows the export a notification links to (?export=<id>)', async () => {
    const get = vi.fn(async () => ({ export: exp({ status: 'ready', rows_done: 12000 }) }));
    renderButton({ get }, vi.fn(), '/observations?export=e1');
    expect(await screen.findByRole('button', { name: en.listExport.download })).toBeDefined();
    expect(get).toHaveBeenCalledWith('/api/list_exports/e1', expect.anything());
  });
});

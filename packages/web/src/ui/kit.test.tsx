import { MantineProvider } from '@mantine/core';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fileNameOf } from '../api/http.js';
import { DataTable } from './data-table.js';
import { toQuery } from './use-paged-list.js';

describe('list kit', () => {
  it('leaves empty filters out of the query string', () => {
    expect(toQuery({ page: 2, search: '', site: undefined, active: false, role: null })).toEqual({ page: '2', active: 'false' });
  });

  it('reads the download name from Content-Disposition, UTF-8 form first', () => {
    const res = (h: string) => new Response('', { headers: { 'content-disposition': h } });
    expect(fileNameOf(res(`attachment; filename="users.xlsx"`))).toBe('users.xlsx');
    expect(fileNameOf(res(`attachment; filename*=UTF-8''%C3%A7al%C4%B1%C5%9Fan.xlsx`))).toBe('çalışan.xlsx');
    expect(fileNameOf(new Response(''))).toBe('download');
  });

  it('shows the empty text when a page has no rows', () => {
    render(
      <MantineProvider>
        <DataTable
          columns={[{ key: 'n', header: 'Name', render: (r: { n: string }) => r.n }]}
          rows={[]}
          rowKey={(r) => r.n}
          emptyText="No sites yet."
        />
      </MantineProvider>,
    );
    expect(screen.getByText('No sites yet.')).toBeTruthy();
    expect(screen.getByRole('columnheader', { name: 'Name' })).toBeTruthy();
  });

  it('bases the phone width of a table on the columns a phone shows', () => {
    type Row = { n: string };
    const col = (key: string, hideOnPhone = false) => ({ key, header: key, render: (r: Row) => r.n, hideOnPhone });
    const { container } = render(
      <MantineProvider>
        <DataTable
          columns={[col('a'), col('b', true), col('c'), col('d', true), col('e')]}
          rows={[{ n: 'x' }]}
          rowKey={(r) => r.n}
          emptyText="None"
        />
      </MantineProvider>,
    );
    const box = container.querySelector<HTMLElement>('[style*="--data-table-phone-columns"]');
    expect(box?.style.getPropertyValue('--data-table-phone-columns')).toBe('3');
  });
});

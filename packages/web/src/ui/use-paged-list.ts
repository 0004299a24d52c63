import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useServices } from '../app/services.js';
import type { PageInfo } from './data-table.js';

export type PagedParams = Record<string, string | number | boolean | undefined | null>;

/** Query-string values of a list call; empty filters are left out. */
export function toQuery(params: PagedParams): Record<string, string> {
  return Object.fromEntries(
    Object.entries(params)
      .filter(([, v]) => v !== undefined && v !== null && v !== '')
      .map(([k, v]) => [k, String(v)]),
  );
}

/**
 * One page of a server list: `GET path?page&per_page&search&<filters>` answering `{ <itemsKey>: [...],
 * pagination }`. The previous page stays on screen while the next loads; a new search or filter goes
 * back to page 1.
 */
export function usePagedList<Row>(options: {
  queryKey: readonly unknown[];
  path: string;
  itemsKey: string;
  perPage?: number;
  filters?: PagedParams;
}) {
  const { http } = useServices();
  const [page, setPage] = useState(1);
  const [search, setSearchText] = useState('');
  const params: PagedParams = { page, per_page: options.perPage ?? 25, search, ...options.filters };
  const query = useQuery({
    queryKey: [...options.queryKey, params],
    queryFn: async () => {
      const data = await http.get<Record<string, unknown>>(options.path, { query: toQuery(params) });
      const rows = (data?.[options.itemsKey] as Row[] | undefined) ?? [];
      const pagination = (data?.pagination as PageInfo | undefined) ?? {
        page: 1,
        per_page: rows.length,
        total: rows.length,
        total_pages: 1,
      };
      return { rows, pagination };
    },
    placeholderData: keepPreviousData,
  });
  return {
    ...query,
    rows: query.data?.rows,
    pagination: query.data?.pagination,
    page,
    setPage,
    search,
    setSearch: (value: string) => {
      setSearchText(value);
      setPage(1);
    },
    /** The query string of the current filters, for the Excel export of exactly these rows. */
    exportQuery: toQuery({ ...options.filters, search, export_to_excel: true }),
  };
}

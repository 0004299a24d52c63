import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
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

/** A page as a list call answers it: its rows and the shared pagination. */
export type LoadedPage<Row> = { rows: Row[]; pagination: PageInfo };

/**
 * One page of a server list, loaded by the feature's `load` (a typed call of its `<feature>-api.ts`,
 * given `?page&per_page&search&<filters>`). The previous page stays on screen while the next loads;
 * a new search or filter goes back to page 1.
 */
export function usePagedList<Row>(options: {
  queryKey: readonly unknown[];
  load: (query: Record<string, string>) => Promise<LoadedPage<Row>>;
  perPage?: number;
  filters?: PagedParams;
}) {
  const [page, setPage] = useState(1);
  const [search, setSearchText] = useState('');
  const params: PagedParams = { page, per_page: options.perPage ?? 25, search, ...options.filters };
  const query = useQuery({
    queryKey: [...options.queryKey, params],
    queryFn: () => options.load(toQuery(params)),
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
    /** The query of the current filters, for the Excel export of exactly these rows. */
    exportQuery: toQuery({ ...options.filters, search, export_to_excel: true }),
  };
}

import type { Pagination as PaginationInfo } from '@bulwark/domain';
import { Alert, Center, Group, Loader, Pagination, Paper, Stack, Table, Text } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import classes from './data-table.module.css';

export type Column<Row> = {
  key: string;
  header: string;
  render: (row: Row) => ReactNode;
  /** Hidden below the `sm` breakpoint, so a phone shows the columns that matter. */
  hideOnPhone?: boolean;
  width?: number | string;
};

const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: 1,
  height: 1,
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  margin: 0,
  padding: 0,
} as const;

/** The shared pagination of every list (packages/domain api/shared.ts); a searchable list's says when its total is a lower bound. */
export type PageInfo = PaginationInfo & { total_capped?: boolean };

type Props<Row> = {
  columns: Column<Row>[];
  rows: Row[] | undefined;
  rowKey: (row: Row) => string;
  loading?: boolean;
  error?: boolean;
  /** Shown when there are no rows: say what is missing and, when searching, that the search found nothing. */
  emptyText: string;
  /** The first thing to do in an empty list (e.g. "Report an observation"), shown under its text. */
  emptyAction?: ReactNode;
  pagination?: PageInfo;
  /** Instead of "N in all": a search's "More than 1,000 results" (its list's own text). */
  totalLabel?: string;
  onPage?: (page: number) => void;
  caption?: string;
};

/**
 * The one table of lists: server pages, a loading state that keeps the old rows visible, a plain empty
 * state, and a horizontal scroll on narrow screens instead of a squeezed layout. On a phone the minimum
 * width follows the columns not marked hideOnPhone, so a list of a few columns needs no scrolling.
 */
export function DataTable<Row>({
  columns,
  rows,
  rowKey,
  loading,
  error,
  emptyText,
  emptyAction,
  pagination,
  totalLabel,
  onPage,
  caption,
}: Props<Row>) {
  const { t } = useTranslation();
  if (error) {
    return (
      <Alert color="red" role="alert">
        {t('kit.loadFailed')}
      </Alert>
    );
  }
  if (!rows) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  return (
    <Paper withBorder radius="md" p={0} aria-busy={loading ? true : undefined}>
      {/* The minimum width comes from the class, so it can depend on the screen width and the phone's columns. */}
      <Table.ScrollContainer
        minWidth={undefined}
        className={classes.scroll}
        style={{ '--data-table-phone-columns': columns.filter((c) => !c.hideOnPhone).length }}
      >
        <Table striped highlightOnHover verticalSpacing="sm" style={{ opacity: loading ? 0.6 : 1 }}>
          {/* The caption names the table for screen readers; the page title already says it on screen. */}
          {caption ? <Table.Caption style={VISUALLY_HIDDEN}>{caption}</Table.Caption> : null}
          <Table.Thead>
            <Table.Tr>
              {columns.map((c) => (
                <Table.Th key={c.key} w={c.width} visibleFrom={c.hideOnPhone ? 'sm' : undefined}>
                  {c.header}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 ? (
              <Table.Tr>
                <Table.Td colSpan={columns.length}>
                  <Stack align="center" gap="sm" py="lg">
                    <Text c="dimmed" ta="center">
                      {emptyText}
                    </Text>
                    {emptyAction}
                  </Stack>
                </Table.Td>
              </Table.Tr>
            ) : (
              rows.map((row) => (
                <Table.Tr key={rowKey(row)}>
                  {columns.map((c) => (
                    <Table.Td key={c.key} visibleFrom={c.hideOnPhone ? 'sm' : undefined} style={{ overflowWrap: 'anywhere' }}>
                      {c.render(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))
            )}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pagination && pagination.total > 0 ? (
        <Group justify="space-between" p="sm" gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">
            {totalLabel ?? t('kit.total', { count: pagination.total })}
          </Text>
          {pagination.total_pages > 1 && onPage ? (
            <Pagination
              size="sm"
              total={pagination.total_pages}
              value={pagination.page}
              onChange={onPage}
              getControlProps={(control) => ({ 'aria-label': control })}
              getItemProps={(page) => ({ 'aria-label': t('kit.pageOf', { page, pages: pagination.total_pages }) })}
            />
          ) : null}
        </Group>
      ) : null}
    </Paper>
  );
}

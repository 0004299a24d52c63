import { ACTION_STATUS_TABS, type ActionListItem, type ActionStatusCounts, type ActionStatusTab } from '@bulwark/domain';
import {
  Alert,
  Anchor,
  Badge,
  Center,
  Group,
  Loader,
  Pagination,
  Paper,
  ScrollArea,
  Stack,
  Tabs,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { currentLanguage } from '../../i18n/setup.js';
import { DataTable, type Column } from '../../ui/index.js';
import { ActionFilters } from './action-filters.js';
import { actionSerial, useActionList, useActionRights } from './actions-api.js';
import { formatDay, sourceLink, STATUS_COLORS } from './format.js';
import { activeFilterCount, panelAddress, type ActionScreen, type ListState } from './list-url.js';

type Props = { screen: ActionScreen; state: ListState; onState: (next: ListState) => void };

/** Status tabs with their counts, filters, and the rows: a table on a wide screen, cards on a phone. */
export function ActionList({ screen, state, onState }: Props) {
  const { t, i18n } = useTranslation();
  const rights = useActionRights();
  const list = useActionList(screen, state);
  const phone = useMediaQuery('(max-width: 48em)');
  const columns = useColumns(screen, state);
  const data = list.data ?? null;
  const mine = rights.userId !== null && state.responsible_id === rights.userId;
  const filtered = activeFilterCount(state) > 0 || state.search !== '';
  const emptyText = mine ? t('actionsWeb.list.emptyMine') : filtered ? t('actionsWeb.list.emptyFiltered') : t('actions.list.empty');

  return (
    <Stack gap="sm">
      <StatusTabs
        value={state.status}
        counts={data?.counts ?? null}
        capped={data?.counts_capped ?? false}
        onChange={(status) => onState({ ...state, status, page: 1 })}
      />
      <ActionFilters screen={screen} state={state} onState={onState} />
      {phone ? (
        <ActionCards
          screen={screen}
          state={state}
          rows={data?.actions}
          error={list.isError}
          loading={list.isFetching}
          emptyText={emptyText}
        />
      ) : (
        <DataTable
          columns={columns}
          rows={data?.actions}
          rowKey={(a) => a.id}
          loading={list.isFetching}
          error={list.isError}
          emptyText={emptyText}
          caption={t(screen.titleKey)}
        />
      )}
      {data && data.pagination.total > 0 ? (
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" c="dimmed">
            {data.pagination.total_capped
              ? t('actionsWeb.list.totalAtLeast', {
                  count: data.pagination.total,
                  total: data.pagination.total.toLocaleString(i18n.language),
                })
              : t('kit.total', { count: data.pagination.total })}
          </Text>
          {data.pagination.total_pages > 1 ? (
            <Pagination
              size="sm"
              total={data.pagination.total_pages}
              value={data.pagination.page}
              onChange={(page) => onState({ ...state, page })}
              getControlProps={(control) => ({ 'aria-label': control })}
              getItemProps={(page) => ({ 'aria-label': t('kit.pageOf', { page, pages: data.pagination.total_pages }) })}
            />
          ) : null}
        </Group>
      ) : null}
    </Stack>
  );
}

function StatusTabs({
  value,
  counts,
  capped,
  onChange,
}: {
  value: ActionStatusTab;
  counts: ActionStatusCounts | null;
  /** A search stopped counting at 1,000 matches: each count is a lower bound, shown "1,000+". */
  capped: boolean;
  onChange: (v: ActionStatusTab) => void;
}) {
  const { t, i18n } = useTranslation();
  const shown = (n: number) => (capped ? t('actionsWeb.list.countAtLeast', { total: n.toLocaleString(i18n.language) }) : String(n));
  return (
    <ScrollArea type="auto" scrollbarSize={4} offsetScrollbars="x">
      <Tabs value={value} onChange={(v) => v && onChange(v as ActionStatusTab)} activateTabWithKeyboard>
        <Tabs.List aria-label={t('actionsWeb.list.statusTabs')} style={{ flexWrap: 'nowrap', width: 'max-content', minWidth: '100%' }}>
          {ACTION_STATUS_TABS.map((s) => (
            <Tabs.Tab
              key={s}
              value={s}
              rightSection={
                // A capped search's zero says nothing ("0+"): that tab shows no count.
                counts && !(capped && counts[s] === 0) ? (
                  <Badge size="sm" variant={value === s ? 'filled' : 'light'} color={s === 'all' ? 'gray' : STATUS_COLORS[s]} aria-hidden>
                    {shown(counts[s])}
                  </Badge>
                ) : null
              }
            >
              {/* Named "Open (3)" from its content (a label would not hold the count the badge shows as "3"). */}
              {counts ? (
                <>
                  <span aria-hidden>{t(`actions.status.${s}`)}</span>
                  <VisuallyHidden>
                    {capped && counts[s] === 0 ? t(`actions.status.${s}`) : `${t(`actions.status.${s}`)} (${shown(counts[s])})`}
                  </VisuallyHidden>
                </>
              ) : (
                t(`actions.status.${s}`)
              )}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
    </ScrollArea>
  );
}

export function StatusBadge({ status }: { status: ActionListItem['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLORS[status]} variant="light">
      {t(`actions.status.${status}`)}
    </Badge>
  );
}

function SourceCell({ row }: { row: ActionListItem }) {
  const { t } = useTranslation();
  if (row.source.type === 'other')
    return (
      <Text size="sm" c="dimmed">
        {t('actionsWeb.list.raisedOnItsOwn')}
      </Text>
    );
  const link = sourceLink(row.source);
  const label = t('actionsWeb.panel.source', { source: t(`actions.source.${row.source.type}`), serial: link.serial }).trim();
  return link.to ? (
    <Anchor component={Link} to={link.to} size="sm">
      {label}
    </Anchor>
  ) : (
    <Text size="sm">{label}</Text>
  );
}

function useColumns(screen: ActionScreen, state: ListState): Column<ActionListItem>[] {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n);
  const columns: Column<ActionListItem>[] = [
    {
      key: 'serial',
      header: t('actions.fields.serial'),
      width: 110,
      render: (a) => (
        <Anchor
          component={Link}
          to={panelAddress(screen, state, { mode: 'summary', id: a.id, tab: null })}
          fw={500}
          aria-label={t('actionsWeb.list.openAction', { serial: actionSerial(a.serial) })}
        >
          {actionSerial(a.serial)}
        </Anchor>
      ),
    },
    {
      key: 'description',
      header: t('actions.fields.description'),
      render: (a) => (
        <Text size="sm" lineClamp={2}>
          {a.description}
        </Text>
      ),
    },
    { key: 'responsible', header: t('actions.fields.responsible'), render: (a) => a.responsible?.full_name ?? t('actionsWeb.list.nobody') },
    { key: 'due', header: t('actions.fields.dueDate'), render: (a) => formatDay(a.due_date, language) },
    { key: 'status', header: t('actions.fields.status'), render: (a) => <StatusBadge status={a.status} /> },
    { key: 'site', header: t('actions.fields.site'), render: (a) => a.site.name, hideOnPhone: true },
    {
      key: 'control',
      header: t('actions.fields.controlType'),
      render: (a) => t(`actions.controlType.${a.control_type}`),
      hideOnPhone: true,
    },
  ];
  // A list of one source says it in its title; the mixed lists name each row's source.
  if (screen.source !== 'other') {
    columns.splice(2, 0, { key: 'source', header: t('actions.fields.source'), render: (a) => <SourceCell row={a} />, hideOnPhone: true });
  }
  return columns;
}

/** A phone's list: one card per action, the facts that decide what to do next first. */
function ActionCards(props: {
  screen: ActionScreen;
  state: ListState;
  rows: ActionListItem[] | undefined;
  error: boolean;
  loading: boolean;
  emptyText: string;
}) {
  const { t, i18n } = useTranslation();
  const language = currentLanguage(i18n);
  if (props.error)
    return (
      <Alert color="red" role="alert">
        {t('kit.loadFailed')}
      </Alert>
    );
  if (!props.rows) {
    return (
      <Center py="xl">
        <Loader aria-label={t('common.loading')} />
      </Center>
    );
  }
  if (props.rows.length === 0) {
    return (
      <Paper withBorder radius="md" p="lg">
        <Text c="dimmed" ta="center">
          {props.emptyText}
        </Text>
      </Paper>
    );
  }
  return (
    <Stack
      gap="xs"
      component="ul"
      p={0}
      m={0}
      style={{ listStyle: 'none', opacity: props.loading ? 0.6 : 1 }}
      aria-busy={props.loading || undefined}
      aria-label={t(props.screen.titleKey)}
    >
      {props.rows.map((a) => (
        <Paper key={a.id} component="li" withBorder radius="md" p="sm">
          <Group justify="space-between" wrap="nowrap" gap="xs" mb={4}>
            <Anchor
              component={Link}
              to={panelAddress(props.screen, props.state, { mode: 'summary', id: a.id, tab: null })}
              fw={600}
              aria-label={t('actionsWeb.list.openAction', { serial: actionSerial(a.serial) })}
            >
              {actionSerial(a.serial)}
            </Anchor>
            <StatusBadge status={a.status} />
          </Group>
          <Text size="sm" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
            {a.description}
          </Text>
          <Text size="xs" c="dimmed" mt={4}>
            {a.responsible?.full_name ?? t('actionsWeb.list.nobody')} ·{' '}
            {t('actionsWeb.list.due', { date: formatDay(a.due_date, language) })}
          </Text>
          {a.source.type !== 'other' ? <SourceCell row={a} /> : null}
        </Paper>
      ))}
    </Stack>
  );
}

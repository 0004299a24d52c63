import { ActionIcon, Alert, Badge, Button, Group, Paper, Select, Stack, Text } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { PageHeader, SearchInput, PageLoader } from '../../ui/index.js';
import { NodeActions } from './node-actions.js';
import { RootCauseListing } from './root-cause-listing.js';
import { isHidden, visibleNodes } from './root-cause-tree.js';
import { useRootCauseTree } from './categories-api.js';
import { useRootCauseActions } from './use-root-cause-actions.js';

/** The `whyanalysis` screen serves /whyanalysis (the tree) and /whyanalysis/:id/list (one entry and what is below it). */
export function WhyAnalysisPage() {
  const { id } = useParams();
  return id ? <RootCauseListing key={id} id={id} /> : <RootCauseTreePage />;
}

function RootCauseTreePage() {
  const { t } = useTranslation();
  const tree = useRootCauseTree();
  const actions = useRootCauseActions();
  const [typeName, setTypeName] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [expanded, setExpanded] = useState<Set<string>>(new Set());
  const nodes = useMemo(() => tree.data?.root_cause_settings ?? [], [tree.data]);
  const shown = useMemo(() => visibleNodes(nodes, typeName, search), [nodes, typeName, search]);
  const byId = useMemo(() => new Map(nodes.map((n) => [n.id, n])), [nodes]);
  // While searching every match is shown with its path; otherwise the tree opens as the person clicks.
  const open = search ? new Set(shown.map((n) => n.id)) : expanded;
  const hasChildrenShown = new Set(shown.map((n) => n.parent_id).filter((x): x is string => x !== null));

  const toggleOpen = (id: string) =>
    setExpanded((cur) => {
      const next = new Set(cur);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  let body;
  if (tree.isError)
    body = (
      <Alert color="red" role="alert">
        {t('categories.rootCauses.loadFailed')}
      </Alert>
    );
  else if (!tree.data) body = <PageLoader />;
  else if (nodes.length === 0)
    body = (
      <Text c="dimmed" ta="center" py="lg">
        {t('categories.rootCauses.empty')}
      </Text>
    );
  else if (shown.length === 0)
    body = (
      <Text c="dimmed" ta="center" py="lg">
        {t('categories.rootCauses.emptyFilter')}
      </Text>
    );
  else {
    body = (
      <ul role="tree" aria-label={t('categories.rootCauses.tree')} style={{ listStyle: 'none', margin: 0, padding: 0 }}>
        {shown
          .filter((n) => !isHidden(n, byId, open))
          .map((n) => {
            const canOpen = hasChildrenShown.has(n.id);
            const isOpen = open.has(n.id);
            return (
              <li
                key={n.id}
                role="treeitem"
                aria-level={n.depth + 1}
                aria-expanded={canOpen ? isOpen : undefined}
                aria-selected={false}
                style={{
                  paddingLeft: `calc(${n.depth} * var(--mantine-spacing-lg))`,
                  borderBottom: '1px solid var(--mantine-color-default-border)',
                }}
              >
                <Group gap="xs" py={6} wrap="wrap" justify="space-between">
                  <Group gap={6} wrap="nowrap" style={{ minWidth: 0, flex: '1 1 200px' }}>
                    {canOpen ? (
                      <ActionIcon
                        variant="subtle"
                        size="sm"
                        onClick={() => toggleOpen(n.id)}
                        disabled={Boolean(search)}
                        aria-label={t(isOpen ? 'categories.rootCauses.collapse' : 'categories.rootCauses.expand', { name: n.name })}
                      >
                        <span aria-hidden>{isOpen ? '▾' : '▸'}</span>
                      </ActionIcon>
                    ) : (
                      <span style={{ width: 22, display: 'inline-block' }} aria-hidden />
                    )}
                    <Text fw={n.depth === 0 ? 600 : 400} c={n.active ? undefined : 'dimmed'} style={{ overflowWrap: 'anywhere' }}>
                      {n.name}
                    </Text>
                    {n.active ? null : (
                      <Badge color="gray" variant="light" size="sm">
                        {t('categories.status.inactive')}
                      </Badge>
                    )}
                    {n.children_count > 0 ? (
                      <Badge variant="outline" size="sm">
                        {t('categories.rootCauses.childrenCount', { count: n.children_count })}
                      </Badge>
                    ) : null}
                  </Group>
                  <NodeActions node={n} actions={actions} />
                </Group>
              </li>
            );
          })}
      </ul>
    );
  }

  return (
    <Stack gap="md">
      <PageHeader
        title={t('screen.whyanalysis')}
        description={t('categories.rootCauses.subtitle')}
        actions={actions.rights.create ? <Button onClick={() => actions.add(null)}>{t('categories.rootCauses.addType')}</Button> : null}
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchInput value={search} onChange={setSearch} label={t('categories.rootCauses.search')} />
        <Select
          label={t('categories.rootCauses.typeFilter')}
          placeholder={t('categories.rootCauses.allTypes')}
          data={tree.data?.type_names ?? []}
          value={typeName}
          onChange={setTypeName}
          clearable
          searchable
          w={220}
        />
      </Group>
      <Paper withBorder radius="md" p="sm">
        {body}
      </Paper>
      {actions.dialogs}
    </Stack>
  );
}

import type { RootCauseNode } from '@bulwark/domain';
import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { RootCauseActions } from './use-root-cause-actions.js';

/** The buttons of one why-analysis entry, shared by the tree and the listing. */
export function NodeActions({ node, actions }: { node: RootCauseNode; actions: RootCauseActions }) {
  const { t } = useTranslation();
  const label = (key: string) => `${t(`categories.rootCauses.${key}`)}: ${node.name}`;
  return (
    <Group gap={4} wrap="wrap">
      <Button component={Link} to={`/whyanalysis/${node.id}/list`} size="compact-xs" variant="light" aria-label={label('open')}>
        {t('categories.rootCauses.open')}
      </Button>
      {actions.rights.create && node.active && node.depth < 5 ? (
        <Button size="compact-xs" variant="light" onClick={() => actions.add(node)} aria-label={label('addChild')}>
          {t('categories.rootCauses.addChild')}
        </Button>
      ) : null}
      {actions.rights.update ? (
        <>
          <Button size="compact-xs" variant="light" onClick={() => actions.edit(node)} aria-label={label('edit')}>
            {t('categories.rootCauses.edit')}
          </Button>
          <Button
            size="compact-xs"
            variant="subtle"
            color={node.active ? 'red' : 'teal'}
            loading={actions.busyId === node.id}
            onClick={() => void actions.toggle(node)}
            aria-label={label(node.active ? 'deactivate' : 'activate')}
          >
            {t(node.active ? 'categories.rootCauses.deactivate' : 'categories.rootCauses.activate')}
          </Button>
        </>
      ) : null}
      {actions.rights.delete && node.children_count === 0 ? (
        <Button size="compact-xs" variant="subtle" color="red" onClick={() => void actions.remove(node)} aria-label={label('delete')}>
          {t('categories.rootCauses.delete')}
        </Button>
      ) : null}
    </Group>
  );
}

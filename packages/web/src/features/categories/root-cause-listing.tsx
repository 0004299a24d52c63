import { Alert, Anchor, Badge, Breadcrumbs, Button, Paper, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useRootCauseListing } from './categories-api.js';
import { NodeActions } from './node-actions.js';
import { useRootCauseActions } from './use-root-cause-actions.js';

/** /whyanalysis/:id/list: one entry, the path from its type, and the entries directly below it. */
export function RootCauseListing({ id }: { id: string }) {
  const { t } = useTranslation();
  const actions = useRootCauseActions();
  const listing = useRootCauseListing(id);

  if (listing.isError) {
    const missing = isApiError(listing.error) && (listing.error.status === 404 || listing.error.status === 400);
    return (
      <Stack maw={720}>
        <PageHeader title={t('screen.whyanalysis')} />
        <Alert color="red" role="alert">
          {missing ? t('categories.rootCauses.notFound') : t('categories.rootCauses.loadFailed')}
        </Alert>
        <Button component={Link} to="/whyanalysis" variant="default" w="fit-content">
          {t('categories.rootCauses.back')}
        </Button>
      </Stack>
    );
  }
  if (!listing.data) return <PageLoader />;
  const { root_cause_setting: node, ancestors, children } = listing.data;

  return (
    <Stack gap="md">
      <Breadcrumbs separatorMargin={6} style={{ flexWrap: 'wrap' }}>
        <Anchor component={Link} to="/whyanalysis">
          {t('screen.whyanalysis')}
        </Anchor>
        {ancestors.map((a) => (
          <Anchor key={a.id} component={Link} to={`/whyanalysis/${a.id}/list`}>
            {a.name}
          </Anchor>
        ))}
        <Text>{node.name}</Text>
      </Breadcrumbs>
      <PageHeader
        title={node.name}
        description={`${node.type_name} · ${t('categories.rootCauses.level', { level: node.depth })}${node.active ? '' : ` · ${t('categories.status.inactive')}`}`}
        actions={<NodeActions node={node} actions={actions} />}
      />
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={420}>
          <Table striped verticalSpacing="sm">
            <Table.Caption>{t('categories.rootCauses.children')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('categories.rootCauses.name')}</Table.Th>
                <Table.Th>{t('categories.fields.status')}</Table.Th>
                <Table.Th>{t('kit.actions')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {children.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text c="dimmed" ta="center" py="lg">
                      {t('categories.rootCauses.emptyChildren')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                children.map((c) => (
                  <Table.Tr key={c.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>
                      <Anchor component={Link} to={`/whyanalysis/${c.id}/list`}>
                        {c.name}
                      </Anchor>
                      {c.children_count > 0 ? (
                        <Badge ml="xs" variant="outline" size="sm">
                          {t('categories.rootCauses.childrenCount', { count: c.children_count })}
                        </Badge>
                      ) : null}
                    </Table.Td>
                    <Table.Td>
                      <Badge color={c.active ? 'teal' : 'gray'} variant="light">
                        {t(c.active ? 'categories.status.active' : 'categories.status.inactive')}
                      </Badge>
                    </Table.Td>
                    <Table.Td>
                      <NodeActions node={c} actions={actions} />
                    </Table.Td>
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Button component={Link} to="/whyanalysis" variant="default" w="fit-content">
        {t('categories.rootCauses.back')}
      </Button>
      {actions.dialogs}
    </Stack>
  );
}

import { siteNodeSchema, type SiteLevel, type SiteNodeResponse, type SiteUserSummary } from '@bulwark/domain';
import { Alert, Badge, Box, Button, Group, Modal, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PageHeader, useConfirm, PageLoader } from '../../ui/index.js';
import { useSiteCommands, useSitesRefresh, useSiteTree } from './sites-api.js';
import { UserPicker } from './user-picker.js';
import { useSiteRight } from './use-site-rights.js';

const CHILD: Record<SiteLevel, SiteLevel | null> = { division: 'department', department: 'unit', unit: null };
const ADD_LABEL: Record<SiteLevel, string> = {
  division: 'sites.tree.addDivision',
  department: 'sites.tree.addDepartment',
  unit: 'sites.tree.addUnit',
};

/** What the editor dialog is doing: adding under a parent (null = a division) or changing a node. */
type Editing = { mode: 'add'; level: SiteLevel; parentId: string | null } | { mode: 'edit'; node: SiteNodeResponse };

/** /sites/:id/divisions: the site's divisions, departments and units as a tree, edited in place. */
export function DivisionsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const commands = useSiteCommands();
  const refresh = useSitesRefresh();
  const mayUpdate = useSiteRight('update');
  const [editing, setEditing] = useState<Editing | null>(null);
  const [confirm, dialog] = useConfirm();

  const tree = useSiteTree(id);

  async function remove(node: SiteNodeResponse) {
    const ok = await confirm({
      title: t('sites.tree.confirmDeleteTitle', { name: node.name }),
      message: t('sites.tree.confirmDeleteBody'),
      confirmLabel: t('sites.tree.delete'),
      danger: true,
    });
    if (!ok) return;
    try {
      await commands.removeNode(id, node.id);
      notifySuccess(t('sites.tree.deleted', { name: node.name }));
      await refresh();
    } catch {
      // The HTTP client has shown the refusal.
    }
  }

  if (tree.isError) {
    const missing = isApiError(tree.error) && tree.error.status === 404;
    return (
      <Stack maw={720}>
        <PageHeader title={t('screen.divisions')} />
        <Alert color="red" role="alert">
          {missing ? t('sites.form.notFound') : t('kit.loadFailed')}
        </Alert>
        <Button component={Link} to="/sites" variant="default" w="fit-content">
          {t('sites.form.back')}
        </Button>
      </Stack>
    );
  }
  if (!tree.data) {
    return <PageLoader />;
  }
  const data = tree.data;

  const renderNode = (node: SiteNodeResponse, depth: number) => {
    const child = CHILD[node.level];
    return (
      <Box key={node.id} component="li" style={{ listStyle: 'none' }}>
        <Paper withBorder radius="sm" p="sm" ml={{ base: depth * 12, sm: depth * 28 }} mb={6}>
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 200px' }}>
              <Group gap={6} wrap="nowrap">
                <Badge
                  variant="light"
                  size="sm"
                  color={node.level === 'division' ? 'blue' : node.level === 'department' ? 'grape' : 'teal'}
                >
                  {t(`sites.tree.${node.level}`)}
                </Badge>
                <Text fw={500} style={{ overflowWrap: 'anywhere' }}>
                  {node.name}
                </Text>
              </Group>
              <Text size="xs" c="dimmed">
                {t('sites.tree.head')}: {node.head?.full_name ?? t('sites.tree.none')} · {t('sites.tree.supervisor')}:{' '}
                {node.supervisor?.full_name ?? t('sites.tree.none')}
              </Text>
            </Stack>
            {mayUpdate ? (
              <Group gap={4} wrap="wrap">
                {child ? (
                  <Button
                    size="compact-sm"
                    variant="light"
                    onClick={() => setEditing({ mode: 'add', level: child, parentId: node.id })}
                    aria-label={`${t(ADD_LABEL[child])}: ${node.name}`}
                  >
                    {t(ADD_LABEL[child])}
                  </Button>
                ) : null}
                <Button
                  size="compact-sm"
                  variant="subtle"
                  onClick={() => setEditing({ mode: 'edit', node })}
                  aria-label={`${t('sites.tree.edit')}: ${node.name}`}
                >
                  {t('sites.tree.edit')}
                </Button>
                <Button
                  size="compact-sm"
                  variant="subtle"
                  color="red"
                  onClick={() => void remove(node)}
                  aria-label={`${t('sites.tree.delete')}: ${node.name}`}
                >
                  {t('sites.tree.delete')}
                </Button>
              </Group>
            ) : null}
          </Group>
        </Paper>
        {node.children.length > 0 ? (
          <Box component="ul" p={0} m={0}>
            {node.children.map((c) => renderNode(c, depth + 1))}
          </Box>
        ) : null}
      </Box>
    );
  };

  return (
    <Stack gap="md" maw={960}>
      <PageHeader
        title={t('sites.tree.title', { site: data.site.name })}
        description={t('sites.tree.hint')}
        actions={
          <>
            <Button component={Link} to="/sites" variant="default">
              {t('sites.form.back')}
            </Button>
            {mayUpdate ? (
              <Button onClick={() => setEditing({ mode: 'add', level: 'division', parentId: null })}>{t('sites.tree.addDivision')}</Button>
            ) : null}
          </>
        }
      />
      {data.divisions.length === 0 ? (
        <Paper withBorder radius="md" p="lg">
          <Text c="dimmed" ta="center">
            {t('sites.tree.empty')}
          </Text>
        </Paper>
      ) : (
        <Box component="ul" p={0} m={0} aria-label={t('sites.tree.title', { site: data.site.name })}>
          {data.divisions.map((d) => renderNode(d, 0))}
        </Box>
      )}
      <NodeDialog siteId={id} editing={editing} onClose={() => setEditing(null)} />
      {dialog}
    </Stack>
  );
}

function NodeDialog({ siteId, editing, onClose }: { siteId: string; editing: Editing | null; onClose: () => void }) {
  const { t } = useTranslation();
  const title = !editing ? '' : editing.mode === 'add' ? t(ADD_LABEL[editing.level]) : `${t('sites.tree.edit')}: ${editing.node.name}`;
  return (
    <Modal opened={editing !== null} onClose={onClose} title={title} centered>
      {editing ? (
        <NodeForm
          key={editing.mode === 'edit' ? editing.node.id : `add-${editing.parentId ?? 'root'}`}
          siteId={siteId}
          editing={editing}
          onDone={onClose}
        />
      ) : null}
    </Modal>
  );
}

function NodeForm({ siteId, editing, onDone }: { siteId: string; editing: Editing; onDone: () => void }) {
  const { t } = useTranslation();
  const commands = useSiteCommands();
  const refresh = useSitesRefresh();
  const form = useFormSubmit();
  const start = editing.mode === 'edit' ? editing.node : null;
  const [name, setName] = useState(start?.name ?? '');
  const [headId, setHeadId] = useState<string | null>(start?.head?.id ?? null);
  const [supervisorId, setSupervisorId] = useState<string | null>(start?.supervisor?.id ?? null);
  const people: { head: SiteUserSummary | null; supervisor: SiteUserSummary | null } = {
    head: start?.head ?? null,
    supervisor: start?.supervisor ?? null,
  };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = { name, head_id: headId, supervisor_id: supervisorId };
    const checked = validate(siteNodeSchema, body, t);
    if (form.refuse(checked.errors)) return;
    await form.run(async () => {
      if (editing.mode === 'add') {
        await commands.createNode(siteId, { ...body, parent_id: editing.parentId });
        notifySuccess(t('sites.tree.created', { name: checked.data!.name }));
      } else {
        await commands.updateNode(siteId, editing.node.id, body);
        notifySuccess(t('sites.tree.saved', { name: checked.data!.name }));
      }
      await refresh();
      onDone();
    });
  }

  return (
    <form onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="sm">
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <TextInput
          label={t('sites.tree.name')}
          withAsterisk
          maxLength={100}
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          error={form.errors['name']}
          data-autofocus
        />
        <UserPicker label={t('sites.tree.head')} value={headId} current={people.head} onChange={setHeadId} error={form.errors['head_id']} />
        <UserPicker
          label={t('sites.tree.supervisor')}
          value={supervisorId}
          current={people.supervisor}
          onChange={setSupervisorId}
          error={form.errors['supervisor_id']}
        />
        <Group justify="flex-end" mt="sm">
          <Button variant="default" onClick={onDone}>
            {t('sites.tree.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('sites.tree.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

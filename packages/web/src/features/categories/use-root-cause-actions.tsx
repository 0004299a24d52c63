import { rootCauseCreateSchema, type RootCauseNode, type RootCauseUpdate } from '@bulwark/domain';
import { Alert, Button, Group, Modal, Select, Stack, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useConfirm } from '../../ui/index.js';
import { ROOT_CAUSES_KEY, useRight, useRootCauseCommands, useRootCauseTree } from './categories-api.js';
import { activeBelow, parentOptions } from './root-cause-tree.js';

const TOP = '__top__';
type Editing =
  { mode: 'create'; parent: RootCauseNode | null; name: string } | { mode: 'edit'; node: RootCauseNode; name: string; parentId: string };

export type RootCauseActions = {
  rights: { create: boolean; update: boolean; delete: boolean };
  add: (parent: RootCauseNode | null) => void;
  edit: (node: RootCauseNode) => void;
  toggle: (node: RootCauseNode) => Promise<void>;
  remove: (node: RootCauseNode) => Promise<void>;
  busyId: string | null;
  dialogs: ReactNode;
};

/** Add, edit/move, (de)activate and delete root-cause entries, with their dialogs and confirmations. */
export function useRootCauseActions(): RootCauseActions {
  const { t } = useTranslation();
  const commands = useRootCauseCommands();
  const queryClient = useQueryClient();
  const form = useFormSubmit();
  const tree = useRootCauseTree();
  const [editing, setEditing] = useState<Editing | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirm, confirmDialog] = useConfirm();
  const rights = {
    create: useRight('RC Master', 'create'),
    update: useRight('RC Master', 'update'),
    delete: useRight('RC Master', 'delete'),
  };
  const nodes = tree.data?.root_cause_settings ?? [];
  const refresh = () => queryClient.invalidateQueries({ queryKey: ROOT_CAUSES_KEY });

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!editing) return;
    const checked = validate(rootCauseCreateSchema, { name: editing.name }, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const data = checked.data;
    await form.run(async () => {
      if (editing.mode === 'create') {
        await commands.create({ name: data.name, parent_id: editing.parent?.id ?? null });
        notifySuccess(t('categories.rootCauses.created', { name: data.name }));
      } else {
        const parentId = editing.parentId === TOP ? null : editing.parentId;
        const body: RootCauseUpdate = { name: data.name };
        if (parentId !== editing.node.parent_id) body.parent_id = parentId;
        await commands.update(editing.node.id, body);
        notifySuccess(t('categories.rootCauses.updated', { name: data.name }));
      }
      setEditing(null);
      await refresh();
    });
  }

  async function toggle(node: RootCauseNode) {
    let withChildren = false;
    if (node.active) {
      const below = activeBelow(nodes, node.id);
      const ok = await confirm({
        title: t('categories.rootCauses.deactivateTitle', { name: node.name }),
        message: t('categories.rootCauses.deactivateBody', { count: below }),
        confirmLabel: below > 0 ? t('categories.rootCauses.deactivateWithChildren') : t('categories.rootCauses.deactivate'),
        danger: true,
      });
      if (!ok) return;
      withChildren = below > 0;
    }
    setBusyId(node.id);
    try {
      await commands.setActive(node.id, !node.active, withChildren);
      notifySuccess(t('categories.rootCauses.updated', { name: node.name }));
      await refresh();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  async function remove(node: RootCauseNode) {
    const ok = await confirm({
      title: t('categories.rootCauses.deleteTitle', { name: node.name }),
      message: t('categories.rootCauses.deleteBody'),
      confirmLabel: t('categories.rootCauses.delete'),
      danger: true,
    });
    if (!ok) return;
    setBusyId(node.id);
    try {
      await commands.remove(node.id);
      notifySuccess(t('categories.rootCauses.deleted', { name: node.name }));
      await refresh();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  const options =
    editing?.mode === 'edit'
      ? [
          { value: TOP, label: t('categories.rootCauses.topLevel') },
          ...parentOptions(nodes, editing.node).map((n) => ({ value: n.id, label: `${'— '.repeat(n.depth)}${n.name}` })),
        ]
      : [];
  const title =
    editing?.mode === 'create'
      ? editing.parent
        ? t('categories.rootCauses.newChildName', { name: editing.parent.name })
        : t('categories.rootCauses.addType')
      : t('categories.rootCauses.edit');

  const dialogs = (
    <>
      <Modal opened={editing !== null} onClose={() => setEditing(null)} title={title} centered>
        <form onSubmit={(e) => void submit(e)} noValidate>
          <Stack gap="sm">
            {form.message ? (
              <Alert color="red" role="alert">
                {form.message}
              </Alert>
            ) : null}
            <TextInput
              label={
                editing?.mode === 'create' && !editing.parent ? t('categories.rootCauses.newTypeName') : t('categories.rootCauses.name')
              }
              value={editing?.name ?? ''}
              onChange={(e) => {
                const name = e.currentTarget.value;
                setEditing((cur) => (cur ? { ...cur, name } : cur));
              }}
              error={form.errors['name']}
              maxLength={150}
              required
              data-autofocus
            />
            {editing?.mode === 'edit' ? (
              <Select
                label={t('categories.rootCauses.moveTo')}
                data={options}
                value={editing.parentId}
                onChange={(v) => setEditing((cur) => (cur && cur.mode === 'edit' ? { ...cur, parentId: v ?? TOP } : cur))}
                searchable
                allowDeselect={false}
                error={form.errors['parent_id']}
              />
            ) : form.errors['parent_id'] ? (
              <Alert color="red" role="alert">
                {form.errors['parent_id']}
              </Alert>
            ) : null}
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setEditing(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={form.busy}>
                {t('common.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {confirmDialog}
    </>
  );

  return {
    rights,
    add: (parent) => {
      form.refuse(null);
      setEditing({ mode: 'create', parent, name: '' });
    },
    edit: (node) => {
      form.refuse(null);
      setEditing({ mode: 'edit', node, name: node.name, parentId: node.parent_id ?? TOP });
    },
    toggle,
    remove,
    busyId,
    dialogs,
  };
}

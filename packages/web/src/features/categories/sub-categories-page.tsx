import { subCategoryCreateSchema, type SubCategory } from '@bulwark/domain';
import { Alert, Anchor, Badge, Breadcrumbs, Button, Group, Modal, Paper, Stack, Table, Text, TextInput } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PageHeader, useConfirm, PageLoader } from '../../ui/index.js';
import { CATEGORIES_KEY, useCategory, useCategoryCommands, useRight } from './categories-api.js';

/** /categories/:id: a category's sub-categories, added, renamed, deactivated and activated in place. */
export function SubCategoriesPage() {
  const { id = '' } = useParams();
  const { t } = useTranslation();
  const commands = useCategoryCommands();
  const queryClient = useQueryClient();
  const addForm = useFormSubmit();
  const renameForm = useFormSubmit();
  const [newName, setNewName] = useState('');
  const [renaming, setRenaming] = useState<{ sub: SubCategory; name: string } | null>(null);
  const [busyId, setBusyId] = useState<string | null>(null);
  const [confirm, dialog] = useConfirm();
  const mayCreate = useRight('Category', 'create');
  const mayUpdate = useRight('Category', 'update');

  const detail = useCategory(id);
  const refresh = () => queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });

  if (detail.isError) {
    const missing = isApiError(detail.error) && (detail.error.status === 404 || detail.error.status === 400);
    return (
      <Stack maw={720}>
        <PageHeader title={t('categories.title')} />
        <Alert color="red" role="alert">
          {missing ? t('categories.sub.notFound') : t('kit.loadFailed')}
        </Alert>
        <Button component={Link} to="/categories" variant="default" w="fit-content">
          {t('common.back')}
        </Button>
      </Stack>
    );
  }
  if (!detail.data) {
    return <PageLoader />;
  }
  const { category, sub_categories: subs } = detail.data;

  async function add(e: FormEvent) {
    e.preventDefault();
    const checked = validate(subCategoryCreateSchema, { name: newName }, t);
    if (addForm.refuse(checked.errors) || !checked.data) return;
    const data = checked.data;
    await addForm.run(async () => {
      const created = await commands.createSubCategory(id, data);
      notifySuccess(t('categories.notices.subCreated', { name: created.name }));
      setNewName('');
      await refresh();
    });
  }

  async function rename(e: FormEvent) {
    e.preventDefault();
    if (!renaming) return;
    const checked = validate(subCategoryCreateSchema, { name: renaming.name }, t);
    if (renameForm.refuse(checked.errors) || !checked.data) return;
    const data = checked.data;
    await renameForm.run(async () => {
      await commands.renameSubCategory(id, renaming.sub.id, { name: data.name });
      notifySuccess(t('categories.notices.subUpdated', { name: data.name }));
      setRenaming(null);
      await refresh();
    });
  }

  async function toggle(sub: SubCategory) {
    if (sub.active) {
      const ok = await confirm({
        title: t('categories.confirm.deactivateTitle', { name: sub.name }),
        message: t('categories.confirm.deactivateBody'),
        confirmLabel: t('categories.actions.deactivate'),
        danger: true,
      });
      if (!ok) return;
    }
    setBusyId(sub.id);
    try {
      await commands.setSubCategoryActive(id, sub.id, !sub.active);
      notifySuccess(t('categories.notices.subUpdated', { name: sub.name }));
      await refresh();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  return (
    <Stack gap="md" maw={900}>
      <Breadcrumbs>
        <Anchor component={Link} to="/categories">
          {t('categories.title')}
        </Anchor>
        <Text>{category.name}</Text>
      </Breadcrumbs>
      <PageHeader
        title={t('categories.subCategoriesTitle', { name: category.name })}
        description={`${t(`categories.modules.${category.module}`)} · ${t(`categories.types.${category.type}`)}${category.active ? '' : ` · ${t('categories.status.inactive')}`}`}
      />
      {mayCreate ? (
        <Paper withBorder p="md" radius="md" component="form" onSubmit={(e: FormEvent) => void add(e)} noValidate>
          {addForm.message ? (
            <Alert color="red" role="alert" mb="sm">
              {addForm.message}
            </Alert>
          ) : null}
          <Group align="flex-start" gap="sm" wrap="wrap">
            <TextInput
              label={t('categories.sub.newName')}
              value={newName}
              onChange={(e) => setNewName(e.currentTarget.value)}
              error={addForm.errors['name']}
              maxLength={120}
              style={{ flex: '1 1 240px' }}
            />
            <Button type="submit" loading={addForm.busy} mt={{ base: 0, xs: 24 }}>
              {t('categories.sub.add')}
            </Button>
          </Group>
        </Paper>
      ) : null}
      <Paper withBorder radius="md">
        <Table.ScrollContainer minWidth={360}>
          <Table striped verticalSpacing="sm">
            <Table.Caption>{t('categories.fields.subCategories')}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('categories.fields.name')}</Table.Th>
                <Table.Th>{t('categories.fields.status')}</Table.Th>
                {mayUpdate ? <Table.Th>{t('kit.actions')}</Table.Th> : null}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {subs.length === 0 ? (
                <Table.Tr>
                  <Table.Td colSpan={3}>
                    <Text c="dimmed" ta="center" py="lg">
                      {t('categories.sub.empty')}
                    </Text>
                  </Table.Td>
                </Table.Tr>
              ) : (
                subs.map((s) => (
                  <Table.Tr key={s.id}>
                    <Table.Td style={{ overflowWrap: 'anywhere' }}>{s.name}</Table.Td>
                    <Table.Td>
                      <Badge color={s.active ? 'teal' : 'gray'} variant="light">
                        {t(s.active ? 'categories.status.active' : 'categories.status.inactive')}
                      </Badge>
                    </Table.Td>
                    {mayUpdate ? (
                      <Table.Td>
                        <Group gap={6} wrap="wrap">
                          <Button
                            size="compact-sm"
                            variant="light"
                            onClick={() => setRenaming({ sub: s, name: s.name })}
                            aria-label={`${t('categories.actions.rename')}: ${s.name}`}
                          >
                            {t('categories.actions.rename')}
                          </Button>
                          <Button
                            size="compact-sm"
                            variant="subtle"
                            color={s.active ? 'red' : 'teal'}
                            loading={busyId === s.id}
                            onClick={() => void toggle(s)}
                            aria-label={`${t(s.active ? 'categories.actions.deactivate' : 'categories.actions.activate')}: ${s.name}`}
                          >
                            {t(s.active ? 'categories.actions.deactivate' : 'categories.actions.activate')}
                          </Button>
                        </Group>
                      </Table.Td>
                    ) : null}
                  </Table.Tr>
                ))
              )}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Modal opened={renaming !== null} onClose={() => setRenaming(null)} title={t('categories.actions.rename')} centered>
        <form onSubmit={(e) => void rename(e)} noValidate>
          <Stack gap="sm">
            {renameForm.message ? (
              <Alert color="red" role="alert">
                {renameForm.message}
              </Alert>
            ) : null}
            <TextInput
              label={t('categories.fields.name')}
              value={renaming?.name ?? ''}
              onChange={(e) => {
                const name = e.currentTarget.value;
                setRenaming((r) => (r ? { ...r, name } : r));
              }}
              error={renameForm.errors['name']}
              maxLength={120}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setRenaming(null)}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={renameForm.busy}>
                {t('categories.actions.save')}
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
      {dialog}
    </Stack>
  );
}

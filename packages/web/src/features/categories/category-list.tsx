import type { Category, CategoryModule } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, Select, Stack } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { DataTable, PageHeader, SearchInput, useConfirm, usePagedList, type Column } from '../../ui/index.js';
import { CATEGORIES_KEY, useCategoryCommands, useCategoryListLoader, useRight } from './categories-api.js';
import { useCategoryTypes } from './use-category-types.js';

/** /categories: filtered by module and type, searched, paged; deactivation asks first. */
export function CategoryList() {
  const { t } = useTranslation();
  const commands = useCategoryCommands();
  const queryClient = useQueryClient();
  const types = useCategoryTypes();
  const [module, setModule] = useState<CategoryModule | null>(null);
  const [type, setType] = useState<string | null>(null);
  const list = usePagedList<Category>({
    queryKey: CATEGORIES_KEY,
    load: useCategoryListLoader(),
    filters: { module, type },
  });
  const [confirm, dialog] = useConfirm();
  const [busyId, setBusyId] = useState<string | null>(null);
  const mayCreate = useRight('Category', 'create');
  const mayUpdate = useRight('Category', 'update');

  async function toggle(c: Category) {
    if (c.active) {
      const ok = await confirm({
        title: t('categories.confirm.deactivateTitle', { name: c.name }),
        message: t('categories.confirm.deactivateBody'),
        confirmLabel: t('categories.actions.deactivate'),
        danger: true,
      });
      if (!ok) return;
    }
    setBusyId(c.id);
    try {
      await commands.setActive(c.id, !c.active);
      notifySuccess(t('categories.notices.updated', { name: c.name }));
      await queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusyId(null);
    }
  }

  const columns: Column<Category>[] = [
    {
      key: 'name',
      header: t('categories.fields.name'),
      render: (c) => (
        <Anchor component={Link} to={`/categories/${c.id}`} fw={500}>
          {c.name}
        </Anchor>
      ),
    },
    { key: 'module', header: t('categories.fields.module'), render: (c) => t(`categories.modules.${c.module}`), hideOnPhone: true },
    { key: 'type', header: t('categories.fields.type'), render: (c) => t(`categories.types.${c.type}`) },
    { key: 'subs', header: t('categories.fields.subCategories'), render: (c) => c.sub_category_count, hideOnPhone: true },
    {
      key: 'status',
      header: t('categories.fields.status'),
      width: 110,
      render: (c) => (
        <Badge color={c.active ? 'teal' : 'gray'} variant="light">
          {t(c.active ? 'categories.status.active' : 'categories.status.inactive')}
        </Badge>
      ),
    },
    {
      key: 'actions',
      header: t('kit.actions'),
      render: (c) => (
        <Group gap={6} wrap="wrap">
          <Button
            component={Link}
            to={`/categories/${c.id}`}
            size="compact-sm"
            variant="light"
            aria-label={`${t('categories.actions.open')}: ${c.name}`}
          >
            {t('categories.actions.open')}
          </Button>
          {mayUpdate ? (
            <>
              <Button
                component={Link}
                to={`/categories/edit/${c.id}`}
                size="compact-sm"
                variant="light"
                aria-label={`${t('categories.actions.edit')}: ${c.name}`}
              >
                {t('categories.actions.edit')}
              </Button>
              <Button
                size="compact-sm"
                variant="subtle"
                color={c.active ? 'red' : 'teal'}
                loading={busyId === c.id}
                onClick={() => void toggle(c)}
                aria-label={`${t(c.active ? 'categories.actions.deactivate' : 'categories.actions.activate')}: ${c.name}`}
              >
                {t(c.active ? 'categories.actions.deactivate' : 'categories.actions.activate')}
              </Button>
            </>
          ) : null}
        </Group>
      ),
    },
  ];

  const filtered = Boolean(list.search || module || type);
  return (
    <Stack gap="md">
      <PageHeader
        title={t('categories.title')}
        description={t('categories.subtitle')}
        actions={
          mayCreate ? (
            <Button component={Link} to="/categories/new">
              {t('categories.actions.add')}
            </Button>
          ) : null
        }
      />
      <Group gap="sm" wrap="wrap" align="flex-end">
        <SearchInput value={list.search} onChange={list.setSearch} label={t('categories.filters.search')} />
        <Select
          label={t('categories.fields.module')}
          placeholder={t('categories.filters.allModules')}
          data={types.moduleOptions}
          value={module}
          clearable
          disabled={!types.data}
          onChange={(v) => {
            setModule(v as CategoryModule | null);
            setType(null);
            list.setPage(1);
          }}
          w={200}
        />
        <Select
          label={t('categories.fields.type')}
          placeholder={t('categories.filters.allTypes')}
          data={types.typeOptions(module)}
          value={type}
          clearable
          searchable
          onChange={(v) => {
            setType(v);
            list.setPage(1);
          }}
          w={220}
        />
      </Group>
      <DataTable
        columns={columns}
        rows={list.rows}
        rowKey={(c) => c.id}
        loading={list.isFetching}
        error={list.isError}
        emptyText={filtered ? t('categories.list.empty') : t('categories.list.emptyAll')}
        pagination={list.pagination}
        onPage={list.setPage}
        caption={t('categories.title')}
      />
      {dialog}
    </Stack>
  );
}

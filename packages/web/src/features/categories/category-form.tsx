import { categoryCreateSchema, categoryUpdateSchema, type CategoryModule } from '@bulwark/domain';
import { Alert, Button, Checkbox, Group, Loader, Paper, Select, Stack, TextInput, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PageHeader, PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { CATEGORIES_KEY, useCategory, useCategoryCommands, useRight } from './categories-api.js';
import { useCategoryTypes } from './use-category-types.js';

type FormState = { module: CategoryModule | null; type: string | null; name: string; description: string; active: boolean };
const EMPTY: FormState = { module: null, type: null, name: '', description: '', active: true };

/** /categories/new and /categories/edit/:id: module (fixed once created), type, name, description, active. */
export function CategoryForm({ categoryId }: { categoryId: string | null }) {
  const { t } = useTranslation();
  const commands = useCategoryCommands();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const form = useFormSubmit();
  const types = useCategoryTypes();
  const [edited, setEdited] = useState<FormState | null>(null);
  const mayWrite = useRight('Category', categoryId ? 'update' : 'create');

  const existing = useCategory(categoryId);
  const loaded = existing.data?.category ?? null;
  const values: FormState | null =
    edited ??
    (categoryId
      ? loaded
        ? { module: loaded.module, type: loaded.type, name: loaded.name, description: loaded.description, active: loaded.active }
        : null
      : EMPTY);
  const title = categoryId ? t('categories.editCategory') : t('categories.newCategory');

  if (categoryId && existing.isError) {
    return (
      <RecordLoadFailed title={title} error={existing.error} notFoundText={t('categories.sub.notFound')} backTo="/categories" maw={640} />
    );
  }

  if (!values) {
    return <PageLoader />;
  }
  const f = values;
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setEdited((prev) => ({ ...(prev ?? f), [key]: value }));

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const common = { type: f.type ?? undefined, name: f.name, description: f.description, active: f.active };
    let save;
    if (categoryId) {
      const checked = validate(categoryUpdateSchema, common, t);
      if (form.refuse(checked.errors) || !checked.data) return;
      const data = checked.data;
      save = () => commands.update(categoryId, data);
    } else {
      const checked = validate(categoryCreateSchema, { module: f.module ?? undefined, ...common }, t);
      if (form.refuse(checked.errors) || !checked.data) return;
      const data = checked.data;
      save = () => commands.create(data);
    }
    await form.run(async () => {
      const saved = await save();
      notifySuccess(t(categoryId ? 'categories.notices.updated' : 'categories.notices.created', { name: saved.name }));
      await queryClient.invalidateQueries({ queryKey: CATEGORIES_KEY });
      void navigate('/categories');
    });
  }

  return (
    <Stack maw={640}>
      <PageHeader title={title} />
      <Paper withBorder p="md" radius="md" component="form" onSubmit={(e: FormEvent) => void onSubmit(e)} noValidate>
        <Stack gap="sm">
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <Select
            label={t('categories.fields.module')}
            data={types.moduleOptions}
            value={f.module}
            onChange={(v) => setEdited({ ...f, module: v as CategoryModule | null, type: null })}
            disabled={categoryId !== null || !types.data}
            rightSection={types.isLoading ? <Loader size="xs" /> : undefined}
            required
            error={form.errors['module'] ?? (types.isError ? t('kit.loadFailed') : undefined)}
          />
          <Select
            label={t('categories.fields.type')}
            data={types.typeOptions(f.module)}
            value={f.type}
            onChange={(v) => set('type', v)}
            disabled={!f.module}
            required
            error={form.errors['type']}
          />
          <TextInput
            label={t('categories.fields.name')}
            value={f.name}
            onChange={(e) => set('name', e.currentTarget.value)}
            required
            maxLength={120}
            error={form.errors['name']}
          />
          <Textarea
            label={t('categories.fields.description')}
            value={f.description}
            onChange={(e) => set('description', e.currentTarget.value)}
            autosize
            minRows={2}
            maxLength={500}
            error={form.errors['description']}
          />
          <Checkbox label={t('categories.fields.active')} checked={f.active} onChange={(e) => set('active', e.currentTarget.checked)} />
          <Group justify="flex-end" gap="sm">
            <Button component={Link} to="/categories" variant="default">
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.busy} disabled={!mayWrite}>
              {t(categoryId ? 'categories.actions.save' : 'categories.actions.create')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

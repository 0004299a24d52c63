import {
  actionCreateSchema,
  actionUpdateSchema,
  CONTROL_TYPES,
  type ActionDetail,
  type ActionUpdateInput,
  type ControlType,
} from '@bulwark/domain';
import { Alert, Button, Group, Select, SimpleGrid, Stack, TextInput, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { otherErrors, useLiveErrors } from './field-errors.js';
import { ACTIONS_KEY, actionSerial, useActionCategories, useActionCommands, useActionPeople, useActionSites } from './actions-api.js';

type Fields = {
  description: string;
  control_type: ControlType | null;
  responsible_id: string | null;
  due_date: string;
  category_id: string | null;
  site_id: string | null;
  remarks: string;
  image_description: string;
};

/**
 * Focus goes to the form's first field (marked data-autofocus) when the form appears: the drawer does
 * it when it opens, this also covers switching from summary to edit inside an open panel.
 */
function useFirstField() {
  const ref = useRef<HTMLFormElement>(null);
  useEffect(() => {
    ref.current?.querySelector<HTMLElement>('[data-autofocus]')?.focus();
  }, []);
  return ref;
}

/** The shared fields: what to do, how (control type), who, by when, where, and its category. */
function CoreFields(props: {
  f: Fields;
  set: <K extends keyof Fields>(key: K, value: Fields[K]) => void;
  errors: Record<string, string>;
  withSite: boolean;
  reassign: boolean;
  current?: ActionDetail;
}) {
  const { t } = useTranslation();
  const { f, set, errors } = props;
  const sites = useActionSites();
  const people = useActionPeople();
  const categories = useActionCategories();
  const siteData = (sites.data ?? []).map((s) => ({ value: s.id, label: s.name }));
  if (props.current && !siteData.some((s) => s.value === props.current?.site.id))
    siteData.unshift({ value: props.current.site.id, label: props.current.site.name });
  const peopleData = (people.data ?? []).map((u) => ({
    value: u.id,
    label: u.email && u.email !== u.full_name ? `${u.full_name} (${u.email})` : u.full_name,
  }));
  const responsible = props.current?.responsible;
  if (responsible && !peopleData.some((p) => p.value === responsible.id))
    peopleData.unshift({ value: responsible.id, label: responsible.full_name });
  const categoryData = (categories.data ?? []).map((c) => ({ value: c.id, label: c.name }));
  const category = props.current?.category;
  if (category && !categoryData.some((c) => c.value === category.id)) categoryData.unshift({ value: category.id, label: category.name });

  return (
    <>
      <Textarea
        label={t('actions.fields.description')}
        withAsterisk
        autosize
        minRows={3}
        maxLength={2000}
        value={f.description}
        onChange={(e) => set('description', e.currentTarget.value)}
        error={errors['description']}
        data-autofocus
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        {props.withSite ? (
          <Select
            label={t('actions.fields.site')}
            withAsterisk
            searchable
            placeholder={t('actionsWeb.panel.sitePlaceholder')}
            data={siteData}
            value={f.site_id}
            onChange={(v) => set('site_id', v)}
            error={errors['site_id']}
            nothingFoundMessage={t('kit.noResults')}
          />
        ) : null}
        <Select
          label={t('actions.fields.controlType')}
          withAsterisk
          placeholder={t('actionsWeb.panel.controlPlaceholder')}
          data={CONTROL_TYPES.map((c) => ({ value: c, label: t(`actions.controlType.${c}`) }))}
          value={f.control_type}
          onChange={(v) => set('control_type', v as ControlType | null)}
          error={errors['control_type']}
        />
        <Select
          label={t('actions.fields.responsible')}
          withAsterisk
          searchable
          placeholder={t('actionsWeb.panel.peoplePlaceholder')}
          data={peopleData}
          value={f.responsible_id}
          onChange={(v) => set('responsible_id', v)}
          error={errors['responsible_id']}
          description={props.reassign ? t('actionsWeb.panel.reassignHelp') : undefined}
          nothingFoundMessage={t('kit.noResults')}
        />
        <TextInput
          type="date"
          label={t('actions.fields.dueDate')}
          withAsterisk
          value={f.due_date}
          onChange={(e) => set('due_date', e.currentTarget.value)}
          error={errors['due_date']}
        />
        {categoryData.length > 0 ? (
          <Select
            label={t('actions.fields.category')}
            placeholder={t('actionsWeb.panel.noCategory')}
            data={categoryData}
            value={f.category_id}
            onChange={(v) => set('category_id', v)}
            error={errors['category_id']}
            clearable
            searchable
            nothingFoundMessage={t('kit.noResults')}
          />
        ) : null}
      </SimpleGrid>
    </>
  );
}

const CORE_FIELDS = ['description', 'control_type', 'responsible_id', 'due_date', 'category_id', 'site_id'];

const BLANK: Fields = {
  description: '',
  control_type: null,
  responsible_id: null,
  due_date: '',
  category_id: null,
  site_id: null,
  remarks: '',
  image_description: '',
};

/** /actions/new: an action raised on its own (source "other"), at a site. */
export function ActionAddForm({ onCreated, onCancel }: { onCreated: (id: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const commands = useActionCommands();
  const queryClient = useQueryClient();
  const form = useFormSubmit();
  const sites = useActionSites();
  const [f, setF] = useState<Fields>(BLANK);
  const formRef = useFirstField();
  const live = useLiveErrors(form.errors);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => {
    live.touch(key);
    setF((prev) => ({ ...prev, [key]: value }));
  };
  // One site only: nothing to choose.
  const onlySite = sites.data?.length === 1 ? sites.data[0]!.id : null;
  const values = { ...f, site_id: f.site_id ?? onlySite };

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = {
      description: values.description,
      control_type: values.control_type ?? '',
      responsible_id: values.responsible_id ?? '',
      due_date: values.due_date,
      category_id: values.category_id ?? '',
      site_id: values.site_id ?? '',
      image_description: values.image_description,
    };
    const checked = validate(actionCreateSchema, body, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const valid = checked.data;
    await form.run(async () => {
      const created = await commands.create(valid);
      await queryClient.invalidateQueries({ queryKey: ACTIONS_KEY });
      notifySuccess(t('actions.form.created', { serial: actionSerial(created.serial) }));
      onCreated(created.id);
    });
  }

  return (
    <form ref={formRef} onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="sm">
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        {otherErrors(form.errors, CORE_FIELDS).map((text) => (
          <Alert key={text} color="red" role="alert">
            {text}
          </Alert>
        ))}
        <CoreFields f={values} set={set} errors={live.errors} withSite reassign={false} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('actions.form.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('actions.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function fieldsOf(a: ActionDetail): Fields {
  return {
    description: a.description,
    control_type: a.control_type,
    responsible_id: a.responsible?.id ?? null,
    due_date: a.due_date,
    category_id: a.category?.id ?? null,
    site_id: a.site.id,
    remarks: a.remarks ?? '',
    image_description: a.image_description ?? '',
  };
}

/** What changed between the loaded action and the form; only that is sent, so a stale field never overwrites another's change. */
export function changedFields(before: Fields, after: Fields, allowed: ReadonlyArray<keyof Fields>): ActionUpdateInput {
  const out: Record<string, string | null> = {};
  for (const key of allowed) {
    const a = after[key] ?? '';
    const b = before[key] ?? '';
    if (a.trim() !== b.trim()) out[key] = after[key];
  }
  return out as ActionUpdateInput;
}

const EDIT_FIELDS = ['description', 'control_type', 'responsible_id', 'due_date', 'category_id'] as const;
const REPORT_FIELDS = ['remarks', 'image_description'] as const;

/**
 * The edit mode: people with Action update change every field and reassign; the responsible person
 * writes the remarks and image description of their own action.
 */
export function ActionEditForm({ action, onSaved, onCancel }: { action: ActionDetail; onSaved: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const commands = useActionCommands();
  const queryClient = useQueryClient();
  const form = useFormSubmit();
  const before = fieldsOf(action);
  const [f, setF] = useState<Fields>(before);
  const formRef = useFirstField();
  const live = useLiveErrors(form.errors);
  const set = <K extends keyof Fields>(key: K, value: Fields[K]) => {
    live.touch(key);
    setF((prev) => ({ ...prev, [key]: value }));
  };
  const allowed: Array<keyof Fields> = [
    ...(action.can.edit ? EDIT_FIELDS : []),
    ...(action.can.edit && action.source.type === 'other' ? (['site_id'] as const) : []),
    ...(action.can.report ? REPORT_FIELDS : []),
  ];

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const body = changedFields(before, f, allowed);
    if (Object.keys(body).length === 0) return onSaved();
    if (form.refuse(validate(actionUpdateSchema, body, t).errors)) return;
    await form.run(async () => {
      await commands.update(action.id, body);
      await queryClient.invalidateQueries({ queryKey: ACTIONS_KEY });
      notifySuccess(t('actions.form.saved'));
      onSaved();
    });
  }

  return (
    <form ref={formRef} onSubmit={(e) => void onSubmit(e)} noValidate>
      <Stack gap="sm">
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        {otherErrors(form.errors, allowed).map((text) => (
          <Alert key={text} color="red" role="alert">
            {text}
          </Alert>
        ))}
        {action.can.edit ? (
          <CoreFields f={f} set={set} errors={live.errors} withSite={action.source.type === 'other'} reassign current={action} />
        ) : null}
        {action.can.report ? (
          <>
            <Textarea
              label={t('actions.fields.remarks')}
              autosize
              minRows={2}
              maxLength={2000}
              value={f.remarks}
              onChange={(e) => set('remarks', e.currentTarget.value)}
              error={live.errors['remarks']}
              data-autofocus={action.can.edit ? undefined : true}
            />
            <Textarea
              label={t('actions.fields.imageDescription')}
              autosize
              minRows={2}
              maxLength={2000}
              value={f.image_description}
              onChange={(e) => set('image_description', e.currentTarget.value)}
              error={live.errors['image_description']}
            />
          </>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onCancel}>
            {t('actions.form.cancel')}
          </Button>
          <Button type="submit" loading={form.busy}>
            {t('actions.form.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

import {
  WORKFLOW_LEAD_TIME_MAX_HOURS,
  WORKFLOW_MAX_REVIEWERS,
  WORKFLOW_MODULES,
  workflowCreateSchema,
  type Workflow,
  type WorkflowModule,
  type WorkflowType,
} from '@bulwark/domain';
import {
  ActionIcon,
  Alert,
  Button,
  Group,
  Loader,
  Modal,
  MultiSelect,
  NumberInput,
  Paper,
  Radio,
  Select,
  Stack,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { addReviewer, moveReviewer, parseFormIds, removeReviewer } from './reviewer-order.js';
import { WORKFLOWS_KEY, useWorkflowCommands, useWorkflowOptions } from './workflows-api.js';

type FormState = {
  title: string;
  module: WorkflowModule | null;
  type: WorkflowType;
  reviewers: string[];
  lead_time_hours: number | string;
  escalation_user_id: string | null;
  site_ids: string[];
  forms: string;
};

function fromWorkflow(w: Workflow | null): FormState {
  if (!w)
    return {
      title: '',
      module: null,
      type: 'sequential',
      reviewers: [],
      lead_time_hours: 48,
      escalation_user_id: null,
      site_ids: [],
      forms: '',
    };
  return {
    title: w.title,
    module: w.module,
    type: w.type,
    reviewers: w.reviewers.map((r) => r.id),
    lead_time_hours: w.lead_time_hours,
    escalation_user_id: w.escalation_user?.id ?? null,
    site_ids: w.site_ids,
    forms: w.form_ids.join('\n'),
  };
}

/** The workflow dialog: title, module, review type, up to five ordered reviewers, lead time, escalation, sites and forms. */
export function WorkflowForm({ workflow, opened, onClose }: { workflow: Workflow | null; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useWorkflowCommands();
  const queryClient = useQueryClient();
  const phone = useMediaQuery('(max-width: 36em)');
  const form = useFormSubmit();
  const [f, setF] = useState<FormState>(() => fromWorkflow(workflow));
  const options = useWorkflowOptions(opened);
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setF((prev) => ({ ...prev, [key]: value }));

  // People already named keep their label even when no longer active (e.g. a deleted reviewer being replaced).
  const names = new Map<string, string>();
  for (const r of workflow?.reviewers ?? [])
    names.set(r.id, r.status === 'Active' ? r.full_name : t('workflows.reviewers.deletedUser', { name: r.full_name }));
  if (workflow?.escalation_user) names.set(workflow.escalation_user.id, workflow.escalation_user.full_name);
  for (const u of options.data?.users ?? [])
    names.set(u.id, u.full_name && u.full_name !== u.email ? `${u.full_name} (${u.email})` : u.email);
  const nameOf = (id: string) => names.get(id) ?? id;
  const people = options.data?.users ?? [];
  const full = f.reviewers.length >= WORKFLOW_MAX_REVIEWERS;

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const lead = typeof f.lead_time_hours === 'number' ? f.lead_time_hours : Number.NaN;
    const body = {
      title: f.title,
      module: f.module ?? undefined,
      type: f.type,
      reviewer_ids: f.reviewers,
      lead_time_hours: Number.isNaN(lead) ? undefined : lead,
      escalation_user_id: f.escalation_user_id,
      site_ids: f.site_ids,
      form_ids: parseFormIds(f.forms),
    };
    const checked = validate(workflowCreateSchema, body, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const data = checked.data;
    await form.run(async () => {
      if (workflow) await commands.update(workflow.id, data);
      else await commands.create(data);
      notifySuccess(t(workflow ? 'workflows.notices.updated' : 'workflows.notices.created', { title: data.title }));
      await queryClient.invalidateQueries({ queryKey: WORKFLOWS_KEY });
      onClose();
    });
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t(workflow ? 'workflows.editWorkflow' : 'workflows.newWorkflow')}
      size="lg"
      fullScreen={phone}
    >
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="sm">
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <TextInput
            label={t('workflows.fields.title')}
            value={f.title}
            onChange={(e) => set('title', e.currentTarget.value)}
            required
            maxLength={150}
            error={form.errors['title']}
            data-autofocus
          />
          <Select
            label={t('workflows.fields.module')}
            data={WORKFLOW_MODULES.map((m) => ({ value: m, label: t(`workflows.modules.${m}`) }))}
            value={f.module}
            onChange={(v) => set('module', v as WorkflowModule | null)}
            required
            error={form.errors['module']}
          />
          <Radio.Group
            label={t('workflows.fields.type')}
            value={f.type}
            onChange={(v) => set('type', v as WorkflowType)}
            error={form.errors['type']}
          >
            <Stack gap={6} mt={4}>
              <Radio value="sequential" label={t('workflows.types.sequential')} description={t('workflows.types.sequentialHelp')} />
              <Radio value="parallel" label={t('workflows.types.parallel')} description={t('workflows.types.parallelHelp')} />
            </Stack>
          </Radio.Group>

          <Paper withBorder p="sm" radius="md">
            <Group justify="space-between" mb="xs" wrap="wrap">
              <Text fw={500} id="reviewers-label">
                {t('workflows.fields.reviewers')}
              </Text>
              <Text size="sm" c={full ? 'orange' : 'dimmed'} aria-live="polite">
                {t('workflows.reviewers.limit', { count: f.reviewers.length, max: WORKFLOW_MAX_REVIEWERS })}
              </Text>
            </Group>
            {f.reviewers.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('workflows.reviewers.none')}
              </Text>
            ) : (
              <ol aria-labelledby="reviewers-label" style={{ margin: 0, paddingLeft: 20 }}>
                {f.reviewers.map((id, i) => (
                  <li key={id}>
                    <Group gap={4} justify="space-between" wrap="nowrap" py={2}>
                      <Text size="sm" style={{ overflowWrap: 'anywhere', minWidth: 0 }}>
                        {nameOf(id)}
                        {i === 0 && f.type === 'sequential' ? ` · ${t('workflows.reviewers.primary')}` : ''}
                      </Text>
                      <Group gap={2} wrap="nowrap">
                        <ActionIcon
                          variant="subtle"
                          disabled={i === 0}
                          onClick={() => set('reviewers', moveReviewer(f.reviewers, i, -1))}
                          aria-label={t('workflows.reviewers.moveUp', { name: nameOf(id) })}
                        >
                          <span aria-hidden>↑</span>
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          disabled={i === f.reviewers.length - 1}
                          onClick={() => set('reviewers', moveReviewer(f.reviewers, i, 1))}
                          aria-label={t('workflows.reviewers.moveDown', { name: nameOf(id) })}
                        >
                          <span aria-hidden>↓</span>
                        </ActionIcon>
                        <ActionIcon
                          variant="subtle"
                          color="red"
                          onClick={() => set('reviewers', removeReviewer(f.reviewers, id))}
                          aria-label={t('workflows.reviewers.remove', { name: nameOf(id) })}
                        >
                          <span aria-hidden>×</span>
                        </ActionIcon>
                      </Group>
                    </Group>
                  </li>
                ))}
              </ol>
            )}
            <Select
              mt="xs"
              label={t('workflows.reviewers.add')}
              placeholder={full ? t('workflows.reviewers.full', { max: WORKFLOW_MAX_REVIEWERS }) : t('workflows.reviewers.pick')}
              data={people.filter((u) => !f.reviewers.includes(u.id)).map((u) => ({ value: u.id, label: nameOf(u.id) }))}
              value={null}
              onChange={(v) => {
                if (v) set('reviewers', addReviewer(f.reviewers, v));
              }}
              disabled={full}
              searchable
              rightSection={options.isLoading ? <Loader size="xs" /> : undefined}
              error={form.errors['reviewer_ids']}
            />
          </Paper>

          <NumberInput
            label={t('workflows.fields.leadTime')}
            description={t('workflows.fields.leadTimeHelp')}
            value={f.lead_time_hours}
            onChange={(v) => set('lead_time_hours', v)}
            min={1}
            max={WORKFLOW_LEAD_TIME_MAX_HOURS}
            allowDecimal={false}
            required
            error={form.errors['lead_time_hours']}
          />
          <Select
            label={t('workflows.fields.escalationUser')}
            description={t('workflows.fields.escalationHelp')}
            data={people.filter((u) => !f.reviewers.includes(u.id)).map((u) => ({ value: u.id, label: nameOf(u.id) }))}
            value={f.escalation_user_id}
            onChange={(v) => set('escalation_user_id', v)}
            clearable
            searchable
            error={form.errors['escalation_user_id']}
          />
          <MultiSelect
            label={t('workflows.fields.sites')}
            data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
            value={f.site_ids}
            onChange={(v) => set('site_ids', v)}
            searchable
            nothingFoundMessage={t('workflows.noSites')}
            error={form.errors['site_ids']}
          />
          <Textarea
            label={t('workflows.fields.forms')}
            description={t('workflows.fields.formsHelp')}
            value={f.forms}
            onChange={(e) => set('forms', e.currentTarget.value)}
            autosize
            minRows={2}
            error={form.errors['form_ids']}
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t(workflow ? 'workflows.actions.save' : 'workflows.actions.create')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

import {
  AUDIT_PICTURES_PER_FINDING_MAX,
  auditKeyFindingInput,
  CONTROL_TYPES,
  type AuditFormData,
  type AuditKeyFindingInput,
} from '@bulwark/domain';
import { Alert, Button, Group, Modal, Select, SimpleGrid, Stack, Textarea, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useAuditCommands } from './audits-api.js';
import type { FileRef } from './run-model.js';
import { AuditFiles, type AuditUpload } from './uploads.js';

type Draft = {
  description: string;
  control_type: string | null;
  responsible_id: string | null;
  due_date: string;
  category_id: string | null;
  question_id: string | null;
};
const EMPTY: Draft = { description: '', control_type: null, responsible_id: null, due_date: '', category_id: null, question_id: null };

/** The errors of finding 0 of the call (`findings.0.<field>` → `<field>`), and the others as they are. */
function ownErrors(fields: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(fields).map(([k, v]) => [k.replace(/^findings\.0\./, ''), v]));
}

/**
 * A key finding (spec 001 §3: description, control, responsibility, due date, pictures), recorded
 * while the audit runs; it becomes an action of the audit and its responsible person is told.
 */
export function FindingDialog(props: {
  auditId: string;
  opened: boolean;
  onClose: () => void;
  formData: AuditFormData;
  questions: Array<{ id: string; label: string }>;
  /** The question it arose from, when opened from one. */
  questionId?: string | null;
  upload: AuditUpload;
}) {
  const { t } = useTranslation();
  const commands = useAuditCommands();
  const form = useFormSubmit();
  const [d, setD] = useState<Draft>({ ...EMPTY, question_id: props.questionId ?? null });
  const [pictures, setPictures] = useState<FileRef[]>([]);
  const set = (change: Partial<Draft>) => setD((x) => ({ ...x, ...change }));

  function close() {
    setD(EMPTY);
    setPictures([]);
    form.refuse(null);
    props.onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const finding = { ...d, picture_ids: pictures.map((p) => p.id) };
    if (form.refuse(validate(auditKeyFindingInput, finding, t).errors)) return;
    await form.run(
      async () => {
        await commands.keyFindings(props.auditId, { findings: [finding as AuditKeyFindingInput] });
        notifySuccess(t('auditsWeb.findings.recorded'));
        close();
      },
      (error) => {
        if (!isApiError(error) || Object.keys(error.fields).length === 0) return false;
        form.refuse(ownErrors(error.fields));
        return true;
      },
    );
  }

  const e = form.errors;
  return (
    <Modal opened={props.opened} onClose={close} title={t('auditsWeb.findings.add')} size="lg">
      <form onSubmit={(ev) => void submit(ev)} noValidate>
        <Stack gap="sm">
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <Textarea
            label={t('actions.fields.description')}
            withAsterisk
            autosize
            minRows={2}
            value={d.description}
            onChange={(ev) => set({ description: ev.currentTarget.value })}
            error={e['description']}
            data-autofocus
          />
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
            <Select
              label={t('actions.fields.controlType')}
              withAsterisk
              data={CONTROL_TYPES.map((c) => ({ value: c, label: t(`actions.controlType.${c}`) }))}
              value={d.control_type}
              onChange={(v) => set({ control_type: v })}
              error={e['control_type']}
              comboboxProps={{ withinPortal: true }}
            />
            <Select
              label={t('actions.fields.responsible')}
              withAsterisk
              searchable
              data={props.formData.users.map((u) => ({ value: u.id, label: u.full_name }))}
              value={d.responsible_id}
              onChange={(v) => set({ responsible_id: v })}
              error={e['responsible_id']}
              nothingFoundMessage={t('kit.noResults')}
              comboboxProps={{ withinPortal: true }}
            />
            <TextInput
              type="date"
              label={t('actions.fields.dueDate')}
              withAsterisk
              value={d.due_date}
              onChange={(ev) => set({ due_date: ev.currentTarget.value })}
              error={e['due_date']}
            />
            <Select
              label={t('actions.fields.category')}
              clearable
              data={props.formData.action_categories.map((c) => ({ value: c.id, label: c.name }))}
              value={d.category_id}
              onChange={(v) => set({ category_id: v })}
              error={e['category_id']}
              comboboxProps={{ withinPortal: true }}
            />
          </SimpleGrid>
          {props.questions.length > 0 ? (
            <Select
              label={t('auditsWeb.findings.question')}
              clearable
              searchable
              data={props.questions.map((q) => ({ value: q.id, label: q.label }))}
              value={d.question_id}
              onChange={(v) => set({ question_id: v })}
              error={e['question_id']}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
          <AuditFiles
            label={t('auditsWeb.findings.pictures')}
            files={pictures}
            onChange={setPictures}
            upload={props.upload}
            accept="photos"
            max={AUDIT_PICTURES_PER_FINDING_MAX}
          />
          {e['picture_ids'] ? (
            <Alert color="red" role="alert">
              {e['picture_ids']}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('auditsWeb.findings.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

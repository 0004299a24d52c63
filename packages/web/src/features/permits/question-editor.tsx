import { ATTACHMENT_KINDS, PERMIT_OPTIONS_MAX, QUESTION_TYPES, formatBytes, type AttachmentKind, type QuestionType } from '@bulwark/domain';
import {
  ActionIcon,
  Alert,
  Button,
  Checkbox,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
} from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoredImage } from '../../ui/index.js';
import type { ConditionSource, QuestionDraft } from './builder-model.js';

/** The types a template's own questions may take (the site and area pickers belong to the location section). */
const EDITABLE_TYPES = QUESTION_TYPES.filter((q) => !['site', 'division', 'department', 'unit'].includes(q));
const IMAGE_TYPES = ['image/jpeg', 'image/png', 'image/gif', 'image/webp'];

export type EditorResult = { draft: QuestionDraft; image: File | null };

/**
 * One question of a template: its type and label, required, and what its type needs (maximum length,
 * choices, file limits, the hidden value), when it is shown (a radio question's answer), and an
 * optional reference image shown to the requester.
 */
export function QuestionEditor(props: {
  draft: QuestionDraft | null;
  sources: ConditionSource[];
  /** Field errors of the last save for this question ('options', 'attachment'…), and a message. */
  errors: Record<string, string>;
  message: string | null;
  busy: boolean;
  onCancel: () => void;
  onSave: (result: EditorResult) => void;
}) {
  const { t } = useTranslation();
  return (
    <Modal
      opened={props.draft !== null}
      onClose={props.onCancel}
      title={props.draft?.id ? t('permitsWeb.builder.editQuestion') : t('permitsWeb.builder.newQuestion')}
      size="lg"
    >
      {props.draft ? <EditorBody key={props.draft.id ?? props.draft.key} {...props} draft={props.draft} /> : null}
    </Modal>
  );
}

function EditorBody(props: Parameters<typeof QuestionEditor>[0] & { draft: QuestionDraft }) {
  const { t } = useTranslation();
  const [d, setD] = useState<QuestionDraft>(props.draft);
  const [image, setImage] = useState<File | null>(null);
  const [imageError, setImageError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const set = (change: Partial<QuestionDraft>) => setD((x) => ({ ...x, ...change }));
  const e = props.errors;
  const source = props.sources.find((s) => s.id === d.condition?.question);
  const attachment = d.attachment ?? { kinds: ['image'] as AttachmentKind[], max_files: 5, max_file_kb: 10240 };

  function changeType(type: QuestionType) {
    set({
      type,
      options: type === 'radio_button' && d.options.length < 2 ? ['', ''] : d.options,
      attachment: type === 'attachment' ? attachment : d.attachment,
    });
  }

  return (
    <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), props.onSave({ draft: d, image }))}>
      {props.message ? (
        <Alert color="red" role="alert">
          {props.message}
        </Alert>
      ) : null}
      <Select
        label={t('permitsWeb.builder.type')}
        data={EDITABLE_TYPES.map((q) => ({ value: q, label: t(`permits.questionTypes.${q}`) }))}
        value={d.type}
        onChange={(v) => v && changeType(v as QuestionType)}
        disabled={d.fixed}
        allowDeselect={false}
        error={e['type']}
        comboboxProps={{ withinPortal: true }}
      />
      <TextInput
        label={t('permitsWeb.builder.label')}
        withAsterisk
        value={d.label}
        onChange={(ev) => set({ label: ev.currentTarget.value })}
        error={e['label']}
        data-autofocus
      />
      <Textarea
        label={t('permitsWeb.builder.helpText')}
        autosize
        minRows={1}
        value={d.help_text ?? ''}
        onChange={(ev) => set({ help_text: ev.currentTarget.value || null })}
        error={e['help_text']}
      />
      {d.type !== 'hidden_field' ? (
        <Switch
          label={t('permitsWeb.builder.required')}
          checked={d.required}
          onChange={(ev) => set({ required: ev.currentTarget.checked })}
        />
      ) : null}

      {d.type === 'text_field' || d.type === 'text_area' ? (
        <NumberInput
          label={t('permitsWeb.builder.maxLength')}
          description={t('permitsWeb.builder.maxLengthHelp', { max: d.type === 'text_area' ? 4000 : 255 })}
          min={1}
          max={d.type === 'text_area' ? 4000 : 255}
          allowDecimal={false}
          value={d.max_length ?? ''}
          onChange={(v) => set({ max_length: typeof v === 'number' ? v : null })}
          error={e['max_length']}
          maw={220}
        />
      ) : null}

      {d.type === 'radio_button' ? (
        <Stack gap={6} role="group" aria-label={t('permitsWeb.builder.options')}>
          <Text size="sm" fw={500}>
            {t('permitsWeb.builder.options')}
          </Text>
          {d.options.map((o, i) => (
            <Group key={i} gap="xs" wrap="nowrap">
              <TextInput
                aria-label={t('permitsWeb.builder.option', { n: i + 1 })}
                value={o}
                onChange={(ev) => {
                  const value = ev.currentTarget.value;
                  set({ options: d.options.map((x, j) => (j === i ? value : x)) });
                }}
                style={{ flex: 1 }}
              />
              <ActionIcon
                variant="subtle"
                color="red"
                size="lg"
                aria-label={t('permitsWeb.builder.removeOption', { n: i + 1 })}
                onClick={() => set({ options: d.options.filter((_, j) => j !== i) })}
              >
                ×
              </ActionIcon>
            </Group>
          ))}
          {e['options'] ? (
            <Text c="red" size="sm" role="alert">
              {e['options']}
            </Text>
          ) : null}
          <Button
            variant="subtle"
            size="compact-sm"
            w="fit-content"
            disabled={d.options.length >= PERMIT_OPTIONS_MAX}
            onClick={() => set({ options: [...d.options, ''] })}
          >
            {t('permitsWeb.builder.addOption')}
          </Button>
        </Stack>
      ) : null}

      {d.type === 'attachment' ? (
        <Stack gap="xs">
          <Checkbox.Group
            label={t('permitsWeb.builder.fileKinds')}
            value={[...attachment.kinds]}
            onChange={(v) => set({ attachment: { ...attachment, kinds: v as AttachmentKind[] } })}
            error={e['attachment'] ?? e['attachment.kinds']}
          >
            <Group gap="md" mt={4}>
              {ATTACHMENT_KINDS.map((k) => (
                <Checkbox key={k} value={k} label={t(`permits.attachmentKinds.${k}`)} />
              ))}
            </Group>
          </Checkbox.Group>
          <Group gap="sm" grow>
            <NumberInput
              label={t('permitsWeb.builder.maxFiles')}
              min={1}
              max={20}
              allowDecimal={false}
              value={attachment.max_files}
              onChange={(v) => set({ attachment: { ...attachment, max_files: typeof v === 'number' ? v : 1 } })}
            />
            <NumberInput
              label={t('permitsWeb.builder.maxFileKb')}
              description={formatBytes(attachment.max_file_kb * 1024)}
              min={1}
              max={10240}
              allowDecimal={false}
              value={attachment.max_file_kb}
              onChange={(v) => set({ attachment: { ...attachment, max_file_kb: typeof v === 'number' ? v : 1024 } })}
            />
          </Group>
        </Stack>
      ) : null}

      {d.type === 'hidden_field' ? (
        <TextInput
          label={t('permitsWeb.builder.hiddenValue')}
          description={t('permitsWeb.builder.hiddenHelp')}
          withAsterisk
          value={d.hidden_value ?? ''}
          onChange={(ev) => set({ hidden_value: ev.currentTarget.value || null })}
          error={e['hidden_value']}
        />
      ) : null}

      {d.type !== 'hidden_field' && !d.fixed ? (
        <Group gap="sm" grow align="flex-start">
          <Select
            label={t('permitsWeb.builder.showWhen')}
            placeholder={t('permitsWeb.builder.always')}
            clearable
            data={props.sources.map((s) => ({ value: s.id, label: `${s.label} (${s.section})` }))}
            value={d.condition?.question ?? null}
            onChange={(v) =>
              set({ condition: v ? { question: v, answer: props.sources.find((s) => s.id === v)?.options[0] ?? '' } : null })
            }
            error={e['condition'] ?? e['condition.question']}
            nothingFoundMessage={t('permitsWeb.builder.noRadio')}
            comboboxProps={{ withinPortal: true }}
          />
          {source ? (
            <Select
              label={t('permitsWeb.builder.isAnswered')}
              data={source.options}
              value={d.condition?.answer ?? null}
              allowDeselect={false}
              onChange={(v) => v && set({ condition: { question: source.id, answer: v } })}
              error={e['condition.answer']}
              comboboxProps={{ withinPortal: true }}
            />
          ) : null}
        </Group>
      ) : null}

      <Stack gap={4}>
        <Text size="sm" fw={500}>
          {t('permitsWeb.builder.referenceImage')}
        </Text>
        {d.reference_image && !image ? (
          <StoredImage
            url={`/api/files/${d.reference_image.id}`}
            alt={t('permitsWeb.form.referenceImage', { label: d.label })}
            maw={160}
            radius="sm"
          />
        ) : null}
        {image ? <Text size="sm">{image.name}</Text> : null}
        <Group gap="xs">
          <Button variant="light" size="compact-sm" onClick={() => fileInput.current?.click()}>
            {d.reference_image || image ? t('permitsWeb.builder.replaceImage') : t('permitsWeb.builder.addImage')}
          </Button>
          <input
            ref={fileInput}
            type="file"
            accept={IMAGE_TYPES.join(',')}
            hidden
            aria-label={t('permitsWeb.builder.referenceImage')}
            onChange={(ev) => {
              const f = ev.currentTarget.files?.[0] ?? null;
              ev.currentTarget.value = '';
              setImageError(f && !IMAGE_TYPES.includes(f.type) ? t('permitsWeb.builder.imageRule') : null);
              if (f && IMAGE_TYPES.includes(f.type)) setImage(f);
            }}
          />
        </Group>
        <Text size="xs" c={imageError ? 'red' : 'dimmed'} role={imageError ? 'alert' : undefined}>
          {imageError ?? t('permitsWeb.builder.imageRule')}
        </Text>
      </Stack>

      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={props.onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={props.busy}>
          {t('permitsWeb.builder.saveQuestion')}
        </Button>
      </Group>
    </Stack>
  );
}

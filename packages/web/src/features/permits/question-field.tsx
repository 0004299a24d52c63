import { MASTER_OF_QUESTION, isMasterQuestion, textCap, type MasterEntry, type MasterKind, type PermitQuestion } from '@bulwark/domain';
import { Anchor, Group, MultiSelect, Radio, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { StoredImage } from '../../ui/index.js';
import { AnswerFiles, type Upload } from './answer-files.js';
import type { FileItem, FormAnswer } from './request-model.js';

export type Masters = Record<MasterKind, readonly MasterEntry[]>;

export type QuestionFieldProps = {
  question: PermitQuestion;
  value: FormAnswer | undefined;
  onChange: (value: FormAnswer | ((old: FormAnswer | undefined) => FormAnswer)) => void;
  error?: string | undefined;
  masters: Masters | null;
  /** Uploads a file of an attachment question; null in the builder's preview (nothing is sent). */
  upload: Upload | null;
};

/** The reference image under a question's label: small, opened full size in a new tab. */
function ReferenceImage({ question }: { question: PermitQuestion }) {
  const { t } = useTranslation();
  const [big, setBig] = useState(false);
  const image = question.reference_image;
  if (!image) return null;
  const url = `/api/files/${image.id}`;
  return (
    <Stack gap={2}>
      <StoredImage
        url={url}
        alt={t('permitsWeb.form.referenceImage', { label: question.label })}
        maw={big ? '100%' : 160}
        radius="sm"
        fit="contain"
      />
      <Anchor component="button" type="button" size="xs" onClick={() => setBig((b) => !b)} w="fit-content">
        {big ? t('permitsWeb.form.smaller') : t('permitsWeb.form.larger')}
      </Anchor>
    </Stack>
  );
}

/**
 * One question of a permit form as the requester answers it (the bound location and time questions
 * are drawn by the form itself). Hidden fields draw nothing: their value is recorded by the server.
 */
export function QuestionField({ question: q, value, onChange, error, masters, upload }: QuestionFieldProps) {
  const { t } = useTranslation();
  const text = typeof value === 'string' ? value : '';
  const common = { label: q.label, description: q.help_text ?? undefined, withAsterisk: q.required, error };
  let field: React.ReactNode;
  switch (q.type) {
    case 'text_field':
      field = <TextInput {...common} value={text} maxLength={textCap(q)} onChange={(e) => onChange(e.currentTarget.value)} />;
      break;
    case 'text_area':
      field = (
        <Textarea {...common} value={text} maxLength={textCap(q)} autosize minRows={3} onChange={(e) => onChange(e.currentTarget.value)} />
      );
      break;
    case 'radio_button':
      field = (
        <Radio.Group {...common} value={text} onChange={(v) => onChange(v)}>
          <Group gap="md" mt={6}>
            {q.options.map((o) => (
              <Radio key={o} value={o} label={o} />
            ))}
          </Group>
        </Radio.Group>
      );
      break;
    case 'date_only':
      field = <TextInput {...common} type="date" value={text} onChange={(e) => onChange(e.currentTarget.value)} maw={220} />;
      break;
    case 'time':
      field = <TextInput {...common} type="time" value={text} onChange={(e) => onChange(e.currentTarget.value)} maw={160} />;
      break;
    case 'attachment':
      field = (
        <AnswerFiles
          label={q.label}
          description={q.help_text}
          required={q.required}
          rule={q.attachment ?? { kinds: ['image'], max_files: 1, max_file_kb: 10240 }}
          items={Array.isArray(value) && (value.length === 0 || typeof value[0] === 'object') ? (value as FileItem[]) : []}
          onChange={(update) => onChange((old) => update(Array.isArray(old) ? (old as FileItem[]) : []))}
          upload={upload}
          error={error}
        />
      );
      break;
    case 'hidden_field':
      return null;
    default:
      if (isMasterQuestion(q.type)) {
        const entries = masters?.[MASTER_OF_QUESTION[q.type]] ?? [];
        field = (
          <MultiSelect
            {...common}
            searchable
            placeholder={entries.length === 0 ? t('permitsWeb.form.noEntries') : t('permitsWeb.form.pick')}
            data={entries.map((e) => ({
              value: e.id,
              label: e.control_level ? `${e.name} (${t(`actions.controlType.${e.control_level}`)})` : e.name,
            }))}
            value={Array.isArray(value) ? (value as string[]) : []}
            onChange={(ids) => onChange(ids)}
            comboboxProps={{ withinPortal: true }}
          />
        );
      } else {
        field = <Text size="sm">{q.label}</Text>;
      }
  }
  return (
    <Stack gap={4} data-question={q.id}>
      {field}
      <ReferenceImage question={q} />
    </Stack>
  );
}

import {
  auditChoiceMaxScore,
  AUDIT_FILES_PER_ANSWER_MAX,
  AUDIT_OPTION_LABEL_MAX,
  AUDIT_TEXT_ANSWER_MAX,
  type AuditAnswerCell,
  type AuditQuestion,
} from '@bulwark/domain';
import { Button, Chip, Group, NumberInput, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { points, toggleChoice, type AnswerDraft, type FileRef } from './run-model.js';
import { SignaturePad } from './signature-pad.js';
import { AuditFiles, type AuditUpload } from './uploads.js';

export type Save = 'now' | 'pause' | 'later';

/**
 * The answer to one question, as its type asks (spec 001 §3 response types): yes/no/NA, options (one
 * or several, with "add an option" where allowed), text, number (with its range), date, photos from the
 * camera, a signature; once per row header when the question has them. The run screen and the
 * builder's live preview draw it alike.
 */
export function AnswerInput(props: {
  question: AuditQuestion;
  draft: AnswerDraft;
  onChange: (next: (d: AnswerDraft) => AnswerDraft, when: Save) => void;
  onAddOption: ((label: string, cell: number) => void) | null;
  upload: AuditUpload | null;
  disabled?: boolean;
}) {
  const { question: q, draft: d } = props;
  const rows = q.row_headers.length > 0 ? q.row_headers : [null];
  const setCell = (i: number, change: (c: AuditAnswerCell) => AuditAnswerCell, when: Save) =>
    props.onChange((x) => ({ ...x, cells: x.cells.map((c, j) => (j === i ? change(c) : c)) }), when);
  return (
    <Stack gap="xs">
      {rows.map((row, i) => (
        <Stack key={row ?? 'single'} gap={4}>
          {row ? (
            <Text size="sm" fw={500} id={`${q.id}-row-${i}`}>
              {row}
            </Text>
          ) : null}
          <Cell {...props} cell={d.cells[i]!} index={i} rowLabel={row} setCell={setCell} />
        </Stack>
      ))}
    </Stack>
  );
}

function Cell(
  props: Parameters<typeof AnswerInput>[0] & {
    cell: AuditAnswerCell;
    index: number;
    rowLabel: string | null;
    setCell: (i: number, change: (c: AuditAnswerCell) => AuditAnswerCell, when: Save) => void;
  },
) {
  const { t } = useTranslation();
  const { question: q, cell: c, index: i, setCell, disabled } = props;
  const name = props.rowLabel ? `${q.label} — ${props.rowLabel}` : q.label;
  switch (q.type) {
    case 'yes_no':
    case 'choice': {
      const options =
        q.type === 'yes_no'
          ? [
              { key: 'yes', label: t('audits.answers.yes') },
              { key: 'no', label: t('audits.answers.no') },
            ]
          : q.options;
      const chosen = c.na ? ['na'] : c.choice;
      const all = [...options, ...(q.allow_na || q.type === 'yes_no' ? [{ key: 'na', label: t('auditsWeb.run.na') }] : [])];
      return (
        <Stack gap={6}>
          <Group gap={8} wrap="wrap" role={q.multiple ? 'group' : 'radiogroup'} aria-label={name}>
            {all.map((o) => (
              <Chip
                key={o.key}
                type={q.multiple ? 'checkbox' : 'radio'}
                size="md"
                checked={chosen.includes(o.key)}
                disabled={disabled}
                color={o.key === 'no' && q.expected === 'yes' ? 'red' : o.key === 'na' ? 'gray' : undefined}
                onChange={() => setCell(i, (x) => toggleChoice(x, o.key, q.multiple), 'now')}
              >
                {o.label}
              </Chip>
            ))}
          </Group>
          {q.type === 'choice' && q.add_options && props.onAddOption && !disabled ? (
            <AddOption onAdd={(label) => props.onAddOption!(label, i)} />
          ) : null}
        </Stack>
      );
    }
    case 'text':
      return (
        <Textarea
          aria-label={name}
          autosize
          minRows={2}
          maxLength={AUDIT_TEXT_ANSWER_MAX}
          disabled={disabled}
          value={c.text ?? ''}
          onChange={(e) => {
            const text = e.currentTarget.value;
            setCell(i, (x) => ({ ...x, na: false, text: text === '' ? null : text }), 'pause');
          }}
          onBlur={() => setCell(i, (x) => x, 'now')}
        />
      );
    case 'number':
      return (
        <NumberInput
          aria-label={name}
          description={q.min !== null || q.max !== null ? t('auditsWeb.run.range', { min: q.min ?? '…', max: q.max ?? '…' }) : undefined}
          disabled={disabled}
          value={c.number ?? ''}
          decimalScale={6}
          inputMode="decimal"
          maw={220}
          onChange={(v) =>
            setCell(i, (x) => ({ ...x, na: false, number: typeof v === 'number' ? v : v === '' ? null : Number(v) }), 'pause')
          }
          onBlur={() => setCell(i, (x) => x, 'now')}
        />
      );
    case 'date':
      return (
        <TextInput
          type="date"
          aria-label={name}
          disabled={disabled}
          value={c.date ?? ''}
          maw={220}
          onChange={(e) => {
            const date = e.currentTarget.value;
            setCell(i, (x) => ({ ...x, na: false, date: date || null }), 'now');
          }}
        />
      );
    case 'photo': {
      const files = props.draft.cellFiles.filter((f) => c.file_ids.includes(f.id));
      return (
        <AuditFiles
          label={name}
          files={files}
          upload={props.upload ? (kind, file, progress) => props.upload!(kind, file, progress) : null}
          accept="photos"
          max={AUDIT_FILES_PER_ANSWER_MAX}
          disabled={disabled}
          onChange={(next: FileRef[]) =>
            props.onChange(
              (x) => ({
                ...x,
                cellFiles: [...x.cellFiles.filter((f) => !next.some((n) => n.id === f.id)), ...next],
                cells: x.cells.map((cc, j) => (j === i ? { ...cc, na: false, file_ids: next.map((f) => f.id) } : cc)),
              }),
              'now',
            )
          }
        />
      );
    }
    case 'signature': {
      const file = props.draft.cellFiles.find((f) => c.file_ids.includes(f.id)) ?? null;
      return (
        <SignaturePad
          label={name}
          file={file}
          disabled={disabled || !props.upload}
          upload={props.upload}
          onChange={(stored) =>
            props.onChange(
              (x) => ({
                ...x,
                cellFiles: stored ? [...x.cellFiles, stored] : x.cellFiles,
                cells: x.cells.map((cc, j) => (j === i ? { ...cc, na: false, file_ids: stored ? [stored.id] : [] } : cc)),
              }),
              'now',
            )
          }
        />
      );
    }
  }
}

function AddOption({ onAdd }: { onAdd: (label: string) => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const add = () => {
    if (text.trim() === '') return;
    onAdd(text.trim());
    setText('');
  };
  return (
    <Group gap="xs" wrap="nowrap" maw={420}>
      <TextInput
        aria-label={t('auditsWeb.run.newOption')}
        placeholder={t('auditsWeb.run.newOption')}
        value={text}
        maxLength={AUDIT_OPTION_LABEL_MAX}
        onChange={(e) => setText(e.currentTarget.value)}
        onKeyDown={(e) => {
          if (e.key === 'Enter') {
            e.preventDefault();
            add();
          }
        }}
        style={{ flex: 1 }}
      />
      <Button variant="light" onClick={add} disabled={text.trim() === ''}>
        {t('auditsWeb.run.addOption')}
      </Button>
    </Group>
  );
}

/** "5 points": what the question is worth (for an options question, the most its options give). */
export function pointsLabel(q: AuditQuestion, t: (key: string, o?: Record<string, unknown>) => string): string | null {
  const max = q.type === 'choice' ? auditChoiceMaxScore(q) : q.score;
  return max > 0 ? t('auditsWeb.run.points', { count: max, n: points(max) }) : null;
}

import { AUDIT_FILES_PER_ANSWER_MAX, AUDIT_REMARK_MAX, type AuditQuestion, type AuditQuestionResult } from '@bulwark/domain';
import { Anchor, Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AnswerInput, pointsLabel, type Save } from './answer-input.js';
import { blankDraft, isBlankCell, points, type AnswerDraft } from './run-model.js';
import type { SaveStatus } from './save-queue.js';
import { AuditFiles, type AuditUpload } from './uploads.js';

/**
 * One question of the running audit (or of the builder's preview): its label, marks and explanation,
 * the answer, a remark and attachments where the question takes them, what the answer earned, and
 * whether it is saved.
 */
export function QuestionCard(props: {
  question: AuditQuestion;
  number: string;
  draft: AnswerDraft | undefined;
  result: AuditQuestionResult | undefined;
  status: SaveStatus | undefined;
  scoring: boolean;
  onChange: (next: (d: AnswerDraft) => AnswerDraft, when: Save) => void;
  onAddOption: ((label: string, cell: number) => void) | null;
  upload: AuditUpload | null;
  onRetry?: () => void;
  onFinding?: () => void;
  disabled?: boolean;
  /** A child question, shown because of its parent's answer. */
  child?: boolean;
}) {
  const { t } = useTranslation();
  const q = props.question;
  const d = props.draft ?? blankDraft(q);
  const r = props.result;
  const [remarkOpen, setRemarkOpen] = useState(Boolean(d.remark));
  const worth = props.scoring ? pointsLabel(q, (key, o) => t(key, o ?? {})) : null;
  const answered = !d.cells.every(isBlankCell);
  const titleId = `question-${q.id}`;

  return (
    <Paper
      withBorder
      radius="md"
      p={{ base: 'sm', sm: 'md' }}
      component="section"
      aria-labelledby={titleId}
      data-question={q.label}
      style={{
        borderLeft: props.child ? '4px solid var(--mantine-color-blue-3)' : undefined,
        borderColor: r?.failed ? 'var(--mantine-color-red-4)' : undefined,
      }}
    >
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="nowrap">
          <Text fw={600} id={titleId} style={{ overflowWrap: 'anywhere', flex: 1 }}>
            <Text span c="dimmed" fw={500}>
              {props.number}{' '}
            </Text>
            {q.label}
            {q.required ? (
              <Text span c="red" aria-label={t('auditsWeb.run.required')}>
                {' '}
                *
              </Text>
            ) : null}
          </Text>
          <Group gap={4} wrap="wrap" justify="flex-end" style={{ flexShrink: 0, maxWidth: '45%' }}>
            {q.critical ? (
              <Badge color="red" variant="outline" size="sm">
                {t('audits.answers.critical')}
              </Badge>
            ) : null}
            {worth ? (
              <Badge color="gray" variant="light" size="sm">
                {worth}
              </Badge>
            ) : null}
          </Group>
        </Group>
        {q.description ? (
          <Text size="sm" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
            {q.description}
          </Text>
        ) : null}
        <AnswerInput
          question={q}
          draft={d}
          onChange={props.onChange}
          onAddOption={props.onAddOption}
          upload={props.upload}
          disabled={props.disabled}
        />
        {q.attachments ? (
          <AuditFiles
            label={t('auditsWeb.run.attachmentsOf', { label: q.label })}
            files={d.attachments}
            upload={props.upload}
            accept="any"
            max={AUDIT_FILES_PER_ANSWER_MAX}
            disabled={props.disabled}
            onChange={(files) => props.onChange((x) => ({ ...x, attachments: files }), 'now')}
          />
        ) : null}
        {remarkOpen || d.remark ? (
          <Textarea
            label={t('audits.fields.remark')}
            autosize
            minRows={1}
            maxLength={AUDIT_REMARK_MAX}
            disabled={props.disabled}
            value={d.remark ?? ''}
            onChange={(e) => {
              const remark = e.currentTarget.value;
              props.onChange((x) => ({ ...x, remark: remark || null }), answered ? 'pause' : 'later');
            }}
            onBlur={() => (answered ? props.onChange((x) => x, 'now') : undefined)}
            description={answered ? undefined : t('auditsWeb.run.remarkWithAnswer')}
          />
        ) : null}
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Group gap={6} wrap="wrap">
            {!remarkOpen && !d.remark && !props.disabled ? (
              <Button variant="subtle" size="compact-sm" onClick={() => setRemarkOpen(true)}>
                {t('auditsWeb.run.addRemark')}
              </Button>
            ) : null}
            {answered && !props.disabled ? (
              <Button variant="subtle" color="gray" size="compact-sm" onClick={() => props.onChange(() => blankDraft(q), 'now')}>
                {t('auditsWeb.run.clear')}
              </Button>
            ) : null}
            {r?.failed && props.onFinding ? (
              <Button variant="light" color="orange" size="compact-sm" onClick={props.onFinding}>
                {t('auditsWeb.run.raiseFinding')}
              </Button>
            ) : null}
          </Group>
          <Group gap={6} wrap="wrap">
            {r?.failed ? (
              <Badge color="red" variant="filled" size="sm">
                {r.critical_failed ? t('auditsWeb.run.criticalFailed') : t('audits.answers.failed')}
              </Badge>
            ) : null}
            {props.scoring && r?.obtained !== null && r?.obtained !== undefined && r.assigned !== null ? (
              <Text size="xs" c="dimmed">
                {t('auditsWeb.run.earned', { obtained: points(r.obtained), assigned: points(r.assigned) })}
              </Text>
            ) : null}
            <SaveLine status={props.status} onRetry={props.onRetry} />
          </Group>
        </Group>
      </Stack>
    </Paper>
  );
}

/** Whether this answer is on the server: saved, on its way, kept on the phone while offline, or refused. */
export function SaveLine({ status, onRetry }: { status: SaveStatus | undefined; onRetry?: (() => void) | undefined }) {
  const { t } = useTranslation();
  if (!status) return null;
  const text: Record<SaveStatus['state'], string> = {
    waiting: t('auditsWeb.save.waiting'),
    saving: t('auditsWeb.save.saving'),
    saved: t('auditsWeb.save.saved'),
    offline: t('auditsWeb.save.offline'),
    retrying: t('auditsWeb.save.retrying'),
    refused: status.message ?? t('errors.somethingWentWrong'),
  };
  const color =
    status.state === 'saved'
      ? 'teal.8'
      : status.state === 'refused'
        ? 'red'
        : status.state === 'offline' || status.state === 'retrying'
          ? 'orange.8'
          : 'dimmed';
  return (
    <Group gap={4} wrap="nowrap" role="status">
      <Text size="xs" c={color} fw={status.state === 'saved' ? 600 : 400}>
        {status.state === 'saved' ? '✓ ' : ''}
        {text[status.state]}
      </Text>
      {(status.state === 'retrying' || status.state === 'offline') && onRetry ? (
        <Anchor component="button" type="button" size="xs" onClick={onRetry}>
          {t('common.retry')}
        </Anchor>
      ) : null}
    </Group>
  );
}

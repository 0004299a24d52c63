import type { ReviewDecision, ReviewOutcome, ReviewState, Reviewer, ReviewerState } from '@bulwark/domain';
import { Alert, Badge, Button, Group, Loader, Paper, Stack, Text, Timeline, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ReviewDecisionDialog } from './review-decision-dialog.js';
import { reviewDateTime, reviewEventText } from './review-format.js';

const OUTCOME_COLOR: Record<ReviewOutcome, string> = { pending: 'yellow', approved: 'teal', rejected: 'red' };
const STATE_COLOR: Record<ReviewerState, string> = { waiting: 'gray', current: 'blue', approved: 'teal', rejected: 'red', skipped: 'gray' };

export type ReviewPanelProps = {
  /** The record's review as its module's response carries it (`reviewStateSchema`); null before any submission. */
  review: ReviewState | null | undefined;
  loading?: boolean;
  /** The record could not be loaded (the panel says so instead of "not submitted"). */
  failed?: boolean;
  /** Sends the decision through the module's own contract; its refusal is shown in the dialog. */
  onDecide: (decision: ReviewDecision) => Promise<unknown>;
};

/**
 * The review of a record, for every module's screen: where the round stands, its reviewers in order
 * and the timeline of every round. Approve and reject are offered only to whom the server says may
 * decide (`may_decide`), each behind a confirmation; a rejection needs its reason.
 */
export function ReviewPanel({ review, loading, failed, onDecide }: ReviewPanelProps) {
  const { t } = useTranslation();
  const [deciding, setDeciding] = useState<boolean | null>(null);

  return (
    <Paper withBorder p="md" radius="md" component="section" aria-labelledby="review-panel-title">
      <Stack gap="sm">
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Title order={3} size="h4" id="review-panel-title">
            {t('reviews.title')}
          </Title>
          {review ? (
            <Group gap={6} wrap="wrap">
              <Text size="sm" c="dimmed">
                {t('reviews.round', { round: review.round })}
              </Text>
              <Badge color={OUTCOME_COLOR[review.outcome]} variant="light">
                {t(`reviews.outcome.${review.outcome}`)}
              </Badge>
            </Group>
          ) : null}
        </Group>
        {loading ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : failed ? (
          <Alert color="red" role="alert">
            {t('reviews.loadFailed')}
          </Alert>
        ) : !review ? (
          <Text size="sm" c="dimmed">
            {t('reviews.notSubmitted')}
          </Text>
        ) : (
          <ReviewBody review={review} onApprove={() => setDeciding(true)} onReject={() => setDeciding(false)} />
        )}
      </Stack>
      <ReviewDecisionDialog approve={deciding} onClose={() => setDeciding(null)} onDecide={onDecide} />
    </Paper>
  );
}

function ReviewBody({ review, onApprove, onReject }: { review: ReviewState; onApprove: () => void; onReject: () => void }) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => reviewDateTime(iso, i18n.language);
  return (
    <>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {review.mode === 'workflow' && review.workflow
          ? t('reviews.byWorkflow', { title: review.workflow.title, type: t(`workflows.types.${review.workflow.type}`) })
          : t('reviews.byRight')}
        {review.lead_time_hours ? ` · ${t('reviews.leadTime', { count: review.lead_time_hours })}` : ''}
      </Text>
      {review.outcome === 'rejected' ? (
        <Text size="sm" c="dimmed">
          {t('reviews.rejectedHelp')}
        </Text>
      ) : null}

      {review.reviewers.length > 0 ? (
        <Stack gap={4}>
          <Text fw={500} size="sm" id="review-panel-reviewers">
            {t('reviews.reviewers')}
          </Text>
          <ol aria-labelledby="review-panel-reviewers" style={{ margin: 0, paddingLeft: 20 }}>
            {review.reviewers.map((r) => (
              <ReviewerLine key={r.position} reviewer={r} when={when} />
            ))}
          </ol>
        </Stack>
      ) : null}

      {review.may_decide && review.outcome === 'pending' ? (
        <Group gap="sm" wrap="wrap">
          <Button onClick={onApprove}>{t('reviews.actions.approve')}</Button>
          <Button color="red" variant="light" onClick={onReject}>
            {t('reviews.actions.reject')}
          </Button>
        </Group>
      ) : null}

      <Stack gap={4}>
        <Text fw={500} size="sm">
          {t('reviews.timeline')}
        </Text>
        <Timeline bulletSize={12} lineWidth={2} active={review.timeline.length - 1}>
          {review.timeline.map((e, i) => (
            <Timeline.Item key={`${e.at}-${i}`} title={<Text size="sm">{reviewEventText(t, e)}</Text>}>
              <Text size="xs" c="dimmed">
                {when(e.at)}
              </Text>
              {e.comment ? (
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {e.comment}
                </Text>
              ) : null}
            </Timeline.Item>
          ))}
        </Timeline>
      </Stack>
    </>
  );
}

function ReviewerLine({ reviewer: r, when }: { reviewer: Reviewer; when: (iso: string) => string }) {
  const { t } = useTranslation();
  const notes = [
    r.state === 'current' && r.due_at ? t('reviews.due', { date: when(r.due_at) }) : null,
    r.escalated_to && r.state === 'current' ? t('reviews.escalatedTo', { name: r.escalated_to.full_name }) : null,
    r.decided_by && r.decided_by.id !== r.user.id ? t('reviews.decidedBy', { name: r.decided_by.full_name }) : null,
  ].filter((x): x is string => x !== null);
  return (
    <li>
      <Group gap={6} wrap="wrap" py={2}>
        <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
          {r.user.full_name}
        </Text>
        <Badge size="sm" variant="light" color={STATE_COLOR[r.state]}>
          {t(`reviews.states.${r.state}`)}
        </Badge>
      </Group>
      {notes.length > 0 ? (
        <Text size="xs" c="dimmed">
          {notes.join(' · ')}
        </Text>
      ) : null}
      {r.comment ? (
        <Text size="xs" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
          {r.comment}
        </Text>
      ) : null}
    </li>
  );
}

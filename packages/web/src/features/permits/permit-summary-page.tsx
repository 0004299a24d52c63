import { Alert, Grid, Group, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { ReviewPanel } from '../workflows/review-panel.js';
import { ClashList } from './clash-list.js';
import { usePermit } from './permits-api.js';
import { PermitStatusBadge } from './status-badge.js';
import { SummaryActions } from './summary-actions.js';
import { PermitAnswers, PermitFacts, PermitTimeline } from './summary-details.js';

/**
 * /permit/:id/summary: the whole permit (requester, workers, location, time of work, issuing officers,
 * status, the answers, the review and the timeline) and exactly the moves the viewer may make.
 */
export function PermitSummaryPage() {
  const { t } = useTranslation();
  const f = useFormats();
  const { id } = useParams();
  const permit = usePermit(id);
  if (permit.isError)
    return (
      <RecordLoadFailed title={t('screen.permitSummary')} error={permit.error} notFoundText={t('permitsWeb.notFound')} backTo="/permits" />
    );
  if (!permit.data) return <PageLoader />;
  const p = permit.data;
  // The decision buttons are the toolbar's (they say whether the permit or its extension is decided):
  // the review panel shows the round and its timeline only.
  const review = p.review ? { ...p.review, may_decide: false } : null;

  return (
    <Stack gap="md">
      <Stack gap="xs">
        <Group gap="sm" wrap="wrap" align="center">
          <Title order={1} size="h2">
            {t('permitsWeb.summary.title', { number: p.number })}
          </Title>
          <PermitStatusBadge status={p.status} size="lg" />
        </Group>
        <Text c="dimmed" size="sm">
          {p.template.name}
          {p.site ? ` · ${[p.site.name, p.area?.full_name].filter(Boolean).join(' / ')}` : ''}
        </Text>
        <SummaryActions permit={p} />
      </Stack>

      {p.status === 'overdue' ? (
        <Alert color="red" role="alert">
          {t('permitsWeb.summary.overdue')}
        </Alert>
      ) : p.status === 'pending_closure' ? (
        <Alert color="yellow">{t('permitsWeb.summary.pendingClosure')}</Alert>
      ) : null}
      {p.extension_pending ? <Alert color="orange">{t('permitsWeb.summary.extensionPending')}</Alert> : null}
      {p.revocation ? (
        <Alert color="grape" title={t('permits.statuses.revoked')}>
          {t('permits.report.revokedBy', {
            name: p.revocation.by?.full_name ?? '—',
            date: f.instant(p.revocation.at),
            comment: p.revocation.comment,
          })}
        </Alert>
      ) : null}
      {p.closure ? (
        <Alert color="gray" title={t('permits.statuses.closed')}>
          {t('permitsWeb.summary.closedBy', { name: p.closure.by?.full_name ?? '—', date: f.instant(p.closure.at) })}
          {p.closure.comment ? ` ${p.closure.comment}` : ''}
        </Alert>
      ) : null}
      {['draft', 'requested'].includes(p.status) ? <ClashList clashes={p.clashes} /> : null}

      <Grid gap="md">
        <Grid.Col span={{ base: 12, lg: 8 }}>
          <Stack gap="md">
            <PermitFacts permit={p} />
            <PermitAnswers sections={p.sections} answers={p.answers} closure={false} />
            {p.closure ? <PermitAnswers sections={p.sections} answers={p.closure.answers} closure /> : null}
          </Stack>
        </Grid.Col>
        <Grid.Col span={{ base: 12, lg: 4 }}>
          <Stack gap="md">
            <ReviewPanel review={review} onDecide={() => Promise.resolve()} />
            <PermitTimeline permit={p} />
          </Stack>
        </Grid.Col>
      </Grid>
    </Stack>
  );
}

import { auditFormQuestions, type Audit } from '@bulwark/domain';
import { Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useFormats } from '../../ui/format.js';
import { PageLoader, RecordLoadFailed, useConfirm } from '../../ui/index.js';
import { ReviewPanel } from '../workflows/review-panel.js';
import { useAudit, useAuditCommands, useAuditFormData, useAuditTotals } from './audits-api.js';
import { AuditIcon, AuditStatusBadge, ScoreText } from './badges.js';
import { EditDialog } from './edit-dialog.js';
import { FindingDialog } from './finding-form.js';
import { ActionItemsTable, FindingsList } from './findings.js';
import { RecordNav } from './record-nav.js';
import { auditPlace } from './place.js';

export type RecordSubpage = 'summary' | 'keyfindings' | 'actionitems';

/**
 * /audits/{id}/summary, /keyfindings and /actionitems (spec 001 §2): the audit's details and totals
 * with what the requester may do now (start, continue, resume, edit, delete, decide), its key findings
 * and its action items with their status.
 */
export function AuditRecordPage({ id, page }: { id: string; page: RecordSubpage }) {
  const { t } = useTranslation();
  const audit = useAudit(id);
  if (audit.isError)
    return (
      <RecordLoadFailed
        title={t('screen.audits')}
        error={audit.error}
        notFoundText={t('auditsWeb.common.notFound')}
        backTo="/audits/scheduled"
      />
    );
  if (!audit.data) return <PageLoader />;
  return <Record audit={audit.data} page={page} />;
}

function Record({ audit: a, page }: { audit: Audit; page: RecordSubpage }) {
  const { t } = useTranslation();
  const f = useFormats();
  const navigate = useNavigate();
  const commands = useAuditCommands();
  const formData = useAuditFormData();
  const [confirm, confirmDialog] = useConfirm();
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const [finding, setFinding] = useState(false);
  const questions = auditFormQuestions(a.form);
  const label = (qid: string) => questions.find((q) => q.id === qid)?.label ?? null;

  async function act(run: () => Promise<unknown>, done: string, then?: string) {
    setBusy(true);
    try {
      await run();
      notifySuccess(done);
      if (then) navigate(then);
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    } finally {
      setBusy(false);
    }
  }
  const runPath = `/audits/${a.id}/audit/1`;
  const upload = (kind: 'photo' | 'document', file: File, onProgress: (n: number) => void) => commands.upload(a.id, kind, file, onProgress);

  const actions = (
    <Group gap="xs" wrap="wrap" role="toolbar" aria-label={t('auditsWeb.record.actions')}>
      {a.permissions.start ? (
        <Button loading={busy} onClick={() => void act(() => commands.start(a.id), t('auditsWeb.record.started'), runPath)}>
          {t('auditsWeb.record.start')}
        </Button>
      ) : null}
      {a.permissions.answer ? (
        <Button component={Link} to={runPath}>
          {t('auditsWeb.record.continue')}
        </Button>
      ) : null}
      {a.permissions.resume ? (
        <Button
          loading={busy}
          onClick={async () => {
            if (await confirm({ message: t('auditsWeb.record.resumeConfirm'), confirmLabel: t('auditsWeb.record.resume') }))
              await act(() => commands.resume(a.id), t('auditsWeb.record.resumed'), runPath);
          }}
        >
          {t('auditsWeb.record.resume')}
        </Button>
      ) : null}
      {page === 'keyfindings' && a.permissions.answer && formData.data ? (
        <Button variant="light" onClick={() => setFinding(true)}>
          {t('auditsWeb.findings.add')}
        </Button>
      ) : null}
      {a.permissions.edit ? (
        <Button variant="default" onClick={() => setEditing(true)}>
          {t('auditsWeb.record.edit')}
        </Button>
      ) : null}
      {a.permissions.delete ? (
        <Button
          variant="subtle"
          color="red"
          loading={busy}
          onClick={async () => {
            if (
              await confirm({
                message: t('auditsWeb.record.deleteConfirm', { serial: a.serial_label }),
                danger: true,
                confirmLabel: t('kit.delete'),
              })
            )
              await act(() => commands.remove(a.id), t('kit.deleted'), '/audits/scheduled');
          }}
        >
          {t('kit.delete')}
        </Button>
      ) : null}
    </Group>
  );

  return (
    <Stack gap="sm">
      <Group gap="sm" wrap="nowrap" align="flex-start">
        <AuditIcon icon={a.template.icon} size="xl" />
        <Stack gap={2} style={{ minWidth: 0, flex: 1 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {a.serial_label} · {a.template.name}
          </Title>
          <Group gap="xs" wrap="wrap">
            <AuditStatusBadge status={a.status} late={a.late} />
            <Text size="sm" c="dimmed">
              {auditPlace(a)} · {f.day(a.due_date)}
              {a.window_end !== a.due_date ? ` – ${f.day(a.window_end)}` : ''}
            </Text>
          </Group>
        </Stack>
      </Group>
      <RecordNav audit={a} current={page} />
      {actions}
      {page === 'summary' ? (
        <Summary audit={a} onDecide={(d) => commands.decide(a.id, { approve: d.approve, comment: d.comment ?? '' })} />
      ) : null}
      {page === 'keyfindings' ? (
        <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-label={t('audits.report.keyFindings')}>
          <FindingsList findings={a.key_findings} questionLabel={label} />
        </Paper>
      ) : null}
      {page === 'actionitems' ? (
        <Paper withBorder radius="md" p={{ base: 'xs', sm: 'md' }} component="section" aria-label={t('audits.report.actionItems')}>
          <ActionItemsTable actions={a.actions} />
        </Paper>
      ) : null}
      {editing && formData.data ? <EditDialog audit={a} formData={formData.data} onClose={() => setEditing(false)} /> : null}
      {formData.data ? (
        <FindingDialog
          auditId={a.id}
          opened={finding}
          onClose={() => setFinding(false)}
          formData={formData.data}
          questions={questions}
          upload={upload}
        />
      ) : null}
      {confirmDialog}
    </Stack>
  );
}

function Summary({
  audit: a,
  onDecide,
}: {
  audit: Audit;
  onDecide: (d: { approve: boolean; comment: string | null }) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const f = useFormats();
  const totals = useAuditTotals(a.id);
  const line = (label: string, value: string | null | undefined) => (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
        {value || '—'}
      </Text>
    </div>
  );
  const q = totals.data?.questions;
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }} spacing="sm">
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="audit-details">
        <Title order={2} size="h4" id="audit-details" mb="xs">
          {t('auditsWeb.record.details')}
        </Title>
        <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
          {line(t('audits.fields.type'), t(`audits.types.${a.template.type}`))}
          {line(t('audits.fields.frequency'), t(`audits.frequencies.${a.frequency}`))}
          {line(t('audits.fields.auditor'), a.auditor.full_name)}
          {line(t('audits.fields.auditee'), a.auditee?.full_name)}
          {line(t('audits.fields.dueDate'), f.day(a.due_date))}
          {line(t('audits.fields.windowEnd'), f.day(a.window_end))}
          {line(
            t('audits.fields.startedAt'),
            a.started_at ? `${f.instant(a.started_at)}${a.started_by ? ` · ${a.started_by.full_name}` : ''}` : null,
          )}
          {line(
            t('audits.fields.completedAt'),
            a.completed_at ? `${f.instant(a.completed_at)}${a.completed_by ? ` · ${a.completed_by.full_name}` : ''}` : null,
          )}
          {line(
            t('audits.fields.decidedAt'),
            a.decided_at ? `${f.instant(a.decided_at)}${a.decided_by ? ` · ${a.decided_by.full_name}` : ''}` : null,
          )}
          {line(t('audits.fields.remarks'), a.decision_comment)}
        </SimpleGrid>
        {a.template.description ? (
          <Text size="sm" c="dimmed" mt="sm" style={{ whiteSpace: 'pre-wrap' }}>
            {a.template.description}
          </Text>
        ) : null}
      </Paper>
      <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="audit-totals">
        <Title order={2} size="h4" id="audit-totals" mb="xs">
          {t('auditsWeb.record.totals')}
        </Title>
        <ScoreText {...a.score} size="lg" />
        <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs" mt="xs">
          {line(
            t('auditsWeb.record.answered'),
            q ? t('auditsWeb.record.answeredOf', { answered: q.answered, shown: q.shown }) : `${a.progress.answered} / ${a.progress.shown}`,
          )}
          {line(t('audits.answers.na'), q ? String(q.na) : null)}
          {line(t('audits.fields.failed'), String(a.failed_count))}
          {line(t('audits.fields.criticalFailed'), String(a.critical_failed_count))}
          {line(t('audits.fields.keyFindings'), String(a.key_findings.length))}
          {line(
            t('audits.fields.actions'),
            totals.data ? t('audits.fields.actionsProgress', { done: totals.data.actions.done, total: totals.data.actions.total }) : null,
          )}
        </SimpleGrid>
      </Paper>
      {a.review || a.status === 'completed' ? <ReviewPanel review={a.review} onDecide={onDecide} /> : null}
    </SimpleGrid>
  );
}

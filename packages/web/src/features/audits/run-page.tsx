import { type Audit } from '@bulwark/domain';
import { Alert, Anchor, Button, Group, Paper, Progress, Select, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { useAudit, useAuditCommands, useAuditFormData } from './audits-api.js';
import { AuditStatusBadge, ScoreText } from './badges.js';
import { CompleteDialog } from './complete-dialog.js';
import { FindingDialog } from './finding-form.js';
import { NotesCard } from './notes-card.js';
import { QuestionCard } from './question-card.js';
import { RecordNav } from './record-nav.js';
import { orderedSections, sectionIndex } from './run-model.js';
import { useRun } from './use-run.js';
import { auditPlace } from './place.js';

/**
 * /audits/{id}/audit/{sectionindex}: running an audit on site, made for a phone first. One section at
 * a time (previous, next), every answer saved as it is given with its own "saved" line, the running
 * score, child questions appearing under their parent's answer, photos from the camera, remarks,
 * key findings, notes, and "Complete" behind its confirmation. Who may not answer sees it read only.
 */
export function RunPage({ id, sectionIndex: raw }: { id: string; sectionIndex: string }) {
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
  const a = audit.data;
  const header = (
    <Stack gap={6}>
      <Title order={1} size="h3" style={{ overflowWrap: 'anywhere' }}>
        {a.serial_label} · {a.template.name}
      </Title>
      <Group gap="xs" wrap="wrap">
        <AuditStatusBadge status={a.status} late={a.late} size="sm" />
        <Text size="sm" c="dimmed">
          {auditPlace(a)}
        </Text>
      </Group>
      <RecordNav audit={a} current="audit" />
    </Stack>
  );
  if (!a.started_at) return <NotStarted audit={a} header={header} />;
  return (
    <Stack gap="sm">
      {header}
      <Running key={a.id} audit={a} raw={raw} />
    </Stack>
  );
}

function NotStarted({ audit: a, header }: { audit: Audit; header: ReactNode }) {
  const { t } = useTranslation();
  const commands = useAuditCommands();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  return (
    <Stack gap="sm">
      {header}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm" align="flex-start">
          <Text>
            {a.permissions.start
              ? t('auditsWeb.run.readyToStart', { count: a.form.sections.reduce((n, s) => n + s.questions.length, 0) })
              : t('auditsWeb.run.notStarted', { name: a.auditor.full_name })}
          </Text>
          {a.permissions.start ? (
            <Button
              size="md"
              loading={busy}
              onClick={async () => {
                setBusy(true);
                try {
                  await commands.start(a.id);
                  notifySuccess(t('auditsWeb.record.started'));
                  navigate(`/audits/${a.id}/audit/1`, { replace: true });
                } catch (error) {
                  notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
                } finally {
                  setBusy(false);
                }
              }}
            >
              {t('auditsWeb.record.start')}
            </Button>
          ) : null}
        </Stack>
      </Paper>
    </Stack>
  );
}

function Running({ audit: a, raw }: { audit: Audit; raw: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const commands = useAuditCommands();
  const formData = useAuditFormData();
  const run = useRun(a);
  const [completing, setCompleting] = useState(false);
  const [finding, setFinding] = useState<{ questionId: string | null } | null>(null);
  const sections = orderedSections(run.form);
  const index = sectionIndex(raw, sections.length);
  const section = sections[index - 1];
  const editable = a.permissions.answer;
  const upload = editable ? (kind: 'photo' | 'document', file: File, p: (n: number) => void) => commands.upload(a.id, kind, file, p) : null;
  const { progress, score } = run.live;
  const go = (n: number) => {
    navigate(`/audits/${a.id}/audit/${n}`);
    window.scrollTo({ top: 0 });
  };
  const shownHere = section ? section.questions.filter((q) => run.live.shown.has(q.id)) : [];
  const answeredHere = shownHere.filter((q) => run.live.results.get(q.id)?.answered).length;
  const allQuestions = sections.flatMap((s) => s.questions.map((q) => ({ id: q.id, label: q.label })));

  return (
    <>
      {!editable ? (
        <Alert color="gray" role="note">
          {a.status === 'completed' || a.status === 'approved'
            ? t('auditsWeb.run.readOnlyDone')
            : t('auditsWeb.run.readOnly', { name: a.auditor.full_name })}
        </Alert>
      ) : null}
      <Paper
        withBorder
        radius="md"
        p="xs"
        style={{ position: 'sticky', top: 'calc(var(--app-shell-header-height, 60px) + 4px)', zIndex: 20 }}
        shadow="xs"
      >
        <Group justify="space-between" gap="xs" wrap="wrap">
          <Text size="sm" fw={500}>
            {t('auditsWeb.run.progress', { answered: progress.answered, shown: progress.shown })}
          </Text>
          {run.form.scoring ? <ScoreText {...score} /> : null}
        </Group>
        <Progress
          value={progress.shown ? (progress.answered / progress.shown) * 100 : 0}
          size="sm"
          mt={4}
          aria-label={t('auditsWeb.run.progress', { answered: progress.answered, shown: progress.shown })}
        />
        {editable ? (
          <Group justify="space-between" gap="xs" mt={4} wrap="wrap">
            <Text size="xs" c={run.unsaved > 0 ? 'orange.8' : 'teal.8'} role="status">
              {run.unsaved > 0 ? t('auditsWeb.save.pendingCount', { count: run.unsaved }) : t('auditsWeb.save.allSaved')}
            </Text>
            <Button size="compact-xs" variant="subtle" onClick={() => run.wake()} disabled={run.unsaved === 0}>
              {t('auditsWeb.save.now')}
            </Button>
          </Group>
        ) : null}
      </Paper>

      {sections.length === 0 || !section ? (
        <Alert color="gray">{t('auditsWeb.run.noQuestions')}</Alert>
      ) : (
        <Stack gap="sm">
          <Group justify="space-between" gap="xs" wrap="wrap" align="flex-end">
            <div style={{ minWidth: 0 }}>
              <Text size="xs" c="dimmed">
                {t('auditsWeb.run.sectionOf', { n: index, count: sections.length })}
              </Text>
              <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                {section.name}
              </Title>
              <Text size="xs" c="dimmed">
                {t('auditsWeb.run.sectionProgress', { answered: answeredHere, shown: shownHere.length })}
              </Text>
            </div>
            {sections.length > 1 ? (
              <Select
                aria-label={t('auditsWeb.run.jump')}
                data={sections.map((s, i) => ({ value: String(i + 1), label: `${i + 1}. ${s.name}` }))}
                value={String(index)}
                onChange={(v) => v && go(Number(v))}
                allowDeselect={false}
                w={{ base: '100%', xs: 240 }}
                comboboxProps={{ withinPortal: true }}
              />
            ) : null}
          </Group>
          {shownHere.length === 0 ? (
            <Text size="sm" c="dimmed">
              {t('auditsWeb.run.sectionEmpty')}
            </Text>
          ) : null}
          {shownHere.map((q) => {
            const number = `${index}.${section.questions.indexOf(q) + 1}`;
            return (
              <QuestionCard
                key={q.id}
                question={q}
                number={number}
                draft={run.drafts[q.id]}
                result={run.live.results.get(q.id)}
                status={run.statuses[q.id]}
                scoring={run.form.scoring}
                onChange={(next, when) => run.change(q, next, when)}
                onAddOption={editable ? (label, cell) => run.addOption(q, label, cell) : null}
                upload={upload}
                onRetry={() => run.wake()}
                onFinding={editable ? () => setFinding({ questionId: q.id }) : undefined}
                disabled={!editable}
                child={q.condition !== null}
              />
            );
          })}
          {index === sections.length ? <NotesCard audit={a} editable={editable} upload={upload} /> : null}
        </Stack>
      )}

      <Paper withBorder radius="md" p="xs" style={{ position: 'sticky', bottom: 8, zIndex: 20 }} shadow="sm">
        <Group justify="space-between" gap="xs" wrap="nowrap">
          <Button variant="default" onClick={() => go(index - 1)} disabled={index <= 1}>
            {t('auditsWeb.run.previous')}
          </Button>
          {editable && formData.data ? (
            <Button variant="subtle" color="orange" onClick={() => setFinding({ questionId: null })} px={6}>
              {t('auditsWeb.run.finding')}
            </Button>
          ) : null}
          {index < sections.length ? (
            <Button onClick={() => go(index + 1)}>{t('auditsWeb.run.next')}</Button>
          ) : editable && a.permissions.complete ? (
            <Button color="teal" onClick={() => setCompleting(true)}>
              {t('auditsWeb.run.complete')}
            </Button>
          ) : (
            <Button component={Link} to={`/audits/${a.id}/summary`} variant="light">
              {t('auditsWeb.run.done')}
            </Button>
          )}
        </Group>
      </Paper>
      {a.key_findings.length > 0 ? (
        <Text size="sm">
          <Anchor component={Link} to={`/audits/${a.id}/keyfindings`}>
            {t('auditsWeb.run.findingsSoFar', { count: a.key_findings.length })}
          </Anchor>
        </Text>
      ) : null}
      <CompleteDialog
        audit={a}
        form={run.form}
        live={run.live}
        unsaved={run.unsaved}
        opened={completing}
        onClose={() => setCompleting(false)}
      />
      {formData.data && upload && finding ? (
        <FindingDialog
          auditId={a.id}
          opened
          onClose={() => setFinding(null)}
          formData={formData.data}
          questions={allQuestions}
          questionId={finding.questionId}
          upload={upload}
        />
      ) : null}
    </>
  );
}

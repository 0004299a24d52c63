import type { AuditFile, AuditReport, AuditTimelineEntry } from '@bulwark/domain';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Modal,
  MultiSelect,
  Paper,
  Progress,
  SimpleGrid,
  Stack,
  Table,
  TagsInput,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useFormats } from '../../ui/format.js';
import { PageLoader, RecordLoadFailed, StoredImage, useConfirm, useSaveLinkedFile } from '../../ui/index.js';
import classes from '../../ui/print-report.module.css';
import { useAudit, useAuditCommands, useAuditFormData, useAuditReport } from './audits-api.js';
import { AuditIcon, AuditStatusBadge, PercentBadge, ScoreText } from './badges.js';
import { ActionItemsTable, FindingsList } from './findings.js';
import { points } from './run-model.js';

/**
 * /audits/{id}/report (spec 001 §2): the scorecard (score obtained of possible, by section), the
 * section-wise response summary, the responses, key findings, action items with their status, the
 * timeline, attachments and notes, as the organisation's report settings include them. Printable; the
 * server's PDF is the other way out, and the auditor (or Audit update) mails it to the people chosen.
 */
export function AuditReportPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const report = useAuditReport(id);
  if (report.isError)
    return (
      <RecordLoadFailed
        title={t('audits.report.title')}
        error={report.error}
        notFoundText={t('auditsWeb.common.notFound')}
        backTo="/audits/scheduled"
      />
    );
  if (!report.data) return <PageLoader />;
  return <Report report={report.data} />;
}

function Report({ report: r }: { report: AuditReport }) {
  const { t } = useTranslation();
  const f = useFormats();
  const a = r.audit;
  const audit = useAudit(a.id);
  const commands = useAuditCommands();
  const [busy, setBusy] = useState(false);
  const [sending, setSending] = useState(false);
  const inc = r.settings.include;
  const mayMail = audit.data?.permissions.send_report ?? false;

  async function pdf() {
    setBusy(true);
    try {
      await commands.downloadPdf(a.id);
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack className={classes.page} gap="md">
      <Group justify="space-between" className={classes.noPrint} wrap="wrap" gap="xs">
        <Button component={Link} to={`/audits/${a.id}/summary`} variant="default">
          {t('common.back')}
        </Button>
        <Group gap="xs" wrap="wrap">
          <Button variant="default" onClick={() => window.print()}>
            {t('auditsWeb.report.print')}
          </Button>
          <Button variant="default" loading={busy} onClick={() => void pdf()}>
            {t('auditsWeb.report.downloadPdf')}
          </Button>
          {mayMail ? <Button onClick={() => setSending(true)}>{t('auditsWeb.report.email')}</Button> : null}
        </Group>
      </Group>

      <Group justify="space-between" align="flex-start" wrap="wrap" gap="sm">
        <Group gap="sm" wrap="nowrap" align="flex-start" style={{ minWidth: 0, flex: '1 1 260px' }}>
          {r.settings.logo ? (
            <StoredImage url={r.settings.logo.url} alt={t('auditsWeb.report.logo')} h={48} w="auto" fit="contain" />
          ) : (
            <AuditIcon icon={a.template.icon} size="xl" />
          )}
          <Stack gap={2} style={{ minWidth: 0 }}>
            <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
              {t('audits.report.title')} {a.serial_label}
            </Title>
            {r.settings.header_text ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap' }}>
                {r.settings.header_text}
              </Text>
            ) : null}
            <Text size="sm" c="dimmed">
              {t('audits.report.generated', { date: f.instant(r.generated_at) })}
            </Text>
          </Stack>
        </Group>
        <AuditStatusBadge status={a.status} late={a.late} />
      </Group>

      <Block title={t('auditsWeb.record.details')} id="report-details">
        <SimpleGrid cols={{ base: 1, xs: 2, sm: 3 }} spacing="xs" verticalSpacing="xs">
          <Line label={t('audits.fields.template')} value={`${a.template.name} · ${t(`audits.types.${a.template.type}`)}`} />
          <Line label={t('audits.fields.site')} value={[a.site.name, a.site_node?.full_name].filter(Boolean).join(' / ')} />
          <Line label={t('audits.fields.frequency')} value={t(`audits.frequencies.${a.frequency}`)} />
          <Line label={t('audits.fields.auditor')} value={a.auditor.full_name} />
          <Line label={t('audits.fields.auditee')} value={a.auditee?.full_name} />
          <Line
            label={t('audits.fields.dueDate')}
            value={a.due_date === a.window_end ? f.day(a.due_date) : `${f.day(a.due_date)} – ${f.day(a.window_end)}`}
          />
          <Line label={t('audits.fields.startedAt')} value={a.started_at ? f.instant(a.started_at) : null} />
          <Line label={t('audits.fields.completedAt')} value={a.completed_at ? f.instant(a.completed_at) : null} />
          <Line
            label={t('audits.fields.decidedAt')}
            value={a.decided_at ? `${f.instant(a.decided_at)}${r.decided_by ? ` · ${r.decided_by.full_name}` : ''}` : null}
          />
        </SimpleGrid>
        {a.decision_comment ? <Line label={t('audits.fields.remarks')} value={a.decision_comment} /> : null}
      </Block>

      {inc.scorecard ? <Scorecard report={r} /> : null}
      {inc.section_summary ? <SectionSummary report={r} /> : null}
      {inc.responses ? <Responses report={r} /> : null}
      {inc.key_findings ? (
        <Block title={t('audits.report.keyFindings')} id="report-findings">
          <FindingsList findings={r.key_findings} questionLabel={(qid) => labelOf(r, qid)} links={false} />
        </Block>
      ) : null}
      {inc.action_items ? (
        <Block title={t('audits.report.actionItems')} id="report-actions">
          <ActionItemsTable actions={r.action_items} />
        </Block>
      ) : null}
      {inc.timeline ? (
        <Block title={t('audits.report.timeline')} id="report-timeline">
          <Timeline entries={r.timeline} />
        </Block>
      ) : null}
      {inc.attachments ? (
        <Block title={t('audits.report.attachments')} id="report-attachments">
          <Files files={r.attachments} />
        </Block>
      ) : null}
      {inc.notes ? (
        <Block title={t('audits.report.notes')} id="report-notes">
          <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }} c={r.notes ? undefined : 'dimmed'}>
            {r.notes || t('audits.report.none')}
          </Text>
        </Block>
      ) : null}
      {sending && audit.data ? <MailDialog auditId={a.id} serial={a.serial_label} onClose={() => setSending(false)} /> : null}
    </Stack>
  );
}

function labelOf(r: AuditReport, qid: string): string | null {
  for (const s of r.responses) for (const q of s.questions) if (q.question_id === qid) return q.label;
  return null;
}

function Block({ title, id, children }: { title: string; id: string; children: ReactNode }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={id}>
      <Title order={2} size="h4" id={id} mb="xs">
        {title}
      </Title>
      {children}
    </Paper>
  );
}

function Line({ label, value }: { label: string; value: string | null | undefined }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {value || '—'}
      </Text>
    </div>
  );
}

/** Score obtained of possible, overall and by section, each with its bar. */
function Scorecard({ report: r }: { report: AuditReport }) {
  const { t } = useTranslation();
  const s = r.scorecard;
  return (
    <Block title={t('audits.report.scorecard')} id="report-scorecard">
      <ScoreText obtained={s.obtained} assigned={s.assigned} percent={s.percent} size="lg" />
      {s.percent !== null ? <Progress value={s.percent} mt={6} mb="sm" aria-label={t('audits.fields.score')} /> : null}
      <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
        {s.sections.map((x) => (
          <Group key={x.id} component="li" gap="xs" wrap="wrap" justify="space-between">
            <Text size="sm" style={{ flex: '1 1 160px', overflowWrap: 'anywhere' }}>
              {x.name}
            </Text>
            <Text size="sm" c="dimmed">
              {x.assigned > 0
                ? t('auditsWeb.report.pointsOf', { obtained: points(x.obtained), assigned: points(x.assigned) })
                : t('audits.report.scoreNone')}
            </Text>
            <PercentBadge percent={x.percent} />
          </Group>
        ))}
      </Stack>
    </Block>
  );
}

/** Per section: questions shown, answered, yes, no, NA, failed, points. */
function SectionSummary({ report: r }: { report: AuditReport }) {
  const { t } = useTranslation();
  const rows = r.scorecard.sections;
  return (
    <Block title={t('audits.report.sectionSummary')} id="report-section-summary">
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('audits.report.none')}
        </Text>
      ) : (
        <Table.ScrollContainer minWidth={520}>
          <Table striped verticalSpacing={4} fz="sm" aria-labelledby="report-section-summary">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('audits.fields.section')}</Table.Th>
                <Table.Th>{t('audits.report.questions')}</Table.Th>
                <Table.Th>{t('audits.report.answered')}</Table.Th>
                <Table.Th>{t('audits.fields.yes')}</Table.Th>
                <Table.Th>{t('audits.fields.no')}</Table.Th>
                <Table.Th>{t('auditsWeb.report.na')}</Table.Th>
                <Table.Th>{t('audits.fields.failed')}</Table.Th>
                <Table.Th>{t('audits.fields.points')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((x) => (
                <Table.Tr key={x.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>{x.name}</Table.Td>
                  <Table.Td>{x.shown}</Table.Td>
                  <Table.Td>{x.answered}</Table.Td>
                  <Table.Td>{x.yes}</Table.Td>
                  <Table.Td>{x.no}</Table.Td>
                  <Table.Td>{x.na}</Table.Td>
                  <Table.Td>{x.failed}</Table.Td>
                  <Table.Td>{x.assigned > 0 ? `${points(x.obtained)} / ${points(x.assigned)}` : '—'}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Block>
  );
}

function Responses({ report: r }: { report: AuditReport }) {
  const { t } = useTranslation();
  return (
    <Block title={t('audits.report.responses')} id="report-responses">
      {r.responses.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('audits.report.none')}
        </Text>
      ) : (
        <Stack gap="md">
          {r.responses.map((s, si) => (
            <Stack key={`${s.section}-${si}`} gap={6} component="section" aria-label={s.section}>
              <Title order={3} size="h5">
                {s.section}
              </Title>
              {s.questions.map((q, qi) => (
                <Paper
                  key={q.question_id}
                  withBorder
                  radius="sm"
                  p="xs"
                  style={{ borderColor: q.failed ? 'var(--mantine-color-red-4)' : undefined }}
                >
                  <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
                    <Text size="sm" fw={600} style={{ flex: '1 1 220px', overflowWrap: 'anywhere' }}>
                      {si + 1}.{qi + 1} {q.label}
                    </Text>
                    <Group gap={4}>
                      {q.critical ? (
                        <Badge size="xs" color="red" variant="outline">
                          {t('audits.answers.critical')}
                        </Badge>
                      ) : null}
                      {q.failed ? (
                        <Badge size="xs" color="red">
                          {t('audits.answers.failed')}
                        </Badge>
                      ) : null}
                      {q.assigned !== null && q.obtained !== null ? (
                        <Badge size="xs" variant="light" color="gray">
                          {`${points(q.obtained)} / ${points(q.assigned)}`}
                        </Badge>
                      ) : null}
                    </Group>
                  </Group>
                  {q.answer.length > 0 ? (
                    q.answer.map((line, i) => (
                      <Text key={i} size="sm" style={{ overflowWrap: 'anywhere' }}>
                        {line}
                      </Text>
                    ))
                  ) : (
                    <Text size="sm" c="dimmed">
                      {t('audits.report.unanswered')}
                    </Text>
                  )}
                  {q.remark ? (
                    <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap' }}>
                      {t('audits.fields.remark')}: {q.remark}
                    </Text>
                  ) : null}
                  {q.files.length > 0 ? <Files files={q.files} small /> : null}
                </Paper>
              ))}
            </Stack>
          ))}
        </Stack>
      )}
    </Block>
  );
}

function Timeline({ entries }: { entries: AuditTimelineEntry[] }) {
  const { t } = useTranslation();
  const f = useFormats();
  if (entries.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('audits.report.none')}
      </Text>
    );
  return (
    <Stack gap={6} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {entries.map((e, i) => (
        <li key={`${e.at}-${i}`}>
          <Text size="sm">
            <Text span fw={600}>
              {t(`audits.events.${e.event}`, { defaultValue: e.event })}
            </Text>
            {' · '}
            {f.instant(e.at)}
            {e.actor ? ` · ${e.actor.full_name}` : ''}
          </Text>
          {e.comment ? (
            <Text size="xs" c="dimmed" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {e.comment}
            </Text>
          ) : null}
        </li>
      ))}
    </Stack>
  );
}

/** Pictures as thumbnails, other files as links that download them. */
function Files({ files, small }: { files: AuditFile[]; small?: boolean }) {
  const { t } = useTranslation();
  const save = useSaveLinkedFile();
  if (files.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('audits.report.none')}
      </Text>
    );
  const pictures = files.filter((x) => x.mime_type.startsWith('image/'));
  const others = files.filter((x) => !x.mime_type.startsWith('image/'));
  return (
    <Stack gap={6} mt={small ? 4 : 0}>
      {pictures.length > 0 ? (
        <SimpleGrid cols={{ base: 3, sm: small ? 6 : 4 }} spacing={6}>
          {pictures.map((p) => (
            <StoredImage key={p.id} url={p.url} alt={p.file_name} radius="sm" h={small ? 64 : 110} fit="cover" />
          ))}
        </SimpleGrid>
      ) : null}
      {others.map((d) => (
        <Anchor
          key={d.id}
          component="button"
          type="button"
          size="sm"
          onClick={() => void save(d.url)}
          style={{ overflowWrap: 'anywhere', textAlign: 'start' }}
        >
          {d.file_name}
        </Anchor>
      ))}
    </Stack>
  );
}

/** "E-mail the report": the PDF to members chosen and other addresses, with a message. */
function MailDialog({ auditId, serial, onClose }: { auditId: string; serial: string; onClose: () => void }) {
  const { t } = useTranslation();
  const formData = useAuditFormData();
  const commands = useAuditCommands();
  const form = useFormSubmit();
  const [confirm, confirmDialog] = useConfirm();
  const [userIds, setUserIds] = useState<string[]>([]);
  const [emails, setEmails] = useState<string[]>([]);
  const [message, setMessage] = useState('');

  async function send(e: FormEvent) {
    e.preventDefault();
    const count = userIds.length + emails.length;
    if (form.refuse(count === 0 ? { user_ids: t('audits.validation.recipientsMissing') } : null)) return;
    if (!(await confirm({ message: t('auditsWeb.report.sendConfirm', { count, serial }), confirmLabel: t('auditsWeb.report.send') })))
      return;
    await form.run(async () => {
      await commands.sendReport(auditId, { user_ids: userIds, emails, message: message.trim() || null });
      notifySuccess(t('auditsWeb.report.sent', { count }));
      onClose();
    });
  }
  const fieldError = (prefix: string) => Object.entries(form.errors).find(([k]) => k.startsWith(prefix))?.[1];
  return (
    <Modal opened onClose={onClose} title={t('auditsWeb.report.emailTitle', { serial })} size="lg">
      {formData.data ? (
        <form onSubmit={(e) => void send(e)} noValidate aria-busy={form.busy}>
          <Stack gap="sm">
            <Text size="sm" c="dimmed">
              {t('auditsWeb.report.emailHelp')}
            </Text>
            {form.message ? (
              <Alert color="red" role="alert">
                {form.message}
              </Alert>
            ) : null}
            <MultiSelect
              label={t('auditsWeb.report.members')}
              searchable
              data={formData.data.users.map((u) => ({ value: u.id, label: `${u.full_name} (${u.email})` }))}
              value={userIds}
              onChange={setUserIds}
              nothingFoundMessage={t('kit.noResults')}
              error={fieldError('user_ids')}
              comboboxProps={{ withinPortal: true }}
              data-autofocus
            />
            <TagsInput
              label={t('auditsWeb.report.emails')}
              description={t('auditsWeb.report.emailsHint')}
              value={emails}
              onChange={setEmails}
              splitChars={[',', ' ', ';']}
              error={fieldError('emails')}
            />
            <Textarea
              label={t('auditsWeb.report.message')}
              autosize
              minRows={2}
              maxLength={2000}
              value={message}
              onChange={(e) => setMessage(e.currentTarget.value)}
              error={fieldError('message')}
            />
            <Group justify="flex-end" gap="xs">
              <Button variant="default" onClick={onClose}>
                {t('common.cancel')}
              </Button>
              <Button type="submit" loading={form.busy}>
                {t('auditsWeb.report.send')}
              </Button>
            </Group>
          </Stack>
        </form>
      ) : (
        <PageLoader />
      )}
      {confirmDialog}
    </Modal>
  );
}

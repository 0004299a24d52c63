import { OBSERVATION_STATUSES, formatBytes, type Observation } from '@bulwark/domain';
import type { TFunction } from 'i18next';
import { Alert, Anchor, Badge, Button, Divider, Group, Modal, Paper, SimpleGrid, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useFormats } from '../../ui/format.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { PageLoader, RecordLoadFailed, StoredImage, useSaveLinkedFile } from '../../ui/index.js';
import { useIsGuest, useObservation, useObservationCommands, useObservationsRefresh } from './observations-api.js';
import { RiskBadge, StatusBadge } from './status-badge.js';

/** The reporter as the reader may see them: nobody's name when the report was anonymous. */
export function reporterText(o: Pick<Observation, 'anonymous' | 'reporter'>, t: (k: string) => string): string {
  if (o.anonymous || !o.reporter) return t('observations.anonymous');
  if (!o.reporter.guest) return o.reporter.full_name;
  // A guest may leave the name empty: then the record says so in words, not with an empty name.
  const name = o.reporter.full_name.trim();
  return name ? `${name} (${t('observations.guestReporter')})` : t('observations.unnamedGuest');
}

/** /observations/summary/:id: every field, its actions, attachments and history, and what may be done next. */
export function ObservationSummary({ id }: { id: string }) {
  const { t } = useTranslation();
  const record = useObservation(id);
  const { downloadPdf } = useObservationCommands();
  const [closing, setClosing] = useState(false);
  const [pdfBusy, setPdfBusy] = useState(false);
  const guest = useIsGuest();
  if (record.isError)
    return (
      <RecordLoadFailed
        title={t('observations.singular')}
        error={record.error}
        notFoundText={t('observationsWeb.notFound')}
        backTo="/observations/new"
      />
    );
  if (!record.data) return <PageLoader />;
  const o = record.data;
  const perms = o.permissions;

  async function pdf() {
    setPdfBusy(true);
    try {
      await downloadPdf(o.id);
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setPdfBusy(false);
    }
  }

  return (
    <Stack gap="sm">
      <Group justify="space-between" wrap="wrap" gap="xs">
        <Title order={2} size="h3">
          {o.serial_label}
        </Title>
        <StatusBadge status={o.status} />
      </Group>
      <Group gap="xs" wrap="wrap">
        {perms.update ? (
          <Button component={Link} to={`/observations/edit/${o.id}`} size="sm">
            {t('kit.edit')}
          </Button>
        ) : null}
        {/* Offered to whoever may close, also while open actions block it (the dialog says why); never to one without the right. */}
        {perms.close || (perms.close_blocked_by && perms.close_blocked_by !== 'observations.validation.closeRight') ? (
          <Button size="sm" variant="light" color="teal" onClick={() => setClosing(true)}>
            {t('observations.form.close')}
          </Button>
        ) : null}
        {guest ? null : (
          <>
            <Button component={Link} to={`/observations/${o.id}/report`} size="sm" variant="default">
              {t('observations.form.report')}
            </Button>
            <Button size="sm" variant="default" loading={pdfBusy} onClick={() => void pdf()}>
              {t('observations.form.downloadPdf')}
            </Button>
          </>
        )}
      </Group>
      <ObservationFields o={o} />
      {/* A guest is shown no actions: they name the staff who carry them out. */}
      {guest ? null : <ActionsTable o={o} layout="cards" />}
      <Attachments o={o} />
      <History o={o} />
      <CloseDialog o={o} opened={closing} onClose={() => setClosing(false)} />
    </Stack>
  );
}

/** A term and its value; `wide` spans the grid's row (on the dt/dd's own wrapper: a <dl> allows no deeper nesting). */
function Field({ label, children, wide = false }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Stack gap={0} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Stack>
  );
}

export function ObservationFields({ o }: { o: Observation }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
      <Field label={t('observations.fields.type')}>{t(`categories.types.${o.type}`)}</Field>
      <Field label={t('observations.fields.category')}>{[o.category?.name, o.sub_category?.name].filter(Boolean).join(' / ') || '—'}</Field>
      <Field label={t('observations.fields.site')}>{o.site.name}</Field>
      <Field label={t('observations.fields.area')}>{o.site_node?.full_name ?? '—'}</Field>
      <Field label={t('observations.fields.observedAt')}>{`${fmt.local(o.observed_at)} (${o.site.time_zone})`}</Field>
      <Field label={t('observations.fields.riskLevel')}>
        <RiskBadge level={o.risk_level} />
      </Field>
      <Field label={t('observations.fields.actionRequired')}>
        {t(o.action_required ? 'observations.fields.yes' : 'observations.fields.no')}
      </Field>
      <Field label={t('observations.fields.reporter')}>{reporterText(o, t)}</Field>
      <Field label={t('observations.fields.source')}>{t(`observations.sources.${o.source}`)}</Field>
      <Field label={t('observations.fields.createdAt')}>{fmt.instant(o.created_at)}</Field>
      <Field label={t('observations.fields.description')} wide>
        {o.description}
      </Field>
      <Field label={t('observations.fields.comment')} wide>
        {o.comment}
      </Field>
      {o.closing_remarks ? (
        <Field
          label={t('observations.fields.closingRemarks')}
          wide
        >{`${o.closing_remarks}${o.closed_by ? ` — ${o.closed_by.full_name}` : ''}${o.closed_at ? `, ${fmt.instant(o.closed_at)}` : ''}`}</Field>
      ) : null}
    </SimpleGrid>
  );
}

/** An ISO instant in the reader's own clock, to the minute. */
export function formatInstant(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * The observation's actions. Beside the list (and on a phone) the panel is narrow, so each action is a
 * short card there; the printable report has the width for a table.
 */
export function ActionsTable({ o, links = true, layout = 'table' }: { o: Observation; links?: boolean; layout?: 'table' | 'cards' }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby={`actions-${o.id}`}>
      <Divider mb="xs" />
      <Title order={3} size="h5" id={`actions-${o.id}`} mb={6}>
        {t('observations.fields.actions')}
      </Title>
      {o.actions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('observations.report.noActions')}
        </Text>
      ) : layout === 'cards' ? (
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {o.actions.map((a) => (
            <Paper key={a.id} component="li" withBorder p="xs" radius="sm">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                {links ? (
                  <Anchor component={Link} to={`/actions/observations/summary/${a.id}`} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {a.description}
                  </Anchor>
                ) : (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {a.description}
                  </Text>
                )}
                <Badge variant="light" size="sm" style={{ minWidth: 'max-content' }}>
                  {t(`actions.status.${a.status}`)}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" mt={2}>
                {[
                  t(`actions.controlType.${a.control_type}`),
                  a.responsible?.full_name ?? '—',
                  `${t('observations.actionColumns.dueDate')} ${a.due_date}`,
                ].join(' · ')}
              </Text>
            </Paper>
          ))}
        </Stack>
      ) : (
        <Table.ScrollContainer minWidth={420}>
          <Table striped verticalSpacing={4}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('observations.actionColumns.description')}</Table.Th>
                <Table.Th>{t('observations.actionColumns.controlType')}</Table.Th>
                <Table.Th>{t('observations.actionColumns.responsible')}</Table.Th>
                <Table.Th>{t('observations.actionColumns.dueDate')}</Table.Th>
                <Table.Th>{t('observations.actionColumns.status')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {o.actions.map((a) => (
                <Table.Tr key={a.id}>
                  <Table.Td style={{ overflowWrap: 'anywhere' }}>
                    {links ? (
                      <Anchor component={Link} to={`/actions/observations/summary/${a.id}`} size="sm">
                        {a.description}
                      </Anchor>
                    ) : (
                      a.description
                    )}
                  </Table.Td>
                  <Table.Td>{t(`actions.controlType.${a.control_type}`)}</Table.Td>
                  <Table.Td>{a.responsible?.full_name ?? '—'}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{a.due_date}</Table.Td>
                  <Table.Td>{t(`actions.status.${a.status}`)}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </section>
  );
}

export function Attachments({ o }: { o: Observation }) {
  const { t } = useTranslation();
  const download = useSaveLinkedFile();
  return (
    <section aria-labelledby={`files-${o.id}`}>
      <Divider mb="xs" />
      <Title order={3} size="h5" id={`files-${o.id}`} mb={6}>
        {t('observations.fields.attachments')}
      </Title>
      {o.attachments.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('observations.report.noAttachments')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs">
          {o.attachments.map((a) => (
            <Paper key={a.id} withBorder p={6} radius="sm">
              {a.mime_type.startsWith('image/') ? (
                <StoredImage url={a.url} alt={a.file_name} h={90} fit="cover" radius="sm" mb={4} />
              ) : null}
              {/* Files are served only with the session's headers: a plain link would be refused, so it downloads. */}
              <Anchor
                component="button"
                type="button"
                size="xs"
                ta="left"
                style={{ display: 'block', overflowWrap: 'anywhere' }}
                aria-label={t('observationsWeb.attachments.download', { name: a.file_name })}
                onClick={() => void download(a.url).catch(() => undefined)}
              >
                {a.file_name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {formatBytes(a.size_bytes)}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </section>
  );
}

function History({ o }: { o: Observation }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  return (
    <section aria-labelledby={`history-${o.id}`}>
      <Divider mb="xs" />
      <Title order={3} size="h5" id={`history-${o.id}`} mb={6}>
        {t('observations.fields.history')}
      </Title>
      <Stack gap={4} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {o.history.map((h, i) => (
          <Text key={`${h.at}-${i}`} size="sm" component="li">
            <Text span c="dimmed" size="xs">
              {fmt.instant(h.at)}
            </Text>{' '}
            {historyLabel(h.action, t)}
            {h.actor ? ` — ${h.actor.full_name}` : ''}
            {h.changes.length > 0 ? (
              <Text span c="dimmed" size="xs">{` (${h.changes.map((c) => changeText(c, t, fmt.local)).join('; ')})`}</Text>
            ) : null}
          </Text>
        ))}
      </Stack>
    </section>
  );
}

/** The history names the fields a change touched as the form labels them, not by their API names. */
const CHANGED_FIELD_KEYS: Record<string, string> = {
  type: 'observations.fields.type',
  category_id: 'observations.fields.category',
  sub_category_id: 'observations.fields.subCategory',
  description: 'observations.fields.description',
  site_id: 'observations.fields.site',
  site_node_id: 'observations.fields.area',
  observed_at: 'observations.fields.observedAt',
  risk_level: 'observations.fields.riskLevel',
  action_required: 'observations.fields.actionRequired',
  actions: 'observations.fields.actions',
  comment: 'observations.fields.comment',
  status: 'observations.fields.status',
  closing_remarks: 'observations.fields.closingRemarks',
  attachments_added: 'observations.history.attachment_added',
  attachments_removed: 'observations.history.attachment_removed',
};

function changedFieldLabel(field: string, t: (k: string) => string): string {
  const key = CHANGED_FIELD_KEYS[field];
  return key ? t(key) : field;
}

/** A recorded value in words: statuses, types and risk levels translated, times as the site's clock, long text cut. */
function valueText(field: string, v: unknown, t: (k: string) => string, local: (at: string) => string): string {
  if (v === null || v === undefined || v === '') return t('actionsWeb.history.empty_value');
  if (typeof v === 'boolean') return t(v ? 'observations.fields.yes' : 'observations.fields.no');
  const text = String(v);
  if (field === 'status' && (OBSERVATION_STATUSES as readonly string[]).includes(text)) return t(`observations.statuses.${text}`);
  if (field === 'type') return t(`categories.types.${text}`);
  if (field === 'risk_level') return t(`observations.riskLevels.${text}`);
  if (field === 'observed_at') return local(text);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
}

/** A change reads "Risk potential: High → Medium": the field as the form labels it, its old and new value. */
function changeText(c: { field: string; from: unknown; to: unknown }, t: TFunction, local: (at: string) => string): string {
  const field = changedFieldLabel(c.field, t);
  // Files added or removed are counted, not valued.
  if (c.field === 'attachments_added' || c.field === 'attachments_removed') return field;
  return t('actionsWeb.history.fieldChange', {
    field,
    from: valueText(c.field, c.from, t, local),
    to: valueText(c.field, c.to, t, local),
  });
}

function historyLabel(action: string, t: (k: string) => string): string {
  const key = `observations.history.${action}`;
  const text = t(key);
  return text === key ? action : text;
}

/** Closing asks for the closing remarks; while actions are open it says why it cannot close instead. */
function CloseDialog({ o, opened, onClose }: { o: Observation; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { close } = useObservationCommands();
  const refresh = useObservationsRefresh();
  const form = useFormSubmit();
  const [remarks, setRemarks] = useState('');
  const blocked = o.permissions.close_blocked_by;

  async function submit() {
    if (remarks.trim() === '') {
      form.refuse({ 'close.remarks': t('validation.required') });
      return;
    }
    await form.run(async () => {
      await close(o.id, remarks.trim());
      notifySuccess(t('observations.form.closed'));
      await refresh();
      setRemarks('');
      onClose();
    });
  }

  return (
    <Modal opened={opened} onClose={onClose} title={t('observations.form.close')} centered>
      {blocked ? (
        <Stack>
          <Alert color="yellow" role="alert">
            {t(blocked)}
          </Alert>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.close')}
            </Button>
          </Group>
        </Stack>
      ) : (
        <Stack>
          <Text size="sm">{t('observations.form.closeConfirm')}</Text>
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <Textarea
            label={t('observations.fields.closingRemarks')}
            withAsterisk
            autosize
            minRows={3}
            maxLength={2000}
            value={remarks}
            onChange={(e) => setRemarks(e.currentTarget.value)}
            error={form.errors['close.remarks'] ?? form.errors['close']}
            data-autofocus
          />
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              {t('common.cancel')}
            </Button>
            <Button color="teal" loading={form.busy} onClick={() => void submit()}>
              {t('observations.form.close')}
            </Button>
          </Group>
        </Stack>
      )}
    </Modal>
  );
}

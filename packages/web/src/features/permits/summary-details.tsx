import type { AnswerValue, Permit, PermitSection } from '@bulwark/domain';
import { Anchor, Badge, Group, List, Paper, SimpleGrid, Stack, Text, Timeline, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../ui/format.js';
import { useSaveLinkedFile } from '../../ui/index.js';
import { WorkerLine } from './workers-step.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" fw={500}>
        {label}
      </Text>
      <div style={{ overflowWrap: 'anywhere', fontSize: 'var(--mantine-font-size-sm)' }}>{children}</div>
    </Stack>
  );
}

export function Card({ title, children, id }: { title: string; children: ReactNode; id: string }) {
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby={id}>
      <Title order={2} size="h4" mb="sm" id={id}>
        {title}
      </Title>
      {children}
    </Paper>
  );
}

/** Requester, workers, location, time of work, issuing officers, status and the rest of the record. */
export function PermitFacts({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const f = useFormats();
  const save = useSaveLinkedFile();
  return (
    <Stack gap="md">
      <Card title={t('permitsWeb.summary.facts')} id="permit-facts">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Field label={t('permits.fields.requester')}>{p.requester.full_name}</Field>
          <Field label={t('permits.fields.type')}>{p.template.name}</Field>
          <Field label={t('permits.fields.site')}>{p.site ? [p.site.name, p.area?.full_name].filter(Boolean).join(' / ') : '—'}</Field>
          <Field label={t('permits.fields.timeOfWork')}>
            {p.start_at ? `${f.local(p.start_at)} → ${p.end_at ? f.local(p.end_at) : '…'}` : '—'}
            {p.site ? (
              <Text span size="xs" c="dimmed">
                {' '}
                ({p.site.time_zone})
              </Text>
            ) : null}
          </Field>
          <Field label={t('permits.fields.issuingOfficers')}>{p.issuing_officers.map((o) => o.full_name).join(', ') || '—'}</Field>
          <Field label={t('permitsWeb.summary.submittedAt')}>{p.submitted_at ? f.instant(p.submitted_at) : '—'}</Field>
          {p.shared_with.length > 0 ? (
            <Field label={t('permitsWeb.share.sharedWith')}>{p.shared_with.map((s) => s.full_name).join(', ')}</Field>
          ) : null}
          {p.cloned_from ? <Field label={t('permitsWeb.summary.clonedFrom')}>{p.cloned_from.number}</Field> : null}
        </SimpleGrid>
        {p.description ? (
          <Stack gap={2} mt="sm">
            <Text size="xs" c="dimmed" fw={500}>
              {t('permits.fields.description')}
            </Text>
            <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
              {p.description}
            </Text>
          </Stack>
        ) : null}
        {p.attachments.length > 0 ? (
          <Group gap="xs" mt="sm">
            {p.attachments.map((a) => (
              <Anchor key={a.id} component="button" type="button" size="sm" onClick={() => void save(`/api/files/${a.id}`)}>
                {a.file_name}
              </Anchor>
            ))}
          </Group>
        ) : null}
      </Card>

      <Card title={t('permitsWeb.summary.workers', { count: p.workers.length })} id="permit-workers">
        {p.workers.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('permits.report.noWorkers')}
          </Text>
        ) : (
          <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
            {p.workers.map((w) => (
              <li key={w.id}>
                <WorkerLine worker={w} />
              </li>
            ))}
          </SimpleGrid>
        )}
      </Card>

      {p.extensions.length > 0 ? (
        <Card title={t('permits.fields.extensions')} id="permit-extensions">
          <Stack gap="xs">
            {p.extensions.map((e) => (
              <Group key={e.id} gap="xs" wrap="wrap">
                <Badge variant="light" color={e.state === 'approved' ? 'teal' : e.state === 'pending' ? 'orange' : 'gray'}>
                  {t(`permits.extensionStates.${e.state}`)}
                </Badge>
                <Text size="sm">
                  {t('permitsWeb.summary.extensionLine', {
                    hours: e.hours,
                    by: e.requested_by?.full_name ?? '—',
                    at: f.instant(e.requested_at),
                    end: f.local(e.end_after ?? e.end_before),
                  })}
                </Text>
              </Group>
            ))}
          </Stack>
        </Card>
      ) : null}
    </Stack>
  );
}

/** An answer in words: the text, or the names of the picked entries and files. */
function AnswerText({ value, files }: { value: AnswerValue | undefined; files: boolean }) {
  const { t } = useTranslation();
  const save = useSaveLinkedFile();
  if (!value || (value.value === null && value.items.length === 0))
    return (
      <Text size="sm" c="dimmed">
        {t('permits.report.notAnswered')}
      </Text>
    );
  if (value.items.length > 0)
    return (
      <Group gap="xs">
        {value.items.map((i) =>
          files ? (
            <Anchor key={i.id} component="button" type="button" size="sm" onClick={() => void save(`/api/files/${i.id}`)}>
              {i.name}
            </Anchor>
          ) : (
            <Badge key={i.id} variant="light" color="gray" style={{ textTransform: 'none' }}>
              {i.name}
            </Badge>
          ),
        )}
      </Group>
    );
  return (
    <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
      {value.value}
    </Text>
  );
}

/** The answers of the form, section by section (the closing phase shows the closure answers). */
export function PermitAnswers({
  sections,
  answers,
  closure,
}: {
  sections: PermitSection[];
  answers: Record<string, AnswerValue>;
  closure: boolean;
}) {
  const { t } = useTranslation();
  const wanted = sections.filter((s) => s.active && (closure ? s.kind === 'closure' : s.kind !== 'closure'));
  const shown = wanted
    .map((s) => ({ s, questions: s.questions.filter((q) => !q.binding && q.type !== 'hidden_field' && (answers[q.id] || !q.condition)) }))
    .filter((x) => x.questions.length > 0);
  if (shown.length === 0) return null;
  return (
    <Card title={closure ? t('permits.report.closure') : t('permits.report.answers')} id={closure ? 'permit-closure' : 'permit-answers'}>
      <Stack gap="md">
        {shown.map(({ s, questions }) => (
          <Stack key={s.id} gap="xs">
            <Text fw={600} size="sm">
              {s.name}
            </Text>
            <List spacing="xs" listStyleType="none" p={0} m={0}>
              {questions.map((q) => (
                <List.Item key={q.id}>
                  <Text size="xs" c="dimmed">
                    {q.label}
                  </Text>
                  <AnswerText value={answers[q.id]} files={q.type === 'attachment'} />
                </List.Item>
              ))}
            </List>
          </Stack>
        ))}
      </Stack>
    </Card>
  );
}

/** The permit's own timeline: created, shared, requested, extended, closed… (the review's steps are in its panel). */
export function PermitTimeline({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const f = useFormats();
  return (
    <Card title={t('permits.report.timeline')} id="permit-timeline">
      <Timeline bulletSize={12} lineWidth={2} active={p.timeline.length - 1}>
        {p.timeline.map((e, i) => (
          <Timeline.Item key={`${e.at}-${i}`} title={<Text size="sm">{t(`permits.events.${e.kind}`)}</Text>}>
            <Text size="xs" c="dimmed">
              {[f.instant(e.at), e.actor?.full_name].filter(Boolean).join(' · ')}
            </Text>
            {e.comment ? (
              <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                {e.comment}
              </Text>
            ) : null}
          </Timeline.Item>
        ))}
      </Timeline>
    </Card>
  );
}

import { siSerial, type SiResponse } from '@bulwark/domain';
import { Badge, Button, Group, List, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { currentLanguage } from '../../i18n/setup.js';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import classes from '../../ui/print-report.module.css';
import { AgreedActionList } from './agreed-actions.js';
import { useInteraction } from './safety-interactions-api.js';
import { formatLocal } from './si-format.js';
import { STATUS_COLORS } from './si-list.js';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Stack gap={0}>
      <Text size="xs" c="dimmed" fw={600}>
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Stack>
  );
}

function Behaviours({ title, rows }: { title: string; rows: SiResponse['safe_behaviours'] }) {
  const { t } = useTranslation();
  return (
    <Paper withBorder p="md" radius="md" component="section">
      <Title order={2} size="h4" mb="xs">
        {title}
      </Title>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('safetyInteractions.report.none')}
        </Text>
      ) : (
        <List size="sm" spacing={4}>
          {rows.map((b, i) => (
            <List.Item key={i}>
              <b>{t(`safetyInteractions.topics.${b.topic}`)}</b>: {b.note}
            </List.Item>
          ))}
        </List>
      )}
    </Paper>
  );
}

/** /safety-interactions/:id/report: the record laid out to print (the shell and buttons are left off paper). */
export function SiReport() {
  const { t, i18n } = useTranslation();
  const lang = currentLanguage(i18n);
  const { id = '' } = useParams();
  const record = useInteraction(id);
  if (record.isError) {
    return (
      <RecordLoadFailed
        title={t('safetyInteractions.title')}
        error={record.error}
        notFoundText={t('safetyInteractions.form.notFound')}
        backTo="/safety-interactions"
        backLabel={t('safetyInteractions.form.back')}
      />
    );
  }
  if (!record.data) return <PageLoader />;
  const si = record.data;
  const none = t('safetyInteractions.report.none');
  const people = si.participants.map((p) => p.name).join(', ');

  return (
    <Stack className={classes.page} gap="md">
      <Group justify="space-between" className={classes.noPrint} wrap="wrap" gap="xs">
        <Button component={Link} to="/safety-interactions" variant="default">
          {t('safetyInteractions.report.back')}
        </Button>
        <Group gap="xs">
          {si.can_edit ? (
            <Button component={Link} to={`/safety-interactions/edit/${si.id}`} variant="default">
              {t('safetyInteractions.list.edit')}
            </Button>
          ) : null}
          <Button onClick={() => window.print()}>{t('safetyInteractions.report.print')}</Button>
        </Group>
      </Group>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('safetyInteractions.report.title', { serial: siSerial(si.serial) })}
          </Title>
          <Text size="sm" c="dimmed">
            {t('safetyInteractions.report.generated', {
              date: new Intl.DateTimeFormat(lang, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date()),
            })}
          </Text>
        </Stack>
        <Badge color={STATUS_COLORS[si.status]} variant="light" size="lg">
          {t(`safetyInteractions.statuses.${si.status}`)}
        </Badge>
      </Group>
      <Paper withBorder p="md" radius="md" component="section">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Field label={t('safetyInteractions.fields.observer')}>{si.observer?.full_name ?? none}</Field>
          <Field label={t('safetyInteractions.fields.heldAt')}>{`${formatLocal(si.held_at, lang)} (${si.site.time_zone})`}</Field>
          <Field label={t('safetyInteractions.fields.site')}>{si.area?.full_name ?? si.site.name}</Field>
          <Field label={t('safetyInteractions.fields.location')}>{si.location ?? none}</Field>
          <Field label={t('safetyInteractions.fields.duration')}>
            {t('safetyInteractions.report.minutes', { count: si.duration_minutes })}
          </Field>
          <Field label={t('safetyInteractions.fields.people')}>{people || none}</Field>
          <Field label={t('safetyInteractions.fields.crew')}>{si.crew ?? none}</Field>
          <Field label={t('safetyInteractions.fields.recognition')}>
            {t(si.recognition_given ? 'safetyInteractions.list.yes' : 'safetyInteractions.list.no')}
          </Field>
          <Field label={t('safetyInteractions.fields.topics')}>
            {si.topics.map((x) => t(`safetyInteractions.topics.${x}`)).join(', ') || none}
          </Field>
          <Field label={t('safetyInteractions.fields.createdBy')}>{si.created_by?.full_name ?? none}</Field>
        </SimpleGrid>
      </Paper>
      <Behaviours title={t('safetyInteractions.fields.safeBehaviours')} rows={si.safe_behaviours} />
      <Behaviours title={t('safetyInteractions.fields.atRiskBehaviours')} rows={si.at_risk_behaviours} />
      <Paper withBorder p="md" radius="md" component="section">
        <Title order={2} size="h4" mb="xs">
          {t('safetyInteractions.report.actionsHeading')}
        </Title>
        <AgreedActionList actions={si.actions} links={false} />
      </Paper>
      <Paper withBorder p="md" radius="md" component="section">
        <Field label={t('safetyInteractions.fields.comment')}>{si.comment ?? none}</Field>
      </Paper>
    </Stack>
  );
}

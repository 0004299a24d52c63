import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import classes from '../../ui/print-report.module.css';
import { ActionsTable, Attachments, ObservationFields, formatInstant } from './observation-summary.js';
import { useObservation, useObservationCommands } from './observations-api.js';
import { StatusBadge } from './status-badge.js';

/** /observations/:id/report: the record laid out to print, with the server's PDF as the other way out. */
export function ObservationReportPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const record = useObservation(id);
  const { downloadPdf } = useObservationCommands();
  const [busy, setBusy] = useState(false);
  if (record.isError)
    return (
      <RecordLoadFailed
        title={t('observations.report.title')}
        error={record.error}
        notFoundText={t('observationsWeb.notFound')}
        backTo="/observations/new"
      />
    );
  if (!record.data) return <PageLoader />;
  const o = record.data;

  return (
    <Stack className={classes.page} gap="md">
      <Group justify="space-between" className={classes.noPrint} wrap="wrap" gap="xs">
        <Button component={Link} to={`/observations/summary/${o.id}`} variant="default">
          {t('common.back')}
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={() => window.print()}>
            {t('observationsWeb.report.print')}
          </Button>
          <Button
            loading={busy}
            onClick={async () => {
              setBusy(true);
              try {
                await downloadPdf(o.id);
              } catch {
                // The HTTP client has shown the error.
              } finally {
                setBusy(false);
              }
            }}
          >
            {t('observations.form.downloadPdf')}
          </Button>
        </Group>
      </Group>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('observations.report.title')} {o.serial_label}
          </Title>
          <Text size="sm" c="dimmed">
            {t('observations.report.generated', { date: formatInstant(new Date().toISOString()) })}
          </Text>
        </Stack>
        <StatusBadge status={o.status} />
      </Group>
      <ObservationFields o={o} />
      <ActionsTable o={o} links={false} />
      <Attachments o={o} />
    </Stack>
  );
}

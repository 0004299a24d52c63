import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { PageLoader, RecordLoadFailed } from '../../ui/index.js';
import classes from '../../ui/print-report.module.css';
import { InvestigationBadge, StatusBadge } from './badges.js';
import { useIncident, useIncidentCommands } from './incidents-api.js';
import { ReviewPanel } from '../workflows/review-panel.js';
import { CapaView, FactsView, FactorsView, RecordView, TeamView } from './view-investigation.js';
import { FilesView, ReportFieldsView, VictimsView } from './view-report.js';

/** /incidents/:id/report: the whole record laid out to print, with the server's PDF as the other way out. */
export function IncidentReportPage() {
  const { t } = useTranslation();
  const fmt = useFormats();
  const { id = '' } = useParams();
  const record = useIncident(id);
  const { downloadPdf } = useIncidentCommands();
  const [busy, setBusy] = useState(false);
  if (record.isError)
    return (
      <RecordLoadFailed
        title={t('incidents.report.title')}
        error={record.error}
        notFoundText={t('incidentsWeb.notFound')}
        backTo="/incidents"
      />
    );
  if (!record.data) return <PageLoader />;
  const o = record.data;

  return (
    <Stack className={classes.page} gap="md">
      <Group justify="space-between" className={classes.noPrint} wrap="wrap" gap="xs">
        <Button component={Link} to={`/incidents/${o.id}/steps/step1`} variant="default">
          {t('common.back')}
        </Button>
        <Group gap="xs">
          <Button variant="default" onClick={() => window.print()}>
            {t('incidentsWeb.report.print')}
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
            {t('incidentsWeb.report.downloadPdf')}
          </Button>
        </Group>
      </Group>
      <Group justify="space-between" align="flex-start" wrap="wrap">
        <Stack gap={2}>
          <Title order={1} size="h2">
            {t('incidents.report.title')} {o.serial_label}
          </Title>
          <Text size="sm" c="dimmed">
            {t('incidents.report.generated', { date: fmt.instant(new Date().toISOString()) })}
          </Text>
        </Stack>
        <Group gap="xs">
          <StatusBadge status={o.status} />
          <InvestigationBadge state={o.investigation.state} />
        </Group>
      </Group>
      <ReportFieldsView o={o} />
      <VictimsView o={o} />
      <FilesView
        files={o.attachments}
        title={t('incidents.fields.attachments')}
        id={`files-${o.id}`}
        empty={t('incidents.report.noAttachments')}
      />
      {o.investigation_required ? (
        <>
          <TeamView o={o} />
          <FactsView o={o} />
          <FactorsView o={o} />
          <CapaView o={o} links={false} />
          <RecordView o={o} />
          {/* Read only here: nobody decides from the printout. */}
          <ReviewPanel
            review={o.investigation.review ? { ...o.investigation.review, may_decide: false } : null}
            onDecide={async () => undefined}
          />
        </>
      ) : null}
    </Stack>
  );
}

import { INVESTIGATION_STEPS, type Incident, type IncidentFormData } from '@bulwark/domain';
import { Alert, Button, Grid, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState, type ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { PageHeader, PageLoader, RecordLoadFailed, useConfirm } from '../../ui/index.js';
import { InvestigationBadge, RatingBadge, RiskBadge, StatusBadge } from './badges.js';
import { useIncident, useIncidentCommands, useIncidentFormData, useIncidentsRefresh, useIsGuest } from './incidents-api.js';
import { StepActions } from './step-actions.js';
import { StepFacts } from './step-facts.js';
import { StepFactors } from './step-factors.js';
import { StepRecord } from './step-record.js';
import { StepReport } from './step-report.js';
import { StepTeam } from './step-team.js';
import { StepWhy } from './step-why.js';
import type { StepProps } from './step-props.js';
import { Stepper } from './stepper.js';

const STEPS: ComponentType<StepProps>[] = [StepReport, StepTeam, StepFacts, StepFactors, StepWhy, StepActions, StepRecord];

/** /incidents/:id/steps/step1…step7: the incident, where its investigation stands, and the step shown. */
export function IncidentStepsPage() {
  const { t } = useTranslation();
  const { id = '' } = useParams();
  const { pathname } = useLocation();
  const shown = Math.min(7, Math.max(1, Number(/\/step(\d)\/?$/.exec(pathname)?.[1] ?? 1)));
  const record = useIncident(id);
  const formData = useIncidentFormData();
  if (record.isError)
    return (
      <RecordLoadFailed
        title={t('incidents.singular')}
        error={record.error}
        notFoundText={t('incidentsWeb.notFound')}
        backTo="/incidents"
      />
    );
  if (formData.isError)
    return (
      <RecordLoadFailed title={t('incidents.singular')} error={formData.error} notFoundText={t('kit.loadFailed')} backTo="/incidents" />
    );
  if (!record.data || !formData.data) return <PageLoader />;
  return <Steps incident={record.data} formData={formData.data} shown={shown} />;
}

function Steps({ incident: o, formData, shown }: { incident: Incident; formData: IncidentFormData; shown: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const guest = useIsGuest();
  const Step = STEPS[shown - 1]!;
  const notNeeded = !o.investigation_required && shown > 1 && shown < 7;

  return (
    <>
      <PageHeader
        title={`${o.serial_label} · ${t(`categories.types.${o.type}`)}`}
        description={`${o.site_node?.full_name ?? o.site.name}`}
        actions={guest ? null : <RecordActions incident={o} />}
      />
      <Group gap="xs" mb="md" wrap="wrap">
        <StatusBadge status={o.status} />
        <RatingBadge severity={o.severity} pending={o.rating_pending} />
        <RiskBadge level={o.risk_level} />
        <InvestigationBadge state={o.investigation.state} />
      </Group>
      <Grid gap="md">
        <Grid.Col span={{ base: 12, md: 3 }}>
          <Stepper incident={o} shown={shown} />
        </Grid.Col>
        <Grid.Col span={{ base: 12, md: 9 }}>
          <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="step-title">
            <Stack gap="sm">
              <Stack gap={2}>
                <Text size="xs" c="dimmed">
                  {t('incidentsWeb.steps.stepOf', { n: shown })}
                </Text>
                <Title order={2} size="h3" id="step-title">
                  {t(`incidents.steps.${INVESTIGATION_STEPS[shown - 1]!}`)}
                </Title>
                <Text size="sm" c="dimmed">
                  {t(`incidentsWeb.steps.help.${INVESTIGATION_STEPS[shown - 1]!}`)}
                </Text>
              </Stack>
              {notNeeded ? (
                <Alert color="gray">{t('incidentsWeb.steps.notNeeded')}</Alert>
              ) : (
                <Step
                  key={`${o.id}-${shown}`}
                  incident={o}
                  formData={formData}
                  onSaved={() => void navigate(`/incidents/${o.id}/steps/step${Math.min(7, shown + 1)}`)}
                />
              )}
            </Stack>
          </Paper>
        </Grid.Col>
      </Grid>
    </>
  );
}

/** The report's ways out (printable page, PDF) and deleting, when the server allows it. */
function RecordActions({ incident: o }: { incident: Incident }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const commands = useIncidentCommands();
  const refresh = useIncidentsRefresh();
  const [confirm, dialog] = useConfirm();
  const [busy, setBusy] = useState(false);

  async function pdf() {
    setBusy(true);
    try {
      await commands.downloadPdf(o.id);
    } catch {
      // The HTTP client has shown the error.
    } finally {
      setBusy(false);
    }
  }

  async function remove() {
    if (
      !(await confirm({
        message: t('incidentsWeb.delete.confirm', { serial: o.serial_label }),
        confirmLabel: t('incidentsWeb.delete.button'),
        danger: true,
      }))
    )
      return;
    try {
      await commands.remove(o.id);
      notifySuccess(t('incidentsWeb.delete.done', { serial: o.serial_label }));
      await refresh();
      void navigate('/incidents');
    } catch {
      // The HTTP client has shown the refusal.
    }
  }

  return (
    <>
      <Button component={Link} to={`/incidents/${o.id}/report`} variant="default">
        {t('incidentsWeb.report.open')}
      </Button>
      <Button variant="default" loading={busy} onClick={() => void pdf()}>
        {t('incidentsWeb.report.downloadPdf')}
      </Button>
      {o.permissions.delete ? (
        <Button variant="subtle" color="red" onClick={() => void remove()}>
          {t('incidentsWeb.delete.button')}
        </Button>
      ) : null}
      {dialog}
    </>
  );
}

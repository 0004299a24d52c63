import { Alert, Button, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { PageHeader, PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { IncidentList } from './incident-list.js';
import { useIncidentFormData, useIncidentRight, useIsGuest } from './incidents-api.js';
import { ReportForm } from './report-form.js';

/**
 * The `incidents` screen: /incidents is the list, /incidents/new the report form. The report is long
 * (victims, body diagram), so it gets the page's width rather than a side panel.
 */
export function IncidentsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const mayCreate = useIncidentRight('create');
  const guest = useIsGuest();
  const creating = /^\/incidents\/new\/?$/.test(pathname);

  if (creating) {
    return (
      <>
        <PageHeader
          title={t('screen.incidents')}
          actions={
            <Button component={Link} to="/incidents" variant="default">
              {t('incidentsWeb.list.backToList')}
            </Button>
          }
        />
        {mayCreate ? (
          <NewReport />
        ) : (
          <Alert color="yellow" role="alert" maw={720}>
            {t('incidentsWeb.form.mayNotReport')}
          </Alert>
        )}
      </>
    );
  }

  return (
    <>
      <PageHeader
        title={t('incidents.title')}
        actions={
          <>
            {guest ? null : (
              <Button component={Link} to="/incidents/osha" variant="default">
                {t('incidentsWeb.osha.menu')}
              </Button>
            )}
            {mayCreate ? (
              <Button component={Link} to="/incidents/new">
                {t('incidentsWeb.list.newIncident')}
              </Button>
            ) : null}
          </>
        }
      />
      <IncidentList />
    </>
  );
}

function NewReport() {
  const { t } = useTranslation();
  const formData = useIncidentFormData();
  if (formData.isError)
    return (
      <RecordLoadFailed
        title={t('incidentsWeb.form.newTitle')}
        error={formData.error}
        notFoundText={t('kit.loadFailed')}
        backTo="/incidents"
      />
    );
  if (!formData.data) return <PageLoader />;
  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} maw={900} component="section">
      <ReportForm formData={formData.data} record={null} />
    </Paper>
  );
}

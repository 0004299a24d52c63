import { Button, Grid, Paper } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useParams } from 'react-router';
import { PageHeader } from '../../ui/index.js';
import { ObservationFormPanel } from './observation-form.js';
import { ObservationList } from './observation-list.js';
import { ObservationSummary } from './observation-summary.js';
import { useObservationRight } from './observations-api.js';

type Mode = { kind: 'new' } | { kind: 'summary'; id: string } | { kind: 'edit'; id: string };

function modeOf(pathname: string, id: string | undefined): Mode {
  if (id && /\/observations\/edit\//.test(pathname)) return { kind: 'edit', id };
  if (id && /\/observations\/summary\//.test(pathname)) return { kind: 'summary', id };
  return { kind: 'new' };
}

/**
 * The `observations` screen: new, summary/:id and edit/:id are children of the list, so the list stays
 * on the left and the record opens in the right panel. On a phone the panel comes first: field staff
 * come here to report.
 */
export function ObservationsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const { id } = useParams();
  const mode = modeOf(pathname, id);
  const mayCreate = useObservationRight('create');
  const selected = mode.kind === 'new' ? null : mode.id;

  const panel =
    mode.kind === 'summary' ? (
      <ObservationSummary key={mode.id} id={mode.id} />
    ) : mode.kind === 'edit' ? (
      <ObservationFormPanel key={`e-${mode.id}`} id={mode.id} />
    ) : mayCreate ? (
      <ObservationFormPanel key="new" id={null} />
    ) : null;

  return (
    <>
      <PageHeader
        title={t('observations.title')}
        actions={
          mode.kind !== 'new' && mayCreate ? (
            <Button component={Link} to="/observations/new">
              {t('observations.list.newObservation')}
            </Button>
          ) : null
        }
      />
      <Grid gap="md">
        {panel ? (
          <Grid.Col span={{ base: 12, lg: 5 }} order={{ base: 1, lg: 2 }}>
            <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section">
              {panel}
            </Paper>
          </Grid.Col>
        ) : null}
        <Grid.Col span={{ base: 12, lg: panel ? 7 : 12 }} order={{ base: 2, lg: 1 }}>
          <ObservationList selectedId={selected} />
        </Grid.Col>
      </Grid>
    </>
  );
}

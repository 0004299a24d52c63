import { Affix, Button, Drawer } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { NavIcon } from '../../app/shell/nav-icons.js';
import { PageHeader } from '../../ui/index.js';
import { ObservationFormPanel } from './observation-form.js';
import { ObservationList } from './observation-list.js';
import { ObservationSummary } from './observation-summary.js';
import { useIsGuest, useObservationRight } from './observations-api.js';

type Mode = { kind: 'new' } | { kind: 'list' } | { kind: 'summary'; id: string } | { kind: 'edit'; id: string };

function modeOf(pathname: string, id: string | undefined): Mode {
  if (/^\/observations\/new\/?$/.test(pathname)) return { kind: 'new' };
  if (id && /\/observations\/edit\//.test(pathname)) return { kind: 'edit', id };
  if (id && /\/observations\/summary\//.test(pathname)) return { kind: 'summary', id };
  // /observations, and a guest's "my reports" (/observations/mine: the server answers its own reports only).
  return { kind: 'list' };
}

/**
 * The `observations` screen (issue 15): the list has the whole width; the form and the record open on
 * demand in a drawer over it (the whole screen on a phone), so the list keeps its filters and page.
 * On a phone the list comes first with a floating "Report" button.
 */
export function ObservationsPage() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const { id } = useParams();
  const mode = modeOf(pathname, id);
  const mayCreate = useObservationRight('create');
  const guest = useIsGuest();
  const phone = useMediaQuery('(max-width: 48em)') ?? false;
  const selected = mode.kind === 'summary' || mode.kind === 'edit' ? mode.id : null;
  const listPath = guest ? '/observations/mine' : '/observations';

  const panel =
    mode.kind === 'summary' ? (
      <ObservationSummary key={mode.id} id={mode.id} />
    ) : mode.kind === 'edit' ? (
      <ObservationFormPanel key={`e-${mode.id}`} id={mode.id} />
    ) : mode.kind === 'new' && mayCreate ? (
      <ObservationFormPanel key="new" id={null} />
    ) : null;

  // A saved or newly opened record starts at its top: its number, status and next buttons.
  useEffect(() => {
    document.querySelector('[data-observation-panel]')?.closest('.mantine-Drawer-content')?.scrollTo({ top: 0 });
  }, [pathname]);

  return (
    <>
      <PageHeader
        title={t(mode.kind === 'list' && guest ? 'observations.guest.menuMine' : 'observations.title')}
        actions={
          mayCreate ? (
            <Button component={Link} to="/observations/new" visibleFrom="sm" leftSection={<NavIcon name="plus" size={16} />}>
              {t('observations.form.newTitle')}
            </Button>
          ) : null
        }
      />
      <ObservationList selectedId={selected} />
      <Drawer
        opened={panel !== null}
        onClose={() => void navigate(listPath)}
        position="right"
        size={phone ? '100%' : 640}
        title={t('observations.title')}
        closeButtonProps={{ 'aria-label': t('home.list.closePanel') }}
        padding={phone ? 'sm' : 'md'}
      >
        <div data-observation-panel>{panel}</div>
      </Drawer>
      {mayCreate && panel === null ? (
        <Affix position={{ bottom: 16, right: 16 }} zIndex={500} hiddenFrom="sm">
          <Button component={Link} to="/observations/new" size="lg" radius="xl" leftSection={<NavIcon name="plus" size={18} />}>
            {t('home.list.report')}
          </Button>
        </Affix>
      ) : null}
    </>
  );
}

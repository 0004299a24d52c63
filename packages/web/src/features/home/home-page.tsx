import { Alert, Button, Grid, Group, Skeleton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { NavIcon } from '../../app/shell/nav-icons.js';
import { useProfile } from '../../app/use-profile.js';
import { PageHeader } from '../../ui/index.js';
import { MyActions, MyReports, MyReviews, OpenByRisk } from './home-cards.js';
import { useHome, useStartableWork } from './home-api.js';

/**
 * The home (`/`): what waits for me (my actions, my reviews), what I started (my reports), the
 * organisation's open observations of the month, and the work I may start. Until a dashboard module
 * exists this is everyone's landing page.
 */
export function HomePage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const home = useHome();
  const start = useStartableWork();
  const name = profile?.user.full_name.split(/\s+/)[0] ?? '';
  const myActionsPath = profile && start.readsActions ? `/actions/all?responsible_id=${profile.user.id}` : null;

  const starts = [
    start.observation && { to: '/observations/new', label: t('home.start.observation'), primary: true },
    start.incident && { to: '/incidents/new', label: t('home.start.incident'), primary: false },
    start.action && { to: '/actions/new', label: t('home.start.action'), primary: false },
    start.safetyInteraction && { to: '/safety-interactions/new', label: t('home.start.safetyInteraction'), primary: false },
  ].filter((x): x is { to: string; label: string; primary: boolean } => Boolean(x));

  return (
    <>
      <PageHeader
        title={t('screen.dashboard')}
        description={`${t('home.greeting', { name })} · ${t('home.intro')}`}
        actions={
          starts.length > 0 ? (
            <Group gap="xs" wrap="wrap" role="group" aria-label={t('home.start.heading')}>
              {starts.map((s) => (
                <Button
                  key={s.to}
                  component={Link}
                  to={s.to}
                  variant={s.primary ? 'filled' : 'default'}
                  leftSection={<NavIcon name="plus" size={16} />}
                >
                  {s.label}
                </Button>
              ))}
            </Group>
          ) : null
        }
      />
      {home.isError ? (
        <Alert color="red" role="alert">
          {t('home.loadFailed')}
        </Alert>
      ) : !home.data ? (
        <Grid aria-busy>
          {[0, 1, 2, 3].map((i) => (
            <Grid.Col key={i} span={{ base: 12, md: 6 }}>
              <Skeleton h={180} radius="md" />
            </Grid.Col>
          ))}
        </Grid>
      ) : (
        <Grid>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <MyActions data={home.data.my_actions} mayStart={start.action} allPath={myActionsPath} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <MyReviews data={home.data.my_reviews} />
          </Grid.Col>
          <Grid.Col span={{ base: 12, md: 6 }}>
            <MyReports data={home.data.my_reports} mayReport={start.observation} />
          </Grid.Col>
          {home.data.open_observations_by_risk ? (
            <Grid.Col span={{ base: 12, md: 6 }}>
              <OpenByRisk data={home.data.open_observations_by_risk} />
            </Grid.Col>
          ) : null}
        </Grid>
      )}
    </>
  );
}

import { Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import classes from '../../ui/print-report.module.css';

const TABS = [
  { path: '/si-dashboard', label: 'safetyInteractions.nav.dashboard' },
  { path: '/safety-interactions', label: 'safetyInteractions.nav.list' },
  { path: '/safety-interactions/summary', label: 'safetyInteractions.nav.summary' },
  { path: '/safety-interactions/scheduling', label: 'safetyInteractions.nav.scheduling' },
] as const;

/** The module's four views, as links; hidden when printing. */
export function SiNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const active = TABS.find((x) => x.path === pathname.replace(/\/$/, ''))?.path ?? null;
  return (
    <Tabs value={active} onChange={(v) => v && void navigate(v)} mb="md" className={classes.noPrint}>
      <Tabs.List style={{ flexWrap: 'nowrap', overflowX: 'auto' }}>
        {TABS.map((x) => (
          <Tabs.Tab key={x.path} value={x.path}>
            {t(x.label)}
          </Tabs.Tab>
        ))}
      </Tabs.List>
    </Tabs>
  );
}

import { Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useAuditRight } from './audits-api.js';

const LINKS = [
  { to: '/audit-summary', key: 'summary', match: (p: string) => p === '/audit-summary' },
  { to: '/audits/scheduled', key: 'list', match: (p: string) => p.startsWith('/audits/') },
  { to: '/audit-calendar', key: 'calendar', match: (p: string) => p === '/audit-calendar' },
  { to: '/audit-schedules', key: 'schedules', match: (p: string) => p === '/audit-schedules' },
  { to: '/audit-trends', key: 'trends', match: (p: string) => p === '/audit-trends' },
  { to: '/audit-forms', key: 'templates', match: (p: string) => p.startsWith('/audit-forms') },
] as const;

/**
 * The audit screens' own links (the side menu has one entry, the summary): summary, lists, calendar,
 * schedules, trends and templates. They wrap on a phone rather than scroll.
 */
export function AuditsNav() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const templates = useAuditRight('Audit Template', 'read');
  return (
    <Group component="nav" aria-label={t('auditsWeb.nav.label')} gap={4} mb="sm" wrap="wrap">
      {LINKS.filter((l) => l.key !== 'templates' || templates).map((l) => {
        const current = l.match(pathname);
        return (
          <Button
            key={l.key}
            component={Link}
            to={l.to}
            size="compact-sm"
            variant={current ? 'light' : 'subtle'}
            color={current ? undefined : 'gray'}
            aria-current={current ? 'page' : undefined}
          >
            {t(`auditsWeb.nav.${l.key}`)}
          </Button>
        );
      })}
    </Group>
  );
}

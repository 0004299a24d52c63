import type { Audit } from '@bulwark/domain';
import { Badge, Button, Group } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

type Page = 'summary' | 'audit' | 'keyfindings' | 'actionitems' | 'report';

/** The pages of one audit (spec 001 §2 children of /audits/{id}): summary, the audit itself, key findings, action items, report. */
export function RecordNav({ audit: a, current }: { audit: Audit; current: Page }) {
  const { t } = useTranslation();
  const links: Array<{ page: Page; to: string; count?: number }> = [
    { page: 'summary', to: `/audits/${a.id}/summary` },
    { page: 'audit', to: `/audits/${a.id}/audit/1` },
    { page: 'keyfindings', to: `/audits/${a.id}/keyfindings`, count: a.key_findings.length },
    { page: 'actionitems', to: `/audits/${a.id}/actionitems`, count: a.actions.length },
    { page: 'report', to: `/audits/${a.id}/report` },
  ];
  return (
    <Group component="nav" aria-label={t('auditsWeb.record.pages')} gap={4} wrap="wrap">
      {links.map((l) => (
        <Button
          key={l.page}
          component={Link}
          to={l.to}
          size="compact-sm"
          variant={l.page === current ? 'light' : 'subtle'}
          color={l.page === current ? undefined : 'gray'}
          aria-current={l.page === current ? 'page' : undefined}
          rightSection={
            l.count ? (
              <Badge size="xs" variant="light" color="gray" circle>
                {l.count}
              </Badge>
            ) : undefined
          }
        >
          {t(`auditsWeb.record.nav.${l.page}`)}
        </Button>
      ))}
    </Group>
  );
}

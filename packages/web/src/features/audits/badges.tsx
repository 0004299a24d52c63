import type { AuditIcon as AuditIconName, AuditStatus } from '@bulwark/domain';
import { Badge, Group, Text, ThemeIcon, type MantineSize } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { points } from './run-model.js';

const STATUS_COLOR: Record<AuditStatus, string> = {
  scheduled: 'blue',
  in_progress: 'cyan',
  overdue: 'orange',
  completed: 'violet',
  approved: 'teal',
  rejected: 'red',
};

export function AuditStatusBadge({ status, late, size = 'md' }: { status: AuditStatus; late?: boolean; size?: MantineSize }) {
  const { t } = useTranslation();
  return (
    <Group gap={4} wrap="wrap">
      <Badge color={STATUS_COLOR[status]} variant="light" size={size}>
        {t(`audits.statuses.${status}`)}
      </Badge>
      {late && status !== 'overdue' ? (
        <Badge color="orange" variant="outline" size={size}>
          {t('audits.fields.late')}
        </Badge>
      ) : null}
    </Group>
  );
}

/** A score's colour: good from 85 %, fair from 60 %, poor below. */
export function scoreColor(percent: number | null): string {
  if (percent === null) return 'gray';
  if (percent >= 85) return 'teal';
  if (percent >= 60) return 'yellow';
  return 'red';
}

/** "17 of 20 (85 %)", or "Not scored". */
export function ScoreText({
  obtained,
  assigned,
  percent,
  size = 'sm',
}: {
  obtained: number;
  assigned: number;
  percent: number | null;
  size?: MantineSize;
}) {
  const { t } = useTranslation();
  if (percent === null)
    return (
      <Text size={size} c="dimmed">
        {t('audits.report.scoreNone')}
      </Text>
    );
  return (
    // The colour's text shade (theme.ts): readable on light and dark pages, where yellow.8 was not.
    <Text size={size} fw={600} style={{ color: `var(--mantine-color-${scoreColor(percent)}-text)` }}>
      {t('audits.fields.scoreOf', { obtained: points(obtained), assigned: points(assigned), percent: points(percent) })}
    </Text>
  );
}

export function PercentBadge({ percent }: { percent: number | null }) {
  const { t } = useTranslation();
  return (
    <Badge color={scoreColor(percent)} variant={percent === null ? 'outline' : 'light'}>
      {percent === null ? t('auditsWeb.common.noScore') : `${points(percent)} %`}
    </Badge>
  );
}

/** Simple line drawings, one per template icon (drawn here: no icon font is loaded). */
const PATHS: Record<AuditIconName, ReactNode> = {
  clipboard: (
    <>
      <rect x="5" y="4" width="14" height="17" rx="2" />
      <path d="M9 4h6v3H9zM8.5 12l2.5 2.5 4.5-5" />
    </>
  ),
  hard_hat: <path d="M3 17h18M5 17v-2a7 7 0 0 1 14 0v2M10 8V5h4v3" />,
  fire: <path d="M12 3c1 4 5 5.5 5 10a5 5 0 0 1-10 0c0-2.5 1.5-3.5 2.5-5 .5 2 1.5 2.5 2.5 2.5 0-2.5-1-5 0-7.5z" />,
  forklift: <path d="M4 17V8h6l3 5v4M13 17h3M16 5v12h4M7 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z" />,
  chemical: <path d="M9 3h6M10 3v6l-5 9a2 2 0 0 0 2 3h10a2 2 0 0 0 2-3l-5-9V3M7.5 15h9" />,
  electric: <path d="M13 3 6 13h5l-1 8 7-10h-5z" />,
  first_aid: (
    <>
      <rect x="4" y="4" width="16" height="16" rx="3" />
      <path d="M12 8v8M8 12h8" />
    </>
  ),
  leaf: <path d="M5 19c0-9 6-14 15-14 0 9-5 15-14 15M5 19l7-7" />,
  building: <path d="M5 21V4h9v17M14 9h5v12M3 21h18M8 8h2M8 12h2M8 16h2" />,
  truck: <path d="M3 6h11v10H3zM14 10h4l3 3v3h-7M7 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4zM17 19a2 2 0 1 0 0-4 2 2 0 0 0 0 4z" />,
};

export function AuditIcon({ icon, size = 'lg' }: { icon: AuditIconName; size?: MantineSize }) {
  return (
    <ThemeIcon variant="light" size={size} radius="md" aria-hidden>
      <svg
        width="70%"
        height="70%"
        viewBox="0 0 24 24"
        fill="none"
        stroke="currentColor"
        strokeWidth="1.8"
        strokeLinecap="round"
        strokeLinejoin="round"
      >
        {PATHS[icon]}
      </svg>
    </ThemeIcon>
  );
}

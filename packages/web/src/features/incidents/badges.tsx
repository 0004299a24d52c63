import type { IncidentRiskLevel, IncidentSeverity, IncidentStatus, InvestigationState } from '@bulwark/domain';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const STATUS_COLOR: Record<IncidentStatus, string> = { open: 'blue', overdue: 'red', closed: 'gray' };
const SEVERITY_COLOR: Record<IncidentSeverity, string> = {
  minor: 'green',
  serious: 'yellow',
  major: 'orange',
  fatal: 'red',
  critical: 'grape',
};
const RISK_COLOR: Record<IncidentRiskLevel, string> = { low: 'green', medium: 'yellow', high: 'orange', critical: 'red' };
const STATE_COLOR: Record<InvestigationState, string> = {
  not_required: 'gray',
  awaiting_team: 'yellow',
  in_progress: 'blue',
  under_review: 'violet',
  returned: 'orange',
  approved: 'teal',
};

/** A badge never shrinks to "OP…" in a narrow column: the column grows or the text wraps elsewhere. */
const WHOLE = { minWidth: 'max-content' } as const;

export function StatusBadge({ status }: { status: IncidentStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" style={WHOLE}>
      {t(`incidents.statuses.${status}`)}
    </Badge>
  );
}

/** The severity, or "Rating pending" until both severity and likelihood are set. */
export function RatingBadge({ severity, pending }: { severity: IncidentSeverity | null; pending: boolean }) {
  const { t } = useTranslation();
  if (pending || !severity)
    return (
      <Badge color="yellow" variant="outline" style={WHOLE}>
        {t('incidents.ratingPending')}
      </Badge>
    );
  return (
    <Badge color={SEVERITY_COLOR[severity]} variant="outline" style={WHOLE}>
      {t(`incidents.severities.${severity}`)}
    </Badge>
  );
}

export function RiskBadge({ level }: { level: IncidentRiskLevel | null }) {
  const { t } = useTranslation();
  if (!level) return null;
  return (
    <Badge color={RISK_COLOR[level]} variant="filled" style={WHOLE}>
      {t('incidentsWeb.riskBadge', { level: t(`incidents.riskLevels.${level}`) })}
    </Badge>
  );
}

export function InvestigationBadge({ state }: { state: InvestigationState }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATE_COLOR[state]} variant="dot" style={WHOLE}>
      {t(`incidents.investigationStates.${state}`)}
    </Badge>
  );
}

import type { ObservationRiskLevel, ObservationStatus } from '@bulwark/domain';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const STATUS_COLOR: Record<ObservationStatus, string> = {
  open: 'blue',
  in_progress: 'yellow',
  overdue: 'red',
  completed: 'teal',
  closed: 'gray',
};

const RISK_COLOR: Record<ObservationRiskLevel, string> = { low: 'green', medium: 'yellow', high: 'orange', critical: 'red' };

/** A badge never shrinks to "OP…" in a narrow table column: the column grows or the table scrolls. */
const WHOLE = { minWidth: 'max-content' } as const;

export function StatusBadge({ status }: { status: ObservationStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light" style={WHOLE}>
      {t(`observations.statuses.${status}`)}
    </Badge>
  );
}

export function RiskBadge({ level }: { level: ObservationRiskLevel }) {
  const { t } = useTranslation();
  return (
    <Badge color={RISK_COLOR[level]} variant="outline" style={WHOLE}>
      {t(`observations.riskLevels.${level}`)}
    </Badge>
  );
}

import type { PermitStatus } from '@bulwark/domain';
import { Badge } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export const STATUS_COLOR: Record<PermitStatus, string> = {
  draft: 'gray',
  requested: 'blue',
  approved: 'teal',
  extended: 'cyan',
  pending_closure: 'yellow',
  overdue: 'red',
  rejected: 'red',
  revoked: 'grape',
  closed: 'dark',
};

export function PermitStatusBadge({ status, size = 'md' }: { status: PermitStatus; size?: 'sm' | 'md' | 'lg' | 'xl' }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant={status === 'closed' ? 'outline' : 'light'} size={size} style={{ flexShrink: 0 }}>
      {t(`permits.statuses.${status}`)}
    </Badge>
  );
}

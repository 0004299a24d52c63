import type { PermitClash } from '@bulwark/domain';
import { Alert, Anchor, List, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormats } from '../../ui/format.js';

/**
 * Permits of a conflicting type at an overlapping area and time, as the server found them: shown to
 * the requester before submitting and to the approver before deciding.
 */
export function ClashList({ clashes, links = true }: { clashes: readonly PermitClash[]; links?: boolean }) {
  const { t } = useTranslation();
  const f = useFormats();
  if (clashes.length === 0) return null;
  return (
    <Alert color="orange" title={t('permitsWeb.clashes.title', { count: clashes.length })} role="alert">
      <Text size="sm" mb={6}>
        {t('permitsWeb.clashes.help')}
      </Text>
      <List size="sm" spacing={4}>
        {clashes.map((c) => (
          <List.Item key={c.permit_id}>
            {links ? (
              <Anchor component={Link} to={`/permit/${c.permit_id}/summary`} fw={600}>
                {c.number}
              </Anchor>
            ) : (
              <Text span fw={600}>
                {c.number}
              </Text>
            )}{' '}
            {t('permitsWeb.clashes.line', {
              type: c.template.name,
              status: t(`permits.statuses.${c.status}`),
              area: c.area_name ?? t('permits.board.wholeSite'),
              from: f.local(c.start_at),
              to: f.local(c.end_at),
            })}
          </List.Item>
        ))}
      </List>
    </Alert>
  );
}

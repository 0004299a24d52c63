import { WEBHOOK_TIMEOUT_SECONDS, type WebhookDelivery, type WebhookDeliveryStatus } from '@bulwark/domain';
import { Badge, Stack, Text } from '@mantine/core';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';

const STATUS_COLOR: Record<WebhookDeliveryStatus, string> = { pending: 'yellow', delivered: 'teal', failed: 'red' };

export function DeliveryStatus({ status }: { status: WebhookDeliveryStatus }) {
  const { t } = useTranslation();
  return (
    <Badge color={STATUS_COLOR[status]} variant="light">
      {t(`webhooks.statuses.${status}`)}
    </Badge>
  );
}

/**
 * What the receiver answered, in a line: its HTTP status, or why it was not reached (the server keeps an
 * i18n key in `error`, with the network's reason in `response_excerpt`).
 */
export function answerSummary(d: WebhookDelivery, t: TFunction): string {
  if (d.error) return t(d.error, { reason: d.response_excerpt ?? '', seconds: WEBHOOK_TIMEOUT_SECONDS });
  if (d.response_status !== null) return t('webhooks.httpStatus', { status: d.response_status });
  return d.attempts === 0 ? t('webhooks.statuses.pending') : t('webhooks.unreachable');
}

/** The answer cell of the deliveries list: the summary, and the start of the receiver's body. */
export function DeliveryAnswer({ delivery }: { delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  const excerpt = delivery.response_status !== null ? delivery.response_excerpt : null;
  return (
    <Stack gap={2} style={{ minWidth: 0 }}>
      <Text size="sm" c={delivery.error || (delivery.response_status ?? 200) >= 300 ? 'red' : undefined}>
        {answerSummary(delivery, t)}
      </Text>
      {excerpt ? (
        <Text size="xs" c="dimmed" ff="monospace" lineClamp={3} style={{ overflowWrap: 'anywhere' }}>
          {excerpt}
        </Text>
      ) : null}
    </Stack>
  );
}

import type { WebhookDelivery } from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { DataTable, PageLoader, type Column } from '../../ui/index.js';
import { useWebhookDeliveries, useWebhooks } from './integrations-api.js';
import { useEndpointActions } from './webhook-actions.js';
import { DeliveryAnswer, DeliveryStatus } from './webhook-delivery.js';

const LIST = '/integrations/webhooks';

/** One endpoint: its address, events and switch, its actions, and its deliveries with the receiver's answers. */
export function WebhookDetail({ id }: { id: string }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const navigate = useNavigate();
  const list = useWebhooks();
  const actions = useEndpointActions(list.data?.events ?? [], () => void navigate(LIST, { replace: true }));
  const [page, setPage] = useState(1);
  const endpoint = list.data?.endpoints.find((e) => e.id === id);
  const deliveries = useWebhookDeliveries(id, page, Boolean(endpoint));

  const back = (
    <Anchor component={Link} to={LIST} size="sm">
      {`← ${t('webhooks.back')}`}
    </Anchor>
  );

  if (list.isPending) return <PageLoader />;
  if (list.isError || !endpoint) {
    return (
      <Stack>
        {back}
        <Alert color="red" role="alert">
          {list.isError ? t('kit.loadFailed') : t('webhooks.notFound')}
        </Alert>
        {actions.dialogs}
      </Stack>
    );
  }

  const columns: Column<WebhookDelivery>[] = [
    {
      key: 'event',
      header: t('webhooks.event'),
      render: (d) => (
        <Stack gap={2}>
          <Text size="xs" ff="monospace" style={{ overflowWrap: 'anywhere' }}>
            {d.event}
          </Text>
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {fmt.instant(d.created_at)}
          </Text>
        </Stack>
      ),
    },
    { key: 'status', header: t('webhooks.status'), render: (d) => <DeliveryStatus status={d.status} /> },
    { key: 'attempts', header: t('webhooks.attempts'), hideOnPhone: true, width: 90, render: (d) => <Text size="sm">{d.attempts}</Text> },
    { key: 'answer', header: t('webhooks.answer'), render: (d) => <DeliveryAnswer delivery={d} /> },
    {
      key: 'sent',
      header: t('webhooks.sentAt'),
      hideOnPhone: true,
      render: (d) => (
        <Stack gap={0}>
          <Text size="sm">{fmt.instant(d.created_at)}</Text>
          {d.last_attempt_at ? (
            <Text size="xs" c="dimmed">
              {`${t('webhooks.lastAttempt')}: ${fmt.instant(d.last_attempt_at)}`}
            </Text>
          ) : null}
        </Stack>
      ),
    },
  ];

  return (
    <Stack>
      {back}
      <Paper withBorder radius="md" p="md">
        <Stack gap="sm">
          <Group justify="space-between" align="flex-start" wrap="wrap" gap="xs">
            <Stack gap={2} style={{ minWidth: 0, flex: '1 1 220px' }}>
              <Title order={2} size="h5" style={{ overflowWrap: 'anywhere' }}>
                {endpoint.url}
              </Title>
              {endpoint.description ? (
                <Text size="sm" c="dimmed">
                  {endpoint.description}
                </Text>
              ) : null}
            </Stack>
            <Badge color={endpoint.active ? 'teal' : 'gray'} variant="light">
              {endpoint.active ? t('webhooks.active') : t('webhooks.paused')}
            </Badge>
          </Group>
          <Group gap={6}>
            {endpoint.events.map((e) => (
              <Badge key={e} variant="outline" color="gray" tt="none">
                {e}
              </Badge>
            ))}
          </Group>
          <Group gap="xs" wrap="wrap">
            <Button
              size="xs"
              onClick={() => void actions.sendTest(endpoint)}
              loading={actions.busy === `${id}:test`}
              disabled={!endpoint.active}
            >
              {t('webhooks.sendTest')}
            </Button>
            <Button size="xs" variant="default" onClick={() => actions.edit(endpoint)}>
              {t('kit.edit')}
            </Button>
            <Button size="xs" variant="default" onClick={() => void actions.rotate(endpoint)} loading={actions.busy === `${id}:rotate`}>
              {t('webhooks.rotate')}
            </Button>
            <Button
              size="xs"
              color="red"
              variant="light"
              onClick={() => void actions.remove(endpoint)}
              loading={actions.busy === `${id}:remove`}
            >
              {t('webhooks.remove')}
            </Button>
          </Group>
        </Stack>
      </Paper>
      <Title order={3} size="h5">
        {t('webhooks.deliveries')}
      </Title>
      <DataTable
        columns={columns}
        rows={deliveries.data?.deliveries}
        rowKey={(d) => d.id}
        error={deliveries.isError}
        loading={deliveries.isFetching}
        emptyText={t('webhooks.noDeliveries')}
        emptyAction={
          endpoint.active ? (
            <Button size="xs" variant="light" onClick={() => void actions.sendTest(endpoint)} loading={actions.busy === `${id}:test`}>
              {t('webhooks.sendTest')}
            </Button>
          ) : undefined
        }
        pagination={deliveries.data?.pagination}
        onPage={setPage}
        caption={t('webhooks.deliveries')}
      />
      {actions.dialogs}
    </Stack>
  );
}

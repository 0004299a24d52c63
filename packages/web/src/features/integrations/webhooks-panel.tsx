import type { WebhookEndpoint } from '@bulwark/domain';
import { Accordion, Anchor, Button, Code, Group, Menu, Stack, Switch, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { DataTable, type Column } from '../../ui/index.js';
import { useWebhooks } from './integrations-api.js';
import { useEndpointActions, type EndpointActions } from './webhook-actions.js';
import { DeliveryStatus } from './webhook-delivery.js';

/** The few lines a receiver needs (Node); the same check as the server's `verifyWebhook`. */
export const VERIFY_SNIPPET = `import { createHmac, timingSafeEqual } from 'node:crypto';

// rawBody: the request body exactly as received (a string), before any JSON parsing.
function verify(secret, header, rawBody) {
  const parts = Object.fromEntries(header.split(',').map((p) => p.trim().split('=')));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || Math.abs(Date.now() / 1000 - t) > 300) return false;
  const expected = createHmac('sha256', secret).update(\`\${t}.\${rawBody}\`).digest('hex');
  const given = String(parts.v1 ?? '');
  return given.length === expected.length && timingSafeEqual(Buffer.from(given), Buffer.from(expected));
}

// verify(process.env.BULWARK_WEBHOOK_SECRET, req.headers['bulwark-signature'], rawBody)`;

export const deliveriesPath = (id: string) => `/integrations/webhooks/${id}`;

/** The webhooks tab: the endpoints with their events, switch and newest delivery; each opens its deliveries. */
export function WebhooksPanel() {
  const { t } = useTranslation();
  const fmt = useFormats();
  const list = useWebhooks();
  const actions = useEndpointActions(list.data?.events ?? []);
  const endpoints = list.data?.endpoints;

  const add = (
    <Button onClick={actions.create} disabled={!list.data}>
      {t('webhooks.add')}
    </Button>
  );

  const columns: Column<WebhookEndpoint>[] = [
    {
      key: 'url',
      header: t('webhooks.url'),
      render: (e) => (
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Anchor
            component={Link}
            to={deliveriesPath(e.id)}
            size="sm"
            aria-label={t('webhooks.openDeliveries', { url: e.url })}
            style={{ overflowWrap: 'anywhere' }}
          >
            {e.url}
          </Anchor>
          {e.description ? (
            <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {e.description}
            </Text>
          ) : null}
          <Text size="xs" c="dimmed" hiddenFrom="sm">
            {t('webhooks.eventCount', { count: e.events.length })}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'events',
      header: t('webhooks.events'),
      hideOnPhone: true,
      render: (e) => <Text size="sm">{t('webhooks.eventCount', { count: e.events.length })}</Text>,
    },
    {
      key: 'active',
      header: t('webhooks.active'),
      width: 90,
      render: (e) => (
        <Switch
          checked={e.active}
          disabled={actions.busy === `${e.id}:active`}
          aria-label={`${t('webhooks.active')}: ${e.url}`}
          onChange={(ev) => void actions.setActive(e, ev.currentTarget.checked)}
        />
      ),
    },
    {
      key: 'last',
      header: t('webhooks.lastDelivery'),
      hideOnPhone: true,
      render: (e) =>
        e.last_delivery ? (
          <Stack gap={2}>
            <DeliveryStatus status={e.last_delivery.status} />
            <Text size="xs" c="dimmed">
              {fmt.instant(e.last_delivery.last_attempt_at ?? e.last_delivery.created_at)}
            </Text>
          </Stack>
        ) : (
          <Text size="sm" c="dimmed">
            {t('webhooks.noDelivery')}
          </Text>
        ),
    },
    { key: 'menu', header: '', width: 110, render: (e) => <EndpointMenu endpoint={e} actions={actions} /> },
  ];

  return (
    <Stack>
      <Text size="sm" c="dimmed">
        {t('webhooks.intro')}
      </Text>
      <Group justify="flex-end">{endpoints && endpoints.length > 0 ? add : null}</Group>
      <DataTable
        columns={columns}
        rows={endpoints}
        rowKey={(e) => e.id}
        error={list.isError}
        loading={list.isFetching}
        emptyText={t('webhooks.empty')}
        emptyAction={add}
        caption={t('webhooks.title')}
      />
      <SignatureGuide />
      {actions.dialogs}
    </Stack>
  );
}

/** Every action on one endpoint, in a menu so that a phone's row keeps its width. */
export function EndpointMenu({ endpoint: e, actions }: { endpoint: WebhookEndpoint; actions: EndpointActions }) {
  const { t } = useTranslation();
  const working = actions.busy?.startsWith(`${e.id}:`) ?? false;
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button size="xs" variant="default" loading={working} aria-label={t('webhooks.menuLabel', { url: e.url })}>
          {t('kit.actions')}
        </Button>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Item component={Link} to={deliveriesPath(e.id)}>
          {t('webhooks.deliveries')}
        </Menu.Item>
        <Menu.Item onClick={() => actions.edit(e)}>{t('kit.edit')}</Menu.Item>
        <Menu.Item onClick={() => void actions.sendTest(e)} disabled={!e.active}>
          {t('webhooks.sendTest')}
        </Menu.Item>
        <Menu.Item onClick={() => void actions.rotate(e)}>{t('webhooks.rotate')}</Menu.Item>
        <Menu.Divider />
        <Menu.Item color="red" onClick={() => void actions.remove(e)}>
          {t('webhooks.remove')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

/** How a receiver checks a delivery, with the code to copy. */
export function SignatureGuide() {
  const { t } = useTranslation();
  return (
    <Accordion variant="separated">
      <Accordion.Item value="guide">
        <Accordion.Control>{t('webhooks.guide')}</Accordion.Control>
        <Accordion.Panel>
          <Stack gap="sm">
            <Text size="sm">{t('webhooks.guideBody')}</Text>
            <Code block style={{ overflowX: 'auto', fontSize: 12 }}>
              {VERIFY_SNIPPET}
            </Code>
          </Stack>
        </Accordion.Panel>
      </Accordion.Item>
    </Accordion>
  );
}

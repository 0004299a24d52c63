import { Stack, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useNavigate, useParams } from 'react-router';
import { PageHeader } from '../../ui/index.js';
import { ApiTokensPanel } from './api-tokens-panel.js';
import { ExportPanel } from './export-panel.js';
import { WebhookDetail } from './webhook-detail.js';
import { WebhooksPanel } from './webhooks-panel.js';

const TABS = ['tokens', 'webhooks', 'export'] as const;
type Tab = (typeof TABS)[number];

const isTab = (value: string | undefined): value is Tab => (TABS as readonly string[]).includes(value ?? '');

/**
 * /integrations (admin): how other systems work with the organisation. API tokens of service accounts
 * (/integrations or /integrations/tokens), webhook endpoints (/integrations/webhooks, one endpoint's
 * deliveries at /integrations/webhooks/:id) and the full export (/integrations/export, where the
 * "export ready" notification leads). An unknown tab shows the first.
 */
export function IntegrationsPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { tab: param, id } = useParams();
  const tab: Tab = id ? 'webhooks' : isTab(param) ? param : 'tokens';

  return (
    <Stack maw={1100}>
      <PageHeader title={t('screen.integrations')} />
      <Tabs value={tab} onChange={(v) => void navigate(`/integrations/${v ?? 'tokens'}`)} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="tokens">{t('apiTokens.title')}</Tabs.Tab>
          <Tabs.Tab value="webhooks">{t('webhooks.title')}</Tabs.Tab>
          <Tabs.Tab value="export">{t('dataExport.title')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="tokens">
          <ApiTokensPanel />
        </Tabs.Panel>
        <Tabs.Panel value="webhooks">{id ? <WebhookDetail key={id} id={id} /> : <WebhooksPanel />}</Tabs.Panel>
        <Tabs.Panel value="export">
          <ExportPanel />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

import { Loader, Tabs } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { useProfile } from '../../app/use-profile.js';
import { PageHeader } from '../../ui/index.js';
import { MailerEditor } from './mailer-editor.js';
import { MailerModules } from './mailer-modules.js';
import { MailerScenarios } from './mailer-scenarios.js';
import { OutboxTab } from './outbox-tab.js';

/**
 * /mailers, /mailers/:module/:module_id and /mailers/:module/:module_id/scenario/:scenario_id (one
 * screen id in the route table): modules with an Outbox tab, a module's scenarios, a scenario's editor.
 */
export function MailersPage() {
  const { t } = useTranslation();
  const profile = useProfile();
  const params = useParams();
  const [search, setSearch] = useSearchParams();
  const orgId = profile?.user.organization_id;
  if (!orgId) return <Loader aria-label={t('common.loading')} />;

  const moduleId = Number(params['module_id']);
  if (params['module_id'] !== undefined && params['scenario_id'] !== undefined) {
    return <MailerEditor orgId={orgId} moduleId={moduleId} moduleKey={params['module'] ?? ''} scenarioId={params['scenario_id']} />;
  }
  if (params['module_id'] !== undefined) return <MailerScenarios orgId={orgId} moduleId={moduleId} />;

  const tab = search.get('tab') === 'outbox' ? 'outbox' : 'templates';
  return (
    <>
      <PageHeader title={t('screen.mailers')} description={t(tab === 'outbox' ? 'mailers.outbox.intro' : 'mailers.intro')} />
      <Tabs value={tab} onChange={(v) => setSearch(v === 'outbox' ? { tab: 'outbox' } : {}, { replace: true })} keepMounted={false}>
        <Tabs.List mb="md">
          <Tabs.Tab value="templates">{t('mailers.tabs.templates')}</Tabs.Tab>
          <Tabs.Tab value="outbox">{t('mailers.tabs.outbox')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="templates">
          <MailerModules orgId={orgId} />
        </Tabs.Panel>
        <Tabs.Panel value="outbox">
          <OutboxTab />
        </Tabs.Panel>
      </Tabs>
    </>
  );
}

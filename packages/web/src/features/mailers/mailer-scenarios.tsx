import type { MailerScenarioSummary } from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Group, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { DataTable, PageHeader, type Column } from '../../ui/index.js';
import { useMailerScenarios } from './mailers-api.js';

/** /mailers/:module/:module_id: the scenarios of one module and which languages the organisation customised. */
export function MailerScenarios({ orgId, moduleId }: { orgId: string; moduleId: number }) {
  const { t } = useTranslation();
  const query = useMailerScenarios(orgId, moduleId);
  const back = (
    <Anchor component={Link} to="/mailers">
      {t('mailers.backToModules')}
    </Anchor>
  );

  if (!(Number.isInteger(moduleId) && moduleId > 0) || (query.isError && isApiError(query.error) && query.error.status === 404)) {
    return (
      <>
        <PageHeader title={t('screen.mailers')} />
        <Alert color="yellow" role="alert" mb="md">
          {t('errors.not_found')}
        </Alert>
        {back}
      </>
    );
  }
  const module = query.data?.module;
  const title = module ? t(`mailers.modules.${module.key}`) : t('mailers.title');
  const columns: Column<MailerScenarioSummary>[] = [
    {
      key: 'name',
      header: t('mailers.title'),
      render: (s) => (
        <Group gap="xs">
          <Anchor component={Link} to={`/mailers/${module?.key}/${moduleId}/scenario/${s.id}`} fw={500}>
            {t(`mailers.scenarios.${s.id}`)}
          </Anchor>
          {s.mandatory ? (
            <Badge size="sm" variant="outline" title={t('mailers.mandatoryHint')}>
              {t('mailers.mandatory')}
            </Badge>
          ) : null}
        </Group>
      ),
    },
    {
      key: 'languages',
      header: t('mailers.customized'),
      hideOnPhone: true,
      render: (s) =>
        s.customized_languages.length === 0 ? (
          <Text c="dimmed" size="sm">
            {t('mailers.defaultText')}
          </Text>
        ) : (
          <Group gap={4}>
            {s.customized_languages.map((l) => (
              <Badge key={l} variant="light">
                {t(`languages.${l}`)}
              </Badge>
            ))}
          </Group>
        ),
    },
    {
      key: 'open',
      header: '',
      render: (s) => (
        <Button
          component={Link}
          to={`/mailers/${module?.key}/${moduleId}/scenario/${s.id}`}
          size="compact-sm"
          variant="light"
          aria-label={`${t('mailers.open')}: ${t(`mailers.scenarios.${s.id}`)}`}
        >
          {t('mailers.open')}
        </Button>
      ),
    },
  ];
  return (
    <>
      <PageHeader title={title} description={back} />
      <DataTable
        columns={columns}
        rows={query.data?.scenarios}
        rowKey={(s) => s.id}
        error={query.isError}
        emptyText={t('mailers.noScenarios')}
      />
    </>
  );
}

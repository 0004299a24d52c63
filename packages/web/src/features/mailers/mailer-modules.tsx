import { Alert, Badge, Card, Group, SimpleGrid, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../ui/index.js';
import { Link } from 'react-router';
import { useMailerModules } from './mailers-api.js';

/** The modules that send mail, each a link to its scenarios. */
export function MailerModules({ orgId }: { orgId: string }) {
  const { t } = useTranslation();
  const query = useMailerModules(orgId);
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('kit.loadFailed')}
      </Alert>
    );
  if (!query.data) return <PageLoader />;
  return (
    <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="md">
      {query.data.map((m) => (
        <Card
          key={m.id}
          withBorder
          radius="md"
          padding="md"
          component={Link}
          to={`/mailers/${m.key}/${m.id}`}
          aria-label={t(`mailers.modules.${m.key}`)}
        >
          <Text fw={600}>{t(`mailers.modules.${m.key}`)}</Text>
          <Group gap="xs" mt="xs">
            <Text size="sm" c="dimmed">
              {t('mailers.scenarioCount', { count: m.scenario_count })}
            </Text>
            {m.customized_count > 0 ? <Badge variant="light">{t('mailers.customizedCount', { count: m.customized_count })}</Badge> : null}
          </Group>
        </Card>
      ))}
    </SimpleGrid>
  );
}

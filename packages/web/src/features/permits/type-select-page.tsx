import { Alert, Badge, Card, Group, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useEnabledTemplates } from './permits-api.js';

/** /permit-form-questions/new: the first step of a request, choosing the permit type (a switched-on template). */
export function PermitTypeSelectPage() {
  const { t } = useTranslation();
  const templates = useEnabledTemplates();
  return (
    <Stack maw={960}>
      <PageHeader title={t('screen.permitTypeSelect')} description={t('permitsWeb.typeSelect.help')} />
      {templates.isLoading ? (
        <PageLoader />
      ) : templates.isError ? (
        <Alert color="red" role="alert">
          {isApiError(templates.error) && templates.error.status === 403 ? t('permitsWeb.typeSelect.noRight') : t('kit.loadFailed')}
        </Alert>
      ) : (templates.data ?? []).length === 0 ? (
        <Alert color="gray">{t('permitsWeb.typeSelect.empty')}</Alert>
      ) : (
        <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }} spacing="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {(templates.data ?? []).map((tpl) => (
            <li key={tpl.id}>
              <Card
                h="100%"
                component={Link}
                to={`/permit-form-questions/new/${tpl.id}`}
                withBorder
                radius="md"
                padding="md"
                aria-label={t('permitsWeb.typeSelect.choose', { name: tpl.name })}
                style={{ textDecoration: 'none' }}
              >
                <Stack gap={6}>
                  <Group justify="space-between" wrap="nowrap" gap="xs">
                    <Title order={2} size="h4" style={{ overflowWrap: 'anywhere' }}>
                      {tpl.name}
                    </Title>
                    <Badge variant="light">{tpl.prefix}</Badge>
                  </Group>
                  <Text size="sm" c="dimmed" lineClamp={3}>
                    {tpl.description}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {t('permitsWeb.typeSelect.hours', { count: tpl.default_hours })}
                  </Text>
                </Stack>
              </Card>
            </li>
          ))}
        </SimpleGrid>
      )}
    </Stack>
  );
}

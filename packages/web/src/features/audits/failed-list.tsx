import type { AuditFailedQuestion } from '@bulwark/domain';
import { Badge, Group, Progress, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The questions failed most often: how often failed of how often answered. */
export function FailedList({ questions }: { questions: AuditFailedQuestion[] }) {
  const { t } = useTranslation();
  if (questions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('auditsWeb.summary.noFailures')}
      </Text>
    );
  return (
    <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {questions.map((q) => {
        const share = q.answers > 0 ? (q.failures / q.answers) * 100 : 0;
        return (
          <li key={`${q.template.id}-${q.question_id}`}>
            <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
              <Stack gap={0} style={{ flex: '1 1 220px', minWidth: 0 }}>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {q.label}
                  {q.critical ? (
                    <Badge component="span" ml={6} size="xs" color="red" variant="outline">
                      {t('audits.answers.critical')}
                    </Badge>
                  ) : null}
                </Text>
                <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
                  {q.template.name} · {q.section}
                </Text>
              </Stack>
              <Text size="sm">{t('auditsWeb.summary.failedOf', { failures: q.failures, answers: q.answers })}</Text>
            </Group>
            <Progress
              value={share}
              color="red"
              size="sm"
              mt={4}
              aria-label={t('auditsWeb.summary.failedOf', { failures: q.failures, answers: q.answers })}
            />
          </li>
        );
      })}
    </Stack>
  );
}

import type { ActionSummary, AuditKeyFinding } from '@bulwark/domain';
import { Anchor, Badge, Group, Paper, SimpleGrid, Stack, Table, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { StoredImage } from '../../ui/index.js';

const ACTION_COLORS: Record<ActionSummary['status'], string> = {
  open: 'blue',
  in_progress: 'yellow',
  overdue: 'red',
  completed: 'teal',
  closed: 'gray',
};

export function ActionStatusBadge({ status }: { status: ActionSummary['status'] }) {
  const { t } = useTranslation();
  return (
    <Badge color={ACTION_COLORS[status]} variant="light" size="sm">
      {t(`actions.status.${status}`)}
    </Badge>
  );
}

/** The key findings of an audit, each with its pictures and the action it became (and where that stands). */
export function FindingsList({
  findings,
  questionLabel,
  links = true,
}: {
  findings: AuditKeyFinding[];
  questionLabel: (id: string) => string | null;
  links?: boolean;
}) {
  const { t } = useTranslation();
  const f = useFormats();
  if (findings.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('auditsWeb.findings.none')}
      </Text>
    );
  return (
    <Stack gap="xs" component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
      {findings.map((k, i) => (
        <Paper key={k.id} component="li" withBorder radius="md" p="sm">
          <Stack gap={6}>
            <Group justify="space-between" gap="xs" wrap="wrap" align="flex-start">
              <Text fw={600} style={{ overflowWrap: 'anywhere', flex: '1 1 200px' }}>
                {i + 1}. {k.description}
              </Text>
              {k.action ? <ActionStatusBadge status={k.action.status} /> : null}
            </Group>
            {k.question_id && questionLabel(k.question_id) ? (
              <Text size="xs" c="dimmed">
                {t('auditsWeb.findings.fromQuestion', { label: questionLabel(k.question_id) })}
              </Text>
            ) : null}
            {k.action ? (
              <Text size="sm">
                {t('auditsWeb.findings.actionLine', {
                  control: t(`actions.controlType.${k.action.control_type}`),
                  who: k.action.responsible?.full_name ?? '—',
                  due: f.day(k.action.due_date),
                })}{' '}
                {links ? (
                  <Anchor component={Link} to={`/actions/audits/summary/${k.action.id}`} size="sm">
                    #{k.action.serial}
                  </Anchor>
                ) : (
                  `#${k.action.serial}`
                )}
              </Text>
            ) : null}
            {k.pictures.length > 0 ? (
              <SimpleGrid cols={{ base: 3, sm: 5 }} spacing={6}>
                {k.pictures.map((p) => (
                  <StoredImage key={p.id} url={p.url} alt={p.file_name} radius="sm" h={72} fit="cover" />
                ))}
              </SimpleGrid>
            ) : null}
          </Stack>
        </Paper>
      ))}
    </Stack>
  );
}

/** The action items of an audit with their status, as a table that keeps its columns on a phone. */
export function ActionItemsTable({ actions, links = true }: { actions: ActionSummary[]; links?: boolean }) {
  const { t } = useTranslation();
  const f = useFormats();
  if (actions.length === 0)
    return (
      <Text size="sm" c="dimmed">
        {t('auditsWeb.actions.none')}
      </Text>
    );
  return (
    <Table striped verticalSpacing="xs" layout="fixed" aria-label={t('audits.report.actionItems')}>
      <Table.Thead>
        <Table.Tr>
          <Table.Th w={64}>{t('actions.fields.serial')}</Table.Th>
          <Table.Th>{t('actions.fields.description')}</Table.Th>
          <Table.Th w={{ base: 96, sm: 200 }}>{`${t('actions.fields.responsible')} · ${t('actions.fields.dueDate')}`}</Table.Th>
          <Table.Th w={{ base: 92, sm: 120 }}>{t('actions.fields.status')}</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {actions.map((a) => (
          <Table.Tr key={a.id}>
            <Table.Td>
              {links ? (
                <Anchor component={Link} to={`/actions/audits/summary/${a.id}`}>
                  #{a.serial}
                </Anchor>
              ) : (
                `#${a.serial}`
              )}
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text size="sm">{a.description}</Text>
              <Text size="xs" c="dimmed">
                {t(`actions.controlType.${a.control_type}`)}
              </Text>
            </Table.Td>
            <Table.Td style={{ overflowWrap: 'anywhere' }}>
              <Text size="sm">{a.responsible?.full_name ?? '—'}</Text>
              <Text size="xs" c="dimmed">
                {f.day(a.due_date)}
              </Text>
            </Table.Td>
            <Table.Td>
              <ActionStatusBadge status={a.status} />
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

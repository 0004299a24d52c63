import type { ActionAttachment, ActionDetail } from '@bulwark/domain';
import { Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/setup.js';
import { StoredImage } from '../../ui/index.js';
import { formatDay, formatInstant } from './format.js';

/** The photos of the work done: the images the person who completed the action attached to it. */
export function workPhotos(action: Pick<ActionDetail, 'attachments' | 'completed_by'>): ActionAttachment[] {
  const completer = action.completed_by?.id;
  if (!completer) return [];
  return action.attachments.filter((f) => f.mime_type.startsWith('image/') && f.uploaded_by?.id === completer);
}

function Fact({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Stack gap={2} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" c="dimmed" fw={600} tt="uppercase" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {children}
      </Text>
    </Stack>
  );
}

/** The summary of an action: every field, read only, grouped as a reviewer reads them. */
export function ActionDetails({ action }: { action: ActionDetail }) {
  const { t, i18n } = useTranslation();
  const photos = workPhotos(action);
  const language = currentLanguage(i18n);
  const at = (iso: string | null) => (iso ? formatInstant(iso, language, action.site.time_zone) : '—');
  return (
    <Stack gap="md">
      <Paper withBorder radius="md" p="md">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
          <Fact label={t('actions.fields.description')} wide>
            {action.description}
          </Fact>
          <Fact label={t('actions.fields.controlType')}>{t(`actions.controlType.${action.control_type}`)}</Fact>
          <Fact label={t('actions.fields.category')}>{action.category?.name ?? '—'}</Fact>
          <Fact label={t('actions.fields.site')}>{action.site.name}</Fact>
          <Fact label={t('actions.fields.source')}>{t(`actions.source.${action.source.type}`)}</Fact>
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Title order={3} size="h5" mb="xs">
          {t('actionsWeb.panel.people')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
          <Fact label={t('actions.fields.responsible')}>{action.responsible?.full_name ?? t('actionsWeb.list.nobody')}</Fact>
          <Fact label={t('actions.fields.dueDate')}>{formatDay(action.due_date, language)}</Fact>
          <Fact label={t('actions.fields.createdBy')}>{action.created_by?.full_name ?? '—'}</Fact>
          <Fact label={t('actions.fields.createdAt')}>{at(action.created_at)}</Fact>
        </SimpleGrid>
      </Paper>
      <Paper withBorder radius="md" p="md">
        <Title order={3} size="h5" mb="xs">
          {t('actionsWeb.panel.workDone')}
        </Title>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
          <Fact label={t('actions.fields.remarks')} wide>
            {action.remarks ?? '—'}
          </Fact>
          <Fact label={t('actions.fields.imageDescription')} wide>
            {action.image_description ?? '—'}
          </Fact>
          {photos.length > 0 ? (
            <Stack gap={4} style={{ gridColumn: '1 / -1' }}>
              <Text size="xs" c="dimmed" fw={600} tt="uppercase" component="dt">
                {t('actionsWeb.panel.workPhotos')}
              </Text>
              <SimpleGrid cols={{ base: 2, xs: 3 }} spacing="xs" component="dd" m={0}>
                {photos.map((file) => (
                  <StoredImage key={file.id} url={file.url} alt={file.file_name} h={120} fit="cover" radius="sm" />
                ))}
              </SimpleGrid>
            </Stack>
          ) : null}
          <Fact label={t('actions.fields.completedBy')}>{action.completed_by?.full_name ?? '—'}</Fact>
          <Fact label={t('actions.fields.completedAt')}>{at(action.completed_at)}</Fact>
          <Fact label={t('actions.fields.closedBy')}>{action.closed_by?.full_name ?? '—'}</Fact>
          <Fact label={t('actions.fields.closedAt')}>{at(action.closed_at)}</Fact>
        </SimpleGrid>
      </Paper>
    </Stack>
  );
}

import { FILE_RULES, formatBytes, type ActionAttachment, type ActionDetail } from '@bulwark/domain';
import { Button, Center, FileButton, Group, Paper, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { currentLanguage } from '../../i18n/setup.js';
import { StoredImage, useSaveLinkedFile } from '../../ui/index.js';
import { ACTIONS_KEY, useActionCommands } from './actions-api.js';
import { formatInstant } from './format.js';
import { usePanelConfirm } from './panel-dialogs.js';

/** A picture of an image file (a box with its extension until it arrives); other files show the box. */
function Thumbnail({ file }: { file: ActionAttachment }) {
  const box = (
    <Center h={120} bg="var(--mantine-color-gray-light)" style={{ borderRadius: 'var(--mantine-radius-sm)' }}>
      <ThemeIcon variant="transparent" size="xl" color="gray" aria-hidden>
        <Text fw={700} size="sm">
          {(file.file_name.split('.').pop() ?? '').slice(0, 4).toUpperCase() || 'FILE'}
        </Text>
      </ThemeIcon>
    </Center>
  );
  if (!file.mime_type.startsWith('image/')) return box;
  return <StoredImage url={file.url} alt={file.file_name} h={120} fit="cover" radius="sm" placeholder={box} />;
}

/** The files and photos of an action: thumbnails, download, and for whoever may report on it, add and remove. */
export function ActionAttachments({ action }: { action: ActionDetail }) {
  const { t, i18n } = useTranslation();
  const commands = useActionCommands();
  const queryClient = useQueryClient();
  const download = useSaveLinkedFile();
  const [confirm, dialog] = usePanelConfirm();
  const [uploading, setUploading] = useState<string | null>(null);
  const [removing, setRemoving] = useState<string | null>(null);
  const language = currentLanguage(i18n);
  const rule = FILE_RULES.attachment;

  async function add(file: File | null) {
    if (!file) return;
    if (file.size > rule.maxBytes) return notifyError(t('storage.tooLarge', { max: formatBytes(rule.maxBytes) }));
    // Browsers leave some types unlabelled; the server decides by content then.
    if (file.type && !(rule.types as readonly string[]).includes(file.type)) return notifyError(t('storage.wrongType'));
    setUploading(file.name);
    try {
      await commands.addAttachment(action.id, file);
      notifySuccess(t('actionsWeb.files.added', { name: file.name }));
      await queryClient.invalidateQueries({ queryKey: ACTIONS_KEY });
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setUploading(null);
    }
  }

  async function remove(file: ActionAttachment) {
    const ok = await confirm({
      title: t('actions.form.confirmRemoveAttachmentTitle', { name: file.file_name }),
      message: t('actions.form.confirmRemoveAttachmentBody'),
      confirmLabel: t('actions.form.removeAttachment'),
      danger: true,
    });
    if (!ok) return;
    setRemoving(file.id);
    try {
      await commands.removeAttachment(action.id, file.id);
      notifySuccess(t('actionsWeb.files.removed', { name: file.file_name }));
      await queryClient.invalidateQueries({ queryKey: ACTIONS_KEY });
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setRemoving(null);
    }
  }

  return (
    <Stack gap="sm">
      {action.can.report ? (
        <Group gap="sm" wrap="wrap" align="center">
          <FileButton onChange={(f) => void add(f)} accept={rule.types.join(',')}>
            {(props) => (
              <Button {...props} variant="light" loading={uploading !== null}>
                {t('actions.form.addAttachment')}
              </Button>
            )}
          </FileButton>
          <Text size="xs" c="dimmed">
            {t('actionsWeb.files.rules', { max: formatBytes(rule.maxBytes) })}
          </Text>
        </Group>
      ) : null}
      {action.attachments.length === 0 ? (
        <Text c="dimmed" size="sm">
          {t('actions.form.noAttachments')}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {action.attachments.map((file) => (
            <Paper key={file.id} component="li" withBorder radius="md" p="xs">
              <Thumbnail file={file} />
              <Text size="sm" fw={500} mt={6} lineClamp={1} title={file.file_name} style={{ overflowWrap: 'anywhere' }}>
                {file.file_name}
              </Text>
              <Text size="xs" c="dimmed">
                {formatBytes(file.size_bytes)} ·{' '}
                {t('actionsWeb.files.by', {
                  name: file.uploaded_by?.full_name ?? '—',
                  date: formatInstant(file.created_at, language, action.site.time_zone),
                })}
              </Text>
              <Group gap={6} mt={6}>
                <Button
                  size="compact-sm"
                  variant="default"
                  onClick={() => void download(file.url).catch(() => undefined)}
                  aria-label={t('actionsWeb.files.download', { name: file.file_name })}
                >
                  {t('actionsWeb.files.downloadShort')}
                </Button>
                {action.can.report ? (
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    loading={removing === file.id}
                    onClick={() => void remove(file)}
                    aria-label={`${t('actions.form.removeAttachment')}: ${file.file_name}`}
                  >
                    {t('actions.form.removeAttachment')}
                  </Button>
                ) : null}
              </Group>
            </Paper>
          ))}
        </SimpleGrid>
      )}
      {dialog}
    </Stack>
  );
}

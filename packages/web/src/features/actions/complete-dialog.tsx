import { FILE_RULES, formatBytes, type ActionDetail } from '@bulwark/domain';
import { Alert, Button, FileButton, Group, Image, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { ACTIONS_KEY, actionSerial, useActionCommands } from './actions-api.js';
import { otherErrors, useLiveErrors } from './field-errors.js';
import { useNestedDialog } from './panel-dialogs.js';

/** Photos the completion accepts: the image types of an attachment, within its size limit. */
export const PHOTO_TYPES: readonly string[] = FILE_RULES.attachment.types.filter((type) => type.startsWith('image/'));

/** Why a chosen photo cannot be sent (an i18n key and its values), or null when it can. */
export function photoProblem(file: { size: number; type: string }): { key: string; values?: Record<string, string> } | null {
  if (!PHOTO_TYPES.includes(file.type)) return { key: 'storage.wrongType' };
  if (file.size > FILE_RULES.attachment.maxBytes)
    return { key: 'storage.tooLarge', values: { max: formatBytes(FILE_RULES.attachment.maxBytes) } };
  return null;
}

/** A picked file shown before it is sent; the object URL is let go when the photo changes or the dialog closes. */
function usePreview(file: File | null): string | null {
  const url = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(
    () => () => {
      if (url) URL.revokeObjectURL(url);
    },
    [url],
  );
  return url;
}

/**
 * Completing an action: the remarks say what was done (required), a photo of the finished work may go
 * with them. The photo is uploaded first, so an action is never marked completed while its evidence
 * failed to arrive; a photo already sent is not sent twice when the person tries again.
 */
export function CompleteDialog({ action, opened, onClose }: { action: ActionDetail; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = useActionCommands();
  const queryClient = useQueryClient();
  const form = useFormSubmit();
  const [remarks, setRemarks] = useState(action.remarks ?? '');
  const [photo, setPhoto] = useState<File | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [sentPhoto, setSentPhoto] = useState<File | null>(null);
  const preview = usePreview(photo);
  const live = useLiveErrors(form.errors);
  useNestedDialog(opened);
  const max = formatBytes(FILE_RULES.attachment.maxBytes);

  function choose(file: File | null) {
    if (!file) return;
    const problem = photoProblem(file);
    if (problem) {
      setPhotoError(t(problem.key, problem.values ?? {}));
      return;
    }
    setPhotoError(null);
    setPhoto(file);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (form.refuse(remarks.trim() ? null : { remarks: t('actions.validation.remarksToComplete') })) return;
    await form.run(async () => {
      if (photo && photo !== sentPhoto) {
        await commands.addAttachment(action.id, photo, false);
        setSentPhoto(photo);
      }
      await commands.complete(action.id, remarks.trim());
      notifySuccess(t('actionsWeb.moves.completed'));
      await queryClient.invalidateQueries({ queryKey: ACTIONS_KEY });
      setPhoto(null);
      onClose();
    });
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={t('actionsWeb.complete.title', { serial: actionSerial(action.serial) })}
      centered
      size="lg"
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm" c="dimmed">
            {t('actionsWeb.complete.help')}
          </Text>
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          {otherErrors(form.errors, ['remarks', 'file']).map((text) => (
            <Alert key={text} color="red" role="alert">
              {text}
            </Alert>
          ))}
          <Textarea
            label={t('actions.fields.remarks')}
            withAsterisk
            autosize
            minRows={3}
            maxLength={2000}
            value={remarks}
            onChange={(e) => {
              live.touch('remarks');
              setRemarks(e.currentTarget.value);
            }}
            error={live.errors['remarks']}
            data-autofocus
          />
          <Stack gap={6}>
            <Text size="sm" fw={500}>
              {t('actionsWeb.complete.photo')}
            </Text>
            {preview && photo ? (
              <Image
                src={preview}
                alt={t('actionsWeb.complete.preview', { name: photo.name })}
                mah={220}
                w="auto"
                fit="contain"
                radius="sm"
              />
            ) : null}
            <Group gap="xs" wrap="wrap">
              <FileButton onChange={choose} accept={PHOTO_TYPES.join(',')}>
                {(props) => (
                  <Button {...props} variant="default">
                    {photo ? t('actionsWeb.complete.otherPhoto') : t('actionsWeb.complete.choosePhoto')}
                  </Button>
                )}
              </FileButton>
              {photo ? (
                <Button variant="subtle" color="gray" onClick={() => setPhoto(null)}>
                  {t('actionsWeb.complete.removePhoto')}
                </Button>
              ) : null}
            </Group>
            <Text size="xs" c="dimmed">
              {t('actionsWeb.complete.photoRules', { max })}
            </Text>
            {photoError || form.errors['file'] ? (
              <Text size="sm" c="red" role="alert">
                {photoError ?? form.errors['file']}
              </Text>
            ) : null}
          </Stack>
          <Group justify="flex-end" mt="xs">
            <Button variant="default" onClick={onClose}>
              {t('actions.form.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('actions.form.complete')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

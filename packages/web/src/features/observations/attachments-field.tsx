import '@mantine/dropzone/styles.css';
import { FILE_RULES, formatBytes } from '@bulwark/domain';
import { ActionIcon, Box, Button, Group, Image, Input, Paper, Progress, Stack, Text } from '@mantine/core';
import { Dropzone, type FileRejection } from '@mantine/dropzone';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { useStoredFileUrl } from '../../ui/index.js';

/** One attachment of the form: uploading, uploaded (has `fileId`) or refused (has `error`). */
export type AttachmentItem = {
  key: string;
  name: string;
  size: number;
  type: string;
  progress: number;
  fileId?: string;
  /** A picture to show: the local file (`blob:`) while it uploads, the stored file's address once saved. */
  previewUrl?: string;
  error?: string;
};

/** Sends one file and answers its stored id; progress runs from 0 to 1. */
export type UploadFile = (file: File, onProgress: (fraction: number) => void) => Promise<string>;

const RULE = FILE_RULES.attachment;

/** True while any file is still on its way: the form waits for it before it sends. */
export function uploadsPending(items: AttachmentItem[]): boolean {
  return items.some((i) => !i.fileId && !i.error);
}

/** The stored ids of the attachments that made it. */
export function uploadedIds(items: AttachmentItem[]): string[] {
  return items.flatMap((i) => (i.fileId ? [i.fileId] : []));
}

let counter = 0;
const nextKey = () => `f${(counter += 1)}`;

type Props = {
  label: string;
  items: AttachmentItem[];
  onChange: (update: (items: AttachmentItem[]) => AttachmentItem[]) => void;
  upload: UploadFile;
  error?: string;
  maxFiles?: number;
};

/**
 * Attachments: drop or choose files, or take a photo with the phone's camera. Each file uploads at
 * once with its progress shown; the browser refuses what the rule forbids before anything is sent,
 * and the server, which checks the content, has the last word.
 */
export function AttachmentsField({ label, items, onChange, upload, error, maxFiles = 10 }: Props) {
  const { t } = useTranslation();
  const camera = useRef<HTMLInputElement>(null);
  const [refusals, setRefusals] = useState<string[]>([]);
  const localUrls = useRef<string[]>([]);

  useEffect(() => () => localUrls.current.forEach((u) => URL.revokeObjectURL(u)), []);

  const patch = (key: string, change: Partial<AttachmentItem>) =>
    onChange((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  function add(files: File[]) {
    setRefusals([]);
    const room = Math.max(0, maxFiles - items.length);
    if (files.length > room) setRefusals([t('observationsWeb.attachments.tooMany', { count: maxFiles })]);
    for (const file of files.slice(0, room)) {
      const key = nextKey();
      let previewUrl: string | undefined;
      if (file.type.startsWith('image/') && typeof URL.createObjectURL === 'function') {
        previewUrl = URL.createObjectURL(file);
        localUrls.current.push(previewUrl);
      }
      const item: AttachmentItem = { key, name: file.name, size: file.size, type: file.type, progress: 0 };
      if (previewUrl) item.previewUrl = previewUrl;
      onChange((list) => [...list, item]);
      upload(file, (progress) => patch(key, { progress }))
        .then((fileId) => patch(key, { fileId, progress: 1 }))
        .catch((err: unknown) =>
          patch(key, { error: isApiError(err) ? (err.fields['file'] ?? err.message) : t('errors.somethingWentWrong') }),
        );
    }
  }

  function refused(rejections: FileRejection[]) {
    setRefusals(
      rejections.map((r) => {
        const tooLarge = r.errors.some((e) => e.code === 'file-too-large');
        return `${r.file.name}: ${tooLarge ? t('storage.tooLarge', { max: formatBytes(RULE.maxBytes) }) : t('storage.wrongType')}`;
      }),
    );
  }

  /** The camera input bypasses the dropzone's checks, so the same rule is applied here. */
  function fromCamera(list: FileList | null) {
    const files = Array.from(list ?? []);
    const big = files.filter((f) => f.size > RULE.maxBytes);
    if (big.length > 0) setRefusals(big.map((f) => `${f.name}: ${t('storage.tooLarge', { max: formatBytes(RULE.maxBytes) })}`));
    add(files.filter((f) => f.size <= RULE.maxBytes));
  }

  return (
    <Input.Wrapper label={label} error={error} description={t('observationsWeb.attachments.hint', { max: formatBytes(RULE.maxBytes) })}>
      <Stack gap="xs" mt={4}>
        <Dropzone
          onDrop={add}
          onReject={refused}
          accept={[...RULE.types]}
          maxSize={RULE.maxBytes}
          multiple
          aria-label={t('observationsWeb.attachments.choose')}
          p="md"
        >
          <Text ta="center" size="sm" c="dimmed">
            {t('observationsWeb.attachments.drop')}
          </Text>
        </Dropzone>
        <Group gap="xs" hiddenFrom="sm">
          <Button variant="light" size="sm" onClick={() => camera.current?.click()}>
            {t('observationsWeb.attachments.camera')}
          </Button>
          <input
            ref={camera}
            type="file"
            accept="image/*"
            capture="environment"
            hidden
            aria-hidden
            tabIndex={-1}
            onChange={(e) => {
              fromCamera(e.currentTarget.files);
              e.currentTarget.value = '';
            }}
          />
        </Group>
        {refusals.map((r) => (
          <Text key={r} c="red" size="sm" role="alert">
            {r}
          </Text>
        ))}
        {items.length > 0 ? (
          <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={label}>
            {items.map((item) => (
              <Paper key={item.key} component="li" withBorder p="xs" radius="sm">
                <Group gap="sm" wrap="nowrap" align="center">
                  <Thumb item={item} />
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" truncate="end">
                      {item.name}
                    </Text>
                    <Text size="xs" c={item.error ? 'red' : 'dimmed'} role={item.error ? 'alert' : undefined}>
                      {item.error ??
                        (item.fileId
                          ? formatBytes(item.size)
                          : t('observationsWeb.attachments.uploading', {
                              size: formatBytes(item.size),
                              percent: Math.round(item.progress * 100),
                            }))}
                    </Text>
                    {!item.fileId && !item.error ? (
                      <Progress
                        value={item.progress * 100}
                        size="sm"
                        aria-label={t('observationsWeb.attachments.progress', { name: item.name })}
                      />
                    ) : null}
                  </Stack>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('observationsWeb.attachments.remove', { name: item.name })}
                    onClick={() => onChange((list) => list.filter((i) => i.key !== item.key))}
                  >
                    ×
                  </ActionIcon>
                </Group>
              </Paper>
            ))}
          </Stack>
        ) : null}
      </Stack>
    </Input.Wrapper>
  );
}

/** The picture of an image (a local one while it uploads, the stored one when editing), else the file's extension. */
function Thumb({ item }: { item: AttachmentItem }) {
  const src = useStoredFileUrl(item.previewUrl);
  if (src) return <Image src={src} alt="" w={48} h={48} fit="cover" radius="sm" />;
  return (
    <Box w={48} h={48} bg="gray.1" style={{ borderRadius: 4, display: 'grid', placeItems: 'center', flexShrink: 0 }} aria-hidden>
      <Text size="xs" c="dimmed">
        {extensionOf(item.name)}
      </Text>
    </Box>
  );
}

function extensionOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1, dot + 5).toUpperCase() : '—';
}

/** An attachment already stored (editing a record): shown as uploaded. */
export function storedAttachment(a: {
  id: string;
  file_name: string;
  size: number;
  content_type: string;
  thumbnail_url?: string | null;
}): AttachmentItem {
  const item: AttachmentItem = { key: `s-${a.id}`, name: a.file_name, size: a.size, type: a.content_type, progress: 1, fileId: a.id };
  if (a.thumbnail_url) item.previewUrl = a.thumbnail_url;
  return item;
}

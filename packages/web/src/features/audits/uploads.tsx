import { FILE_RULES, formatBytes } from '@bulwark/domain';
import { ActionIcon, Button, Group, Paper, Progress, SimpleGrid, Stack, Text } from '@mantine/core';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { StoredImage, useSaveLinkedFile } from '../../ui/index.js';
import type { FileRef } from './run-model.js';

/** Uploads one file of a running audit; answers the stored file. Null: nothing is sent (the builder's preview). */
export type AuditUpload = (kind: 'photo' | 'document', file: File, onProgress: (fraction: number) => void) => Promise<FileRef>;

const IMAGE = FILE_RULES.auditImage;
const DOCUMENT = FILE_RULES.auditDocument;
/** What the phone's file picker offers: pictures (JPG, PNG, GIF) and Office documents. */
const DOC_ACCEPT = '.doc,.docx,.xls,.xlsx,.ppt,.pptx';
const isImage = (f: File) => (IMAGE.types as readonly string[]).includes(f.type);
const isDocument = (f: File) => /\.(docx?|xlsx?|pptx?)$/i.test(f.name) || (DOCUMENT.types as readonly string[]).includes(f.type);

type Sending = { key: string; name: string; progress: number; error?: string };
const nextKey = (() => {
  let n = 0;
  return () => `f${(n += 1)}`;
})();

/**
 * Photos from the camera (`capture`) and documents, each uploaded at once with its progress: JPG, PNG
 * or GIF under 1 MB, PPT, DOC or XLS under 1 MB (spec 001 §6). Checked here first so a phone on a weak
 * signal sends nothing doomed; the server, which reads the content, has the last word.
 */
export function AuditFiles(props: {
  label: string;
  files: FileRef[];
  onChange: (files: FileRef[]) => void;
  upload: AuditUpload | null;
  /** 'photos': pictures only (a photo question, a key finding); 'any': pictures and documents. */
  accept: 'photos' | 'any';
  max: number;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const camera = useRef<HTMLInputElement>(null);
  const documents = useRef<HTMLInputElement>(null);
  const [sending, setSending] = useState<Sending[]>([]);
  const [refusals, setRefusals] = useState<string[]>([]);
  const open = useSaveLinkedFile();
  const latest = useRef(props.files);
  useLayoutEffect(() => {
    latest.current = props.files;
  });
  const room = props.max - props.files.length - sending.filter((s) => !s.error).length;

  function add(chosen: File[]) {
    const problems: string[] = [];
    if (chosen.length > room) problems.push(t('auditsWeb.files.tooMany', { count: props.max }));
    for (const file of chosen.slice(0, Math.max(0, room))) {
      const kind = isImage(file) ? 'photo' : props.accept === 'any' && isDocument(file) ? 'document' : null;
      if (!kind) {
        problems.push(`${file.name}: ${t(props.accept === 'photos' ? 'auditsWeb.files.photoKinds' : 'auditsWeb.files.kinds')}`);
        continue;
      }
      const limit = kind === 'photo' ? IMAGE.maxBytes : DOCUMENT.maxBytes;
      if (file.size > limit) {
        problems.push(`${file.name}: ${t('auditsWeb.files.tooLarge', { max: formatBytes(limit) })}`);
        continue;
      }
      if (!props.upload) continue;
      const key = nextKey();
      const patch = (change: Partial<Sending>) => setSending((list) => list.map((s) => (s.key === key ? { ...s, ...change } : s)));
      setSending((list) => [...list, { key, name: file.name, progress: 0 }]);
      props
        .upload(kind, file, (progress) => patch({ progress }))
        .then((stored) => {
          setSending((list) => list.filter((s) => s.key !== key));
          props.onChange([...latest.current, stored]);
        })
        .catch((err: unknown) => patch({ error: isApiError(err) ? (err.fields['file'] ?? err.message) : t('errors.somethingWentWrong') }));
    }
    setRefusals(problems);
  }

  const images = props.files.filter((f) => f.mime_type.startsWith('image/'));
  const others = props.files.filter((f) => !f.mime_type.startsWith('image/'));
  const hint = t(props.accept === 'photos' ? 'auditsWeb.files.photoHint' : 'auditsWeb.files.hint', { max: formatBytes(IMAGE.maxBytes) });
  return (
    <Stack gap={6} role="group" aria-label={props.label}>
      <Group gap="xs" wrap="wrap">
        <Button variant="light" size="compact-md" onClick={() => camera.current?.click()} disabled={props.disabled || room <= 0}>
          {t('auditsWeb.files.takePhoto')}
        </Button>
        <input
          ref={camera}
          type="file"
          accept="image/*"
          capture="environment"
          hidden
          aria-label={t('auditsWeb.files.photoOf', { label: props.label })}
          onChange={(e) => {
            add(Array.from(e.currentTarget.files ?? []));
            e.currentTarget.value = '';
          }}
        />
        {props.accept === 'any' ? (
          <>
            <Button variant="default" size="compact-md" onClick={() => documents.current?.click()} disabled={props.disabled || room <= 0}>
              {t('auditsWeb.files.addDocument')}
            </Button>
            <input
              ref={documents}
              type="file"
              multiple
              accept={`image/jpeg,image/png,image/gif,${DOC_ACCEPT}`}
              hidden
              aria-label={t('auditsWeb.files.documentOf', { label: props.label })}
              onChange={(e) => {
                add(Array.from(e.currentTarget.files ?? []));
                e.currentTarget.value = '';
              }}
            />
          </>
        ) : null}
      </Group>
      <Text size="xs" c="dimmed">
        {hint}
      </Text>
      {refusals.map((r) => (
        <Text key={r} c="red" size="sm" role="alert">
          {r}
        </Text>
      ))}
      {sending.map((s) => (
        <Paper key={s.key} withBorder p={6} radius="sm">
          <Group gap="xs" wrap="nowrap">
            <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
              <Text size="sm" truncate="end">
                {s.name}
              </Text>
              {s.error ? (
                <Text size="xs" c="red" role="alert">
                  {s.error}
                </Text>
              ) : (
                <Progress
                  value={s.progress * 100}
                  size="sm"
                  aria-label={t('auditsWeb.files.progress', { name: s.name, percent: Math.round(s.progress * 100) })}
                />
              )}
            </Stack>
            {s.error ? (
              <ActionIcon
                variant="subtle"
                color="gray"
                size="lg"
                aria-label={t('auditsWeb.files.dismiss', { name: s.name })}
                onClick={() => setSending((l) => l.filter((x) => x.key !== s.key))}
              >
                ×
              </ActionIcon>
            ) : null}
          </Group>
        </Paper>
      ))}
      {images.length > 0 ? (
        <SimpleGrid cols={{ base: 3, sm: 4 }} spacing={6}>
          {images.map((f) => (
            <div key={f.id} style={{ position: 'relative' }}>
              <StoredImage url={f.url} alt={f.file_name} radius="sm" h={84} fit="cover" />
              {props.disabled ? null : (
                <ActionIcon
                  variant="filled"
                  color="dark"
                  size="sm"
                  radius="xl"
                  aria-label={t('auditsWeb.files.remove', { name: f.file_name })}
                  onClick={() => props.onChange(props.files.filter((x) => x.id !== f.id))}
                  style={{ position: 'absolute', top: 4, right: 4 }}
                >
                  ×
                </ActionIcon>
              )}
            </div>
          ))}
        </SimpleGrid>
      ) : null}
      {others.map((f) => (
        <Group key={f.id} gap="xs" wrap="nowrap">
          <Button variant="subtle" size="compact-sm" onClick={() => void open(f.url)} style={{ minWidth: 0 }}>
            <Text size="sm" truncate="end">
              {f.file_name} ({formatBytes(f.size_bytes)})
            </Text>
          </Button>
          {props.disabled ? null : (
            <ActionIcon
              variant="subtle"
              color="red"
              size="lg"
              aria-label={t('auditsWeb.files.remove', { name: f.file_name })}
              onClick={() => props.onChange(props.files.filter((x) => x.id !== f.id))}
            >
              ×
            </ActionIcon>
          )}
        </Group>
      ))}
    </Stack>
  );
}

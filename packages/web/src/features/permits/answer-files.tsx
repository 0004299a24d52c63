import { ATTACHMENT_KIND_TYPES, formatBytes, type AttachmentKind } from '@bulwark/domain';
import { ActionIcon, Button, Group, Input, Paper, Progress, Stack, Text } from '@mantine/core';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import type { FileItem } from './request-model.js';

export type Upload = (file: File, onProgress: (fraction: number) => void) => Promise<string>;

type Rule = { kinds: readonly AttachmentKind[]; max_files: number; max_file_kb: number };

/** A key per chosen file for the life of the page (module state, not render state). */
const nextKey = (() => {
  let n = 0;
  return () => `u${(n += 1)}`;
})();

/**
 * The files of an attachment question: chosen (or taken with the phone's camera), each uploaded at
 * once with its progress. The question's kinds, count and size are checked before anything is sent;
 * the server, which reads the content, has the last word.
 */
export function AnswerFiles(props: {
  label: string;
  description?: string | null;
  required: boolean;
  rule: Rule;
  items: FileItem[];
  onChange: (update: (items: FileItem[]) => FileItem[]) => void;
  upload: Upload | null;
  error?: string | undefined;
}) {
  const { t } = useTranslation();
  const { rule, items, onChange, upload } = props;
  const input = useRef<HTMLInputElement>(null);
  const [refusals, setRefusals] = useState<string[]>([]);
  const types = rule.kinds.flatMap((k) => ATTACHMENT_KIND_TYPES[k]);
  const maxBytes = rule.max_file_kb * 1024;
  const patch = (key: string, change: Partial<FileItem>) => onChange((list) => list.map((i) => (i.key === key ? { ...i, ...change } : i)));

  function add(files: File[]) {
    const problems: string[] = [];
    const room = Math.max(0, rule.max_files - items.length);
    if (files.length > room) problems.push(t('permitsWeb.files.tooMany', { count: rule.max_files }));
    for (const file of files.slice(0, room)) {
      if (!types.includes(file.type)) {
        problems.push(`${file.name}: ${t('permits.validation.fileKind')}`);
        continue;
      }
      if (file.size > maxBytes) {
        problems.push(`${file.name}: ${t('permitsWeb.files.tooLarge', { max: formatBytes(maxBytes) })}`);
        continue;
      }
      if (!upload) continue;
      const key = nextKey();
      onChange((list) => [...list, { key, name: file.name, progress: 0 }]);
      upload(file, (progress) => patch(key, { progress }))
        .then((fileId) => patch(key, { fileId, progress: 1 }))
        .catch((err: unknown) =>
          patch(key, { error: isApiError(err) ? (err.fields['file'] ?? err.message) : t('errors.somethingWentWrong') }),
        );
    }
    setRefusals(problems);
  }

  const hint = t('permitsWeb.files.hint', {
    kinds: rule.kinds.map((k) => t(`permits.attachmentKinds.${k}`)).join(', '),
    count: rule.max_files,
    max: formatBytes(maxBytes),
  });
  return (
    <Input.Wrapper
      label={props.label}
      withAsterisk={props.required}
      description={[props.description, hint].filter(Boolean).join(' · ')}
      error={props.error}
    >
      <Stack gap={6} mt={6}>
        <Group gap="xs">
          <Button variant="light" onClick={() => input.current?.click()} disabled={!upload || items.length >= rule.max_files}>
            {t('permitsWeb.files.choose')}
          </Button>
          <input
            ref={input}
            type="file"
            multiple={rule.max_files > 1}
            accept={types.join(',')}
            hidden
            aria-label={props.label}
            data-question-files
            onChange={(e) => {
              add(Array.from(e.currentTarget.files ?? []));
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
          <Stack gap={4} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={props.label}>
            {items.map((item) => (
              <Paper key={item.key} component="li" withBorder p={6} radius="sm">
                <Group gap="xs" wrap="nowrap">
                  <Stack gap={2} style={{ flex: 1, minWidth: 0 }}>
                    <Text size="sm" truncate="end">
                      {item.name}
                    </Text>
                    {item.error ? (
                      <Text size="xs" c="red" role="alert">
                        {item.error}
                      </Text>
                    ) : item.fileId ? (
                      <Text size="xs" c="dimmed">
                        {t('permitsWeb.files.uploaded')}
                      </Text>
                    ) : (
                      <Progress
                        value={item.progress * 100}
                        size="sm"
                        aria-label={t('permitsWeb.files.progress', { name: item.name, percent: Math.round(item.progress * 100) })}
                      />
                    )}
                  </Stack>
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    size="lg"
                    aria-label={t('permitsWeb.files.remove', { name: item.name })}
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

import { FILE_RULES, WORKER_GENDERS, formatBytes, workerCreateBody, type Worker, type WorkerGender } from '@bulwark/domain';
import {
  Alert,
  Avatar,
  Button,
  Group,
  NumberInput,
  Progress,
  SegmentedControl,
  Input,
  SimpleGrid,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useStoredFileUrl } from '../../ui/index.js';
import { useWorkerCommands } from './permit-settings-api.js';

const PHOTO = FILE_RULES.photo;

type Fields = { name: string; age: number | ''; phone: string; id_number: string; gender: string | null; photo_id: string | null };

const fieldsOf = (w: Worker | null): Fields => ({
  name: w?.name ?? '',
  age: w?.age ?? '',
  phone: w?.phone ?? '',
  id_number: w?.id_number ?? '',
  gender: w?.gender ?? null,
  photo_id: w?.photo?.id ?? null,
});

/**
 * A worker profile (spec 001 §3): name, photo (JPEG or PNG under 500 KB), age, phone, ID and gender.
 * Used inline in the request flow and on the worker list; `onSaved` receives the saved worker.
 */
export function WorkerForm({ worker, onSaved, onCancel }: { worker: Worker | null; onSaved: (w: Worker) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const commands = useWorkerCommands();
  const form = useFormSubmit();
  const [fields, setFields] = useState<Fields>(() => fieldsOf(worker));
  const [progress, setProgress] = useState<number | null>(null);
  const [photoError, setPhotoError] = useState<string | null>(null);
  const [localPhoto, setLocalPhoto] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const stored = useStoredFileUrl(fields.photo_id && !localPhoto ? `/api/files/${fields.photo_id}` : undefined);
  useEffect(() => () => (localPhoto ? URL.revokeObjectURL(localPhoto) : undefined), [localPhoto]);
  const set = <K extends keyof Fields>(k: K, v: Fields[K]) => setFields((f) => ({ ...f, [k]: v }));

  async function photo(file: File | undefined) {
    setPhotoError(null);
    if (!file) return;
    if (!(PHOTO.types as readonly string[]).includes(file.type) || file.size > PHOTO.maxBytes) {
      setPhotoError(t('permitsWeb.workers.photoRule', { max: formatBytes(PHOTO.maxBytes) }));
      return;
    }
    setProgress(0);
    try {
      const id = await commands.uploadPhoto(file, setProgress);
      set('photo_id', id);
      setLocalPhoto(typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : null);
    } catch (error) {
      setPhotoError(isApiError(error) ? (error.fields['file'] ?? error.message) : t('errors.somethingWentWrong'));
    } finally {
      setProgress(null);
    }
  }

  async function save() {
    const body = {
      name: fields.name,
      photo_id: fields.photo_id,
      age: fields.age === '' ? null : fields.age,
      // An empty phone or ID is '' (the schema stores it as none), which also clears it on an edit.
      phone: fields.phone,
      id_number: fields.id_number,
      gender: fields.gender as WorkerGender | null,
    };
    if (form.refuse(validate(workerCreateBody, body, t).errors)) return;
    await form.run(async () => onSaved(worker ? await commands.update(worker.id, body) : await commands.create(body)));
  }

  const e = form.errors;
  return (
    <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), void save())} aria-label={t('permitsWeb.workers.formTitle')}>
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      <Group gap="sm" wrap="nowrap" align="center">
        <Avatar src={localPhoto ?? stored ?? null} size={64} radius="xl" alt="" />
        <Stack gap={4} style={{ minWidth: 0 }}>
          <Input.Label>{t('permitsWeb.workers.photo')}</Input.Label>
          <Group gap="xs">
            <Button size="xs" variant="light" onClick={() => input.current?.click()} loading={progress !== null}>
              {fields.photo_id ? t('permitsWeb.workers.changePhoto') : t('permitsWeb.workers.addPhoto')}
            </Button>
            {fields.photo_id ? (
              <Button size="xs" variant="subtle" color="red" onClick={() => (set('photo_id', null), setLocalPhoto(null))}>
                {t('permitsWeb.workers.removePhoto')}
              </Button>
            ) : null}
          </Group>
          <input
            ref={input}
            type="file"
            accept={PHOTO.types.join(',')}
            hidden
            aria-label={t('permitsWeb.workers.photo')}
            onChange={(ev) => {
              void photo(ev.currentTarget.files?.[0]);
              ev.currentTarget.value = '';
            }}
          />
          <Text size="xs" c={photoError || e['photo_id'] ? 'red' : 'dimmed'} role={photoError ? 'alert' : undefined}>
            {photoError ?? e['photo_id'] ?? t('permitsWeb.workers.photoRule', { max: formatBytes(PHOTO.maxBytes) })}
          </Text>
          {progress !== null ? <Progress value={progress * 100} size="xs" aria-label={t('permitsWeb.workers.photo')} /> : null}
        </Stack>
      </Group>
      <TextInput
        label={t('permits.fields.name')}
        withAsterisk
        value={fields.name}
        onChange={(ev) => set('name', ev.currentTarget.value)}
        error={e['name']}
      />
      <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
        <TextInput
          label={t('permits.fields.phone')}
          type="tel"
          value={fields.phone}
          onChange={(ev) => set('phone', ev.currentTarget.value)}
          error={e['phone']}
        />
        <TextInput
          label={t('permits.fields.idNumber')}
          value={fields.id_number}
          onChange={(ev) => set('id_number', ev.currentTarget.value)}
          error={e['id_number']}
        />
        <NumberInput
          label={t('permits.fields.age')}
          min={16}
          max={90}
          allowDecimal={false}
          value={fields.age}
          onChange={(v) => set('age', typeof v === 'number' ? v : '')}
          error={e['age']}
        />
        <Input.Wrapper label={t('permits.fields.gender')} error={e['gender']}>
          <SegmentedControl
            fullWidth
            mt={4}
            data={[
              { value: '', label: t('permitsWeb.workers.notSaid') },
              ...WORKER_GENDERS.map((g) => ({ value: g, label: t(`permits.genders.${g}`) })),
            ]}
            value={fields.gender ?? ''}
            onChange={(v) => set('gender', v === '' ? null : v)}
          />
        </Input.Wrapper>
      </SimpleGrid>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={onCancel}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" loading={form.busy} disabled={progress !== null}>
          {worker ? t('common.save') : t('permitsWeb.workers.addWorker')}
        </Button>
      </Group>
    </Stack>
  );
}

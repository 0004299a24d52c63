import type { Worker } from '@bulwark/domain';
import { ActionIcon, Alert, Avatar, Button, Group, Loader, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useStoredFileUrl } from '../../ui/index.js';
import { useRecentWorkers } from './permit-settings-api.js';
import { WorkerForm } from './worker-form.js';

function WorkerAvatar({ worker }: { worker: Worker }) {
  const src = useStoredFileUrl(worker.photo ? `/api/files/${worker.photo.id}` : undefined);
  return (
    <Avatar src={src ?? null} radius="xl" size={40} alt="">
      {worker.name.slice(0, 1)}
    </Avatar>
  );
}

/** A worker's name with what tells them apart (phone, ID). */
export function WorkerLine({ worker, action }: { worker: Worker; action?: React.ReactNode }) {
  const details = [worker.id_number, worker.phone].filter(Boolean).join(' · ');
  return (
    <Group gap="sm" wrap="nowrap">
      <WorkerAvatar worker={worker} />
      <Stack gap={0} style={{ flex: 1, minWidth: 0 }}>
        <Text size="sm" fw={500} style={{ overflowWrap: 'anywhere' }}>
          {worker.name}
        </Text>
        {details ? (
          <Text size="xs" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {details}
          </Text>
        ) : null}
      </Stack>
      {action}
    </Group>
  );
}

/**
 * The workers of a request (spec 001 §2): those named so far, a search by name, phone or ID with the
 * recently named first, and a new worker's profile made right here without leaving the request.
 */
export function WorkersStep(props: { workers: Worker[]; onChange: (workers: Worker[]) => void; error?: string | undefined }) {
  const { t } = useTranslation();
  const [search, setSearch] = useState('');
  const [value] = useDebouncedValue(search.trim(), 250);
  const [adding, setAdding] = useState(false);
  const found = useRecentWorkers(value);
  const chosen = new Set(props.workers.map((w) => w.id));
  const add = (w: Worker) => {
    if (!chosen.has(w.id)) props.onChange([...props.workers, w]);
  };
  const offered = (found.data ?? []).filter((w) => !chosen.has(w.id));

  return (
    <Stack gap="md">
      <Stack gap="xs" component="section" aria-labelledby="workers-named">
        <Title order={2} size="h4" id="workers-named">
          {t('permitsWeb.request.workersNamed', { count: props.workers.length })}
        </Title>
        {props.error ? (
          <Alert color="red" role="alert" p="xs">
            {props.error}
          </Alert>
        ) : null}
        {props.workers.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('permitsWeb.request.noWorkersYet')}
          </Text>
        ) : (
          <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('permits.fields.workers')}>
            {props.workers.map((w) => (
              <Paper key={w.id} component="li" withBorder p="xs" radius="md">
                <WorkerLine
                  worker={w}
                  action={
                    <ActionIcon
                      variant="subtle"
                      color="red"
                      size="lg"
                      aria-label={t('permitsWeb.request.removeWorker', { name: w.name })}
                      onClick={() => props.onChange(props.workers.filter((x) => x.id !== w.id))}
                    >
                      ×
                    </ActionIcon>
                  }
                />
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>

      {adding ? (
        <Paper withBorder p="sm" radius="md" component="section" aria-label={t('permitsWeb.workers.formTitle')}>
          <Title order={3} size="h5" mb="xs">
            {t('permitsWeb.workers.formTitle')}
          </Title>
          <WorkerForm
            worker={null}
            onCancel={() => setAdding(false)}
            onSaved={(w) => {
              add(w);
              setAdding(false);
            }}
          />
        </Paper>
      ) : (
        <Button variant="light" onClick={() => setAdding(true)} w="fit-content">
          {t('permitsWeb.request.newWorker')}
        </Button>
      )}

      <Stack gap="xs" component="section" aria-labelledby="workers-find">
        <Title order={2} size="h4" id="workers-find">
          {value ? t('permitsWeb.request.found') : t('permitsWeb.request.recent')}
        </Title>
        <TextInput
          type="search"
          label={t('permitsWeb.request.searchWorkers')}
          placeholder={t('permitsWeb.request.searchWorkersHint')}
          value={search}
          onChange={(e) => setSearch(e.currentTarget.value)}
          rightSection={found.isFetching ? <Loader size="xs" /> : null}
        />
        {found.isLoading ? (
          <Loader size="sm" aria-label={t('common.loading')} />
        ) : offered.length === 0 ? (
          <Text size="sm" c="dimmed">
            {value ? t('permitsWeb.request.noWorkerFound') : t('permitsWeb.request.noRecent')}
          </Text>
        ) : (
          <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label={t('permitsWeb.request.found')}>
            {offered.map((w) => (
              <Paper key={w.id} component="li" withBorder p="xs" radius="md">
                <WorkerLine
                  worker={w}
                  action={
                    <Button
                      size="xs"
                      variant="light"
                      onClick={() => add(w)}
                      aria-label={t('permitsWeb.request.addWorker', { name: w.name })}
                    >
                      {t('kit.add')}
                    </Button>
                  }
                />
              </Paper>
            ))}
          </Stack>
        )}
      </Stack>
    </Stack>
  );
}

import { formatBytes, type StorageFile } from '@bulwark/domain';
import { Alert, Anchor, Badge, Button, Group, Paper, Progress, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { DataTable, PageHeader, useConfirm, type Column } from '../../ui/index.js';
import { useStorageCommands, useStorageUsage } from './storage-api.js';

/**
 * /storage (admin): what uses the organisation's storage. The quota and what is charged to it, guests'
 * uploads waiting for a report (not charged), files no record uses (removed by the hourly sweep a day
 * after upload), and the largest files with the records that use them; an unused file can be removed
 * here at once, which is how an admin frees a full organisation.
 */
export function StoragePage() {
  const { t } = useTranslation();
  const usage = useStorageUsage();
  const data = usage.data;
  return (
    <Stack maw={1000}>
      <PageHeader title={t('screen.storage')} description={t('storage.screen.intro')} />
      {data?.mem_exhausted ? (
        <Alert color="red" role="alert">
          {t('storage.screen.full')}
        </Alert>
      ) : null}
      {data ? (
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          <Figure
            label={t('storage.screen.used')}
            value={t('storage.usage', { used: formatBytes(data.used_bytes), quota: formatBytes(data.quota_bytes) })}
          >
            <Progress
              value={Math.min(100, data.quota_bytes > 0 ? (data.used_bytes / data.quota_bytes) * 100 : 100)}
              color={data.mem_exhausted ? 'red' : 'blue'}
              aria-label={t('storage.screen.used')}
              mt="xs"
            />
          </Figure>
          <Figure
            label={t('storage.screen.pending')}
            value={t('storage.screen.pendingHint', { count: data.pending_count, size: formatBytes(data.pending_bytes) })}
          />
          <Figure
            label={t('storage.screen.unlinked')}
            value={t('storage.screen.unlinkedHint', { count: data.unlinked_count, size: formatBytes(data.unlinked_bytes) })}
          />
        </SimpleGrid>
      ) : null}
      <Title order={2} size="h4">
        {t('storage.screen.largest')}
      </Title>
      <LargestFiles files={data?.files} error={usage.isError} loading={usage.isFetching} />
    </Stack>
  );
}

function Figure({ label, value, children }: { label: string; value: string; children?: ReactNode }) {
  return (
    <Paper withBorder radius="md" p="md">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Text fw={600}>{value}</Text>
      {children}
    </Paper>
  );
}

function LargestFiles({ files, error, loading }: { files: StorageFile[] | undefined; error: boolean; loading: boolean }) {
  const { t, i18n } = useTranslation();
  const commands = useStorageCommands();
  const [confirm, dialog] = useConfirm();
  const [removing, setRemoving] = useState<string | null>(null);
  const when = new Intl.DateTimeFormat(i18n.language, { dateStyle: 'medium', timeStyle: 'short' });

  async function remove(f: StorageFile) {
    const size = formatBytes(f.size_bytes);
    const ok = await confirm({
      title: t('storage.screen.confirmTitle'),
      message: t('storage.screen.confirmRemove', { name: f.file_name, size }),
      confirmLabel: t('storage.screen.remove'),
      danger: true,
    });
    if (!ok) return;
    setRemoving(f.id);
    try {
      await commands.removeFile(f.id);
      notifySuccess(t('storage.screen.removed'));
    } catch {
      // The HTTP client has shown the refusal (e.g. a record took the file meanwhile).
    } finally {
      setRemoving(null);
    }
  }

  const columns: Column<StorageFile>[] = [
    {
      key: 'name',
      header: t('storage.screen.name'),
      render: (f) => (
        <Stack gap={0} style={{ minWidth: 0 }}>
          <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
            {f.file_name}
          </Text>
          <Text size="xs" c="dimmed">
            {formatBytes(f.size_bytes)}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'uploaded',
      header: t('storage.screen.uploaded'),
      hideOnPhone: true,
      render: (f) => (
        <Stack gap={0}>
          <Text size="sm">{when.format(new Date(f.created_at))}</Text>
          <Text size="xs" c="dimmed">
            {f.uploaded_by?.full_name ?? t('storage.screen.guest')}
          </Text>
        </Stack>
      ),
    },
    { key: 'links', header: t('storage.screen.usedBy'), render: (f) => <UsedBy file={f} /> },
    {
      key: 'remove',
      header: '',
      width: 110,
      render: (f) =>
        f.links.length === 0 ? (
          <Button
            size="xs"
            color="red"
            variant="light"
            loading={removing === f.id}
            aria-label={t('storage.screen.removeLabel', { name: f.file_name })}
            onClick={() => void remove(f)}
          >
            {t('storage.screen.remove')}
          </Button>
        ) : null,
    },
  ];

  return (
    <>
      <DataTable
        columns={columns}
        rows={files}
        rowKey={(f) => f.id}
        error={error}
        loading={loading}
        emptyText={t('storage.screen.empty')}
        caption={t('storage.screen.largest')}
      />
      {dialog}
    </>
  );
}

/** The records that use a file, each a link to it; a guest's waiting upload or an unused file says so. */
function UsedBy({ file }: { file: StorageFile }) {
  const { t } = useTranslation();
  if (file.links.length === 0) {
    return file.pending ? (
      <Badge color="yellow" variant="light" style={{ whiteSpace: 'normal', height: 'auto' }}>
        {t('storage.screen.waitingForReport')}
      </Badge>
    ) : (
      <Text size="sm" c="dimmed">
        {t('storage.screen.notLinked')}
      </Text>
    );
  }
  return (
    <Group gap="xs">
      {file.links.map((l) => {
        const label = t(`storage.links.${l.kind}`, { label: l.label });
        return l.path ? (
          <Anchor key={`${l.kind}-${l.path}`} component={Link} to={l.path} size="sm">
            {label}
          </Anchor>
        ) : (
          <Text key={`${l.kind}-${l.label}`} size="sm">
            {label}
          </Text>
        );
      })}
    </Group>
  );
}

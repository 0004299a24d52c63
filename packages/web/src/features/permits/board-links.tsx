import type { ActiveSite, BoardLink } from '@bulwark/domain';
import { Alert, Badge, Button, Code, CopyButton, Group, Modal, Paper, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormats } from '../../ui/format.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { DataTable, useConfirm, type Column } from '../../ui/index.js';
import { useBoardLinkCommands, useBoardLinks } from './permit-settings-api.js';

/**
 * The read-only board links (admins): one site each, opened on a wall screen without signing in. The
 * address is shown once, when the link is made (only its hash is kept); a revoked link's screen is
 * refused from then on.
 */
export function BoardLinks({ sites }: { sites: ActiveSite[] }) {
  const { t } = useTranslation();
  const f = useFormats();
  const links = useBoardLinks(true);
  const commands = useBoardLinkCommands();
  const [confirm, confirmDialog] = useConfirm();
  const form = useFormSubmit();
  const [siteId, setSiteId] = useState<string | null>(null);
  const [label, setLabel] = useState('');
  const [made, setMade] = useState<{ url: string; label: string } | null>(null);

  const create = () =>
    form.run(async () => {
      const answer = await commands.create(siteId ?? '', label);
      setMade({ url: answer.url, label: answer.link.label });
      setLabel('');
    });
  async function revoke(link: BoardLink) {
    if (!(await confirm({ message: t('permitsWeb.links.revokeConfirm', { label: link.label }), danger: true }))) return;
    await commands.revoke(link.id);
    notifySuccess(t('permitsWeb.links.revoked'));
  }

  const columns: Column<BoardLink>[] = [
    {
      key: 'label',
      header: t('permitsWeb.links.label'),
      render: (l) => (
        <Stack gap={0}>
          <Text size="sm" fw={500}>
            {l.label}
          </Text>
          <Text size="xs" c="dimmed">
            {l.site.name}
          </Text>
        </Stack>
      ),
    },
    {
      key: 'made',
      header: t('permitsWeb.links.made'),
      render: (l) => `${f.instant(l.created_at)}${l.created_by ? ` · ${l.created_by.full_name}` : ''}`,
      hideOnPhone: true,
    },
    {
      key: 'used',
      header: t('permitsWeb.links.lastUsed'),
      render: (l) => (l.last_used_at ? f.instant(l.last_used_at) : '—'),
      hideOnPhone: true,
    },
    {
      key: 'state',
      header: t('permits.fields.status'),
      render: (l) =>
        l.revoked_at ? (
          <Badge color="gray" variant="light">
            {t('permitsWeb.links.revokedOn', { date: f.instant(l.revoked_at) })}
          </Badge>
        ) : (
          <Button
            size="compact-sm"
            color="red"
            variant="subtle"
            onClick={() => void revoke(l)}
            aria-label={t('permitsWeb.links.revokeOf', { label: l.label })}
          >
            {t('permitsWeb.links.revoke')}
          </Button>
        ),
    },
  ];

  return (
    <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }} component="section" aria-labelledby="board-links">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="board-links">
            {t('permitsWeb.links.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('permitsWeb.links.help')}
          </Text>
        </div>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Group gap="xs" align="flex-end" wrap="wrap">
          <Select
            label={t('permits.fields.site')}
            data={sites.map((s) => ({ value: s.id, label: s.name }))}
            value={siteId}
            onChange={setSiteId}
            error={form.errors['site_id']}
            w={{ base: '100%', xs: 220 }}
          />
          <TextInput
            label={t('permitsWeb.links.label')}
            placeholder={t('permitsWeb.links.labelHint')}
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={form.errors['label']}
            w={{ base: '100%', xs: 240 }}
          />
          <Button onClick={() => void create()} loading={form.busy}>
            {t('permitsWeb.links.make')}
          </Button>
        </Group>
        <DataTable
          columns={columns}
          rows={links.data}
          rowKey={(l) => l.id}
          error={links.isError}
          emptyText={t('permitsWeb.links.empty')}
          caption={t('permitsWeb.links.title')}
        />
      </Stack>
      <Modal
        opened={made !== null}
        onClose={() => setMade(null)}
        title={t('permitsWeb.links.madeTitle', { label: made?.label ?? '' })}
        centered
      >
        {made ? (
          <Stack gap="sm">
            <Text size="sm">{t('permitsWeb.links.onlyOnce')}</Text>
            <Code block style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }} data-board-url>
              {made.url}
            </Code>
            <Group justify="flex-end">
              <CopyButton value={made.url}>
                {({ copied, copy }) => <Button onClick={copy}>{copied ? t('permitsWeb.links.copied') : t('permitsWeb.links.copy')}</Button>}
              </CopyButton>
            </Group>
          </Stack>
        ) : null}
      </Modal>
      {confirmDialog}
    </Paper>
  );
}

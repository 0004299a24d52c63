import type { Permit } from '@bulwark/domain';
import { Alert, Button, Group, Modal, Paper, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useConfirm } from '../../ui/index.js';
import { useMe, usePermitCommands, usePermitReaders } from './permits-api.js';

/**
 * Shares a draft with a colleague who reads permits (spec 001 §4 "send draft"): both may then open,
 * edit and submit it; they are told. The requester may stop sharing, and a colleague may leave it.
 */
export function ShareDialog({ permit, opened, onClose }: { permit: Permit; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const me = useMe();
  const readers = usePermitReaders();
  const commands = usePermitCommands();
  const form = useFormSubmit();
  const [confirm, confirmDialog] = useConfirm();
  const [userId, setUserId] = useState<string | null>(null);
  const taken = new Set([permit.requester.id, ...permit.shared_with.map((p) => p.id)]);
  const options = (readers.data ?? []).filter((u) => !taken.has(u.id)).map((u) => ({ value: u.id, label: u.full_name }));

  const share = () =>
    form.run(async () => {
      if (!userId) return;
      const name = options.find((o) => o.value === userId)?.label ?? '';
      await commands.share(permit.id, userId);
      notifySuccess(t('permitsWeb.share.done', { name }));
      setUserId(null);
    });

  const unshare = async (id: string, name: string) => {
    if (!(await confirm({ message: t('permitsWeb.share.stopConfirm', { name }), danger: true }))) return;
    await form.run(async () => {
      await commands.unshare(permit.id, id);
    });
  };

  return (
    <Modal opened={opened} onClose={onClose} title={t('permitsWeb.share.title', { number: permit.number })}>
      <Stack gap="sm">
        <Text size="sm">{t('permitsWeb.share.help')}</Text>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <Select
          label={t('permitsWeb.share.colleague')}
          placeholder={t('permitsWeb.share.pick')}
          searchable
          data={options}
          value={userId}
          onChange={setUserId}
          error={form.errors['user_id']}
          nothingFoundMessage={t('kit.noResults')}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button onClick={() => void share()} loading={form.busy} disabled={!userId}>
            {t('permitsWeb.share.share')}
          </Button>
        </Group>
        {permit.shared_with.length > 0 ? (
          <Stack gap={4}>
            <Text fw={500} size="sm">
              {t('permitsWeb.share.sharedWith')}
            </Text>
            {permit.shared_with.map((p) => (
              <Paper key={p.id} withBorder p="xs">
                <Group justify="space-between" gap="xs" wrap="nowrap">
                  <Text size="sm">{p.full_name}</Text>
                  {me.id === permit.requester.id || me.id === p.id ? (
                    <Button size="compact-sm" variant="subtle" color="red" onClick={() => void unshare(p.id, p.full_name)}>
                      {me.id === p.id ? t('permitsWeb.share.leave') : t('permitsWeb.share.stop')}
                    </Button>
                  ) : null}
                </Group>
              </Paper>
            ))}
          </Stack>
        ) : null}
      </Stack>
      {confirmDialog}
    </Modal>
  );
}

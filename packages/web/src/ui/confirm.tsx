import { Button, Group, Modal, Text } from '@mantine/core';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

type Ask = { title?: string; message: ReactNode; confirmLabel?: string; danger?: boolean };

/**
 * Asks before a destructive or irreversible step. `const [confirm, dialog] = useConfirm();` then
 * `if (await confirm({ message })) ...` and render `{dialog}` once in the screen.
 */
export function useConfirm(): [(ask: Ask) => Promise<boolean>, ReactNode] {
  const { t } = useTranslation();
  const [ask, setAsk] = useState<Ask | null>(null);
  const resolver = useRef<((ok: boolean) => void) | null>(null);

  const confirm = useCallback((next: Ask) => {
    setAsk(next);
    return new Promise<boolean>((resolve) => {
      resolver.current = resolve;
    });
  }, []);

  const answer = (ok: boolean) => {
    resolver.current?.(ok);
    resolver.current = null;
    setAsk(null);
  };

  const dialog = (
    <Modal opened={ask !== null} onClose={() => answer(false)} title={ask?.title ?? t('kit.confirmTitle')} centered>
      <Text mb="lg">{ask?.message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={() => answer(false)}>
          {t('common.cancel')}
        </Button>
        <Button color={ask?.danger ? 'red' : undefined} onClick={() => answer(true)} data-autofocus>
          {ask?.confirmLabel ?? t('kit.confirm')}
        </Button>
      </Group>
    </Modal>
  );
  return [confirm, dialog];
}

import type { WebhookEndpoint } from '@bulwark/domain';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useConfirm } from '../../ui/index.js';
import { useWebhookCommands } from './integrations-api.js';
import { SecretReveal } from './secret-reveal.js';
import { answerSummary } from './webhook-delivery.js';
import { WebhookDialog } from './webhook-dialog.js';

export type EndpointActions = {
  create: () => void;
  edit: (endpoint: WebhookEndpoint) => void;
  sendTest: (endpoint: WebhookEndpoint) => Promise<void>;
  rotate: (endpoint: WebhookEndpoint) => Promise<void>;
  remove: (endpoint: WebhookEndpoint) => Promise<void>;
  setActive: (endpoint: WebhookEndpoint, active: boolean) => Promise<void>;
  /** `<endpoint id>:<action>` while a button's call is under way. */
  busy: string | null;
  /** The dialogs (form, confirmation, the secret shown once): render once in the screen. */
  dialogs: ReactNode;
};

/** What the webhooks list and an endpoint's page both offer, with their confirmations and dialogs. */
export function useEndpointActions(events: readonly string[], onRemoved?: () => void): EndpointActions {
  const { t } = useTranslation();
  const commands = useWebhookCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [editing, setEditing] = useState<WebhookEndpoint | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  async function busyWith(key: string, action: () => Promise<void>) {
    setBusy(key);
    try {
      await action();
    } catch {
      // The HTTP client has shown the refusal.
    } finally {
      setBusy(null);
    }
  }

  return {
    create: () => setEditing('new'),
    edit: setEditing,
    busy,
    sendTest: (e) =>
      busyWith(`${e.id}:test`, async () => {
        const delivery = await commands.sendTest(e.id);
        if (delivery.status === 'delivered') notifySuccess(`${t('webhooks.testQueued')} ${answerSummary(delivery, t)}`);
        else notifyError(answerSummary(delivery, t), t('webhooks.statuses.failed'));
      }),
    rotate: async (e) => {
      const ok = await confirm({
        title: t('webhooks.rotateTitle'),
        message: t('webhooks.rotateBody'),
        confirmLabel: t('webhooks.rotate'),
        danger: true,
      });
      if (ok) await busyWith(`${e.id}:rotate`, async () => setSecret(await commands.rotateSecret(e.id)));
    },
    remove: async (e) => {
      const ok = await confirm({
        title: t('webhooks.removeTitle'),
        message: t('webhooks.removeBody', { url: e.url }),
        confirmLabel: t('webhooks.remove'),
        danger: true,
      });
      if (!ok) return;
      await busyWith(`${e.id}:remove`, async () => {
        await commands.remove(e.id);
        notifySuccess(t('webhooks.removed'));
        onRemoved?.();
      });
    },
    setActive: (e, active) => busyWith(`${e.id}:active`, () => commands.update(e.id, { active })),
    dialogs: (
      <>
        {editing ? <WebhookDialog endpoint={editing} events={events} onClose={() => setEditing(null)} onSecret={setSecret} /> : null}
        <SecretReveal
          secret={secret}
          title={t('webhooks.secretTitle')}
          warning={t('webhooks.secretBody')}
          label={t('webhooks.secretLabel')}
          copyLabel={t('webhooks.copy')}
          copiedLabel={t('webhooks.copied')}
          doneLabel={t('webhooks.done')}
          onDone={() => setSecret(null)}
        />
        {confirmDialog}
      </>
    ),
  };
}

import type { ActionDetail, ActionStatus } from '@bulwark/domain';
import { Alert, Button, Group, Paper, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { serverErrors } from '../../ui/forms/validation.js';
import { ACTIONS_KEY, useActionCommands } from './actions-api.js';
import { CompleteDialog } from './complete-dialog.js';
import { usePanelConfirm } from './panel-dialogs.js';

/** One button of the panel: the status it moves to, its words, and what the person is told afterwards. */
export type Move = { to: ActionStatus; label: string; done: string; primary: boolean };

/**
 * The buttons an action offers now. The server says where this person may move it (`can.move_to`,
 * from the domain's ACTION_TRANSITIONS and rights); this only names each move as the person thinks
 * of it: moving a completed action back to in progress is "send back", not "start".
 */
export function movesOf(action: Pick<ActionDetail, 'status' | 'can'>): Move[] {
  const order: ActionStatus[] = ['in_progress', 'completed', 'closed', 'open'];
  return (
    order
      // "Reopen" means nothing while the action is being worked on (in progress).
      .filter((to) => action.can.move_to.includes(to) && !(to === 'open' && action.status === 'in_progress'))
      .map((to): Move => {
        switch (to) {
          case 'in_progress':
            return action.status === 'completed'
              ? { to, label: 'actions.form.sendBack', done: 'actionsWeb.moves.sentBack', primary: false }
              : { to, label: 'actions.form.start', done: 'actionsWeb.moves.started', primary: true };
          case 'completed':
            return { to, label: 'actions.form.complete', done: 'actionsWeb.moves.completed', primary: true };
          case 'closed':
            return { to, label: 'actions.form.close', done: 'actionsWeb.moves.closed', primary: true };
          default:
            return { to, label: 'actions.form.reopen', done: 'actionsWeb.moves.reopened', primary: false };
        }
      })
  );
}

/** Start, complete (with remarks and a photo), close (after confirming), send back, reopen. */
export function StatusMoves({ action }: { action: ActionDetail }) {
  const { t } = useTranslation();
  const commands = useActionCommands();
  const queryClient = useQueryClient();
  const [confirm, dialog] = usePanelConfirm();
  const [busy, setBusy] = useState<ActionStatus | null>(null);
  const [completing, setCompleting] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const moves = movesOf(action);
  // Someone who may update actions but is not offered closing a completed one: they completed it
  // themselves and the organisation needs another person to close it (mayCloseAction).
  const closeByOther = action.status === 'completed' && action.can.edit && !action.can.move_to.includes('closed');

  if (action.status === 'closed') {
    return (
      <Alert color="gray" role="status">
        {t('actions.form.readOnly')}
      </Alert>
    );
  }

  async function move(m: Move) {
    if (m.to === 'completed') return setCompleting(true);
    if (m.to === 'closed') {
      const ok = await confirm({
        title: t('actions.form.confirmCloseTitle'),
        message: t('actions.form.confirmCloseBody'),
        confirmLabel: t('actions.form.close'),
      });
      if (!ok) return;
    }
    setBusy(m.to);
    setProblem(null);
    try {
      await commands.move(action.id, m.to);
      notifySuccess(t(m.done));
      await queryClient.invalidateQueries({ queryKey: ACTIONS_KEY });
    } catch (error) {
      const shown = serverErrors(error, t('errors.somethingWentWrong'));
      setProblem(shown.message ?? Object.values(shown.fields)[0] ?? t('errors.somethingWentWrong'));
    } finally {
      setBusy(null);
    }
  }

  return (
    <Paper withBorder radius="md" p="sm" component="section" aria-label={t('actionsWeb.moves.title')}>
      {moves.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('actionsWeb.moves.none')}
        </Text>
      ) : (
        <Group gap="xs" wrap="wrap">
          {moves.map((m) => (
            <Button
              key={m.to}
              variant={m.primary ? 'filled' : 'default'}
              color={m.to === 'closed' ? 'teal' : undefined}
              loading={busy === m.to}
              disabled={busy !== null && busy !== m.to}
              onClick={() => void move(m)}
            >
              {t(m.label)}
            </Button>
          ))}
        </Group>
      )}
      {closeByOther ? (
        <Text size="sm" c="dimmed" mt="xs">
          {t('actionsWeb.panel.closeByOther')}
        </Text>
      ) : null}
      {problem ? (
        <Alert color="red" role="alert" mt="sm">
          {problem}
        </Alert>
      ) : null}
      <CompleteDialog action={action} opened={completing} onClose={() => setCompleting(false)} />
      {dialog}
    </Paper>
  );
}

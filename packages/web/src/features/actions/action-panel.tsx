import type { ActionDetail } from '@bulwark/domain';
import { Alert, Anchor, Button, Drawer, Group, Stack, Tabs, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { PageLoader } from '../../ui/index.js';
import { ActionAttachments } from './action-attachments.js';
import { ActionDetails } from './action-details.js';
import { ActionEditForm, ActionAddForm } from './action-form.js';
import { ActionHistory } from './action-history.js';
import { StatusBadge } from './action-list.js';
import { StatusMoves } from './status-moves.js';
import { actionSerial, useAction, useActionRights } from './actions-api.js';
import { sourceLink } from './format.js';
import type { ActionScreen, Panel } from './list-url.js';
import { NestedDialogsProvider } from './panel-dialogs.js';

export const PANEL_TABS = ['details', 'attachments', 'history'] as const;
export type PanelTab = (typeof PANEL_TABS)[number];

type Props = {
  screen: ActionScreen;
  panel: Panel | null;
  onNavigate: (panel: Panel, replace?: boolean) => void;
  onClose: () => void;
};

/**
 * The right panel over an action list (full screen on a phone): add, summary and edit, with the
 * address's tab picking its section. Escape and the close button return to the list.
 */
export function ActionPanel({ screen, panel, onNavigate, onClose }: Props) {
  const { t } = useTranslation();
  const phone = useMediaQuery('(max-width: 48em)');
  const [nested, setNested] = useState(0);
  const report = useCallback((delta: number) => setNested((n) => Math.max(0, n + delta)), []);
  const id = panel && panel.mode !== 'add' ? panel.id : null;
  const action = useAction(id, screen.source);
  const title =
    panel?.mode === 'add'
      ? t('actions.form.newTitle')
      : action.data
        ? t('actions.form.summaryTitle', { serial: actionSerial(action.data.serial) })
        : t('actions.title');

  return (
    <Drawer
      opened={panel !== null}
      onClose={onClose}
      position="right"
      size={phone ? '100%' : 'xl'}
      closeOnEscape={nested === 0}
      title={title}
      closeButtonProps={{ 'aria-label': t('actionsWeb.panel.close') }}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-lg)' } }}
    >
      <NestedDialogsProvider onChange={report}>
        {panel?.mode === 'add' ? (
          <AddPanel onCreated={(newId) => onNavigate({ mode: 'summary', id: newId, tab: null }, true)} onCancel={onClose} />
        ) : panel ? (
          action.isError ? (
            <Stack>
              <Alert color="red" role="alert">
                {isApiError(action.error) && action.error.status === 404 ? t('actionsWeb.panel.notFound') : t('kit.loadFailed')}
              </Alert>
              <Button variant="default" onClick={onClose} w="fit-content">
                {t('common.close')}
              </Button>
            </Stack>
          ) : action.data ? (
            <ActionView key={action.data.id} action={action.data} panel={panel} onNavigate={onNavigate} />
          ) : (
            <PageLoader />
          )
        ) : null}
      </NestedDialogsProvider>
    </Drawer>
  );
}

function AddPanel({ onCreated, onCancel }: { onCreated: (id: string) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const rights = useActionRights();
  if (!rights.create) {
    return (
      <Alert color="yellow" role="status">
        {t('actionsWeb.panel.noRightToAdd')}
      </Alert>
    );
  }
  return <ActionAddForm onCreated={onCreated} onCancel={onCancel} />;
}

function ActionView({
  action,
  panel,
  onNavigate,
}: {
  action: ActionDetail;
  panel: Extract<Panel, { id: string }>;
  onNavigate: Props['onNavigate'];
}) {
  const { t } = useTranslation();
  const tab: PanelTab = (PANEL_TABS as readonly string[]).includes(panel.tab ?? '') ? (panel.tab as PanelTab) : 'details';
  const editing = panel.mode === 'edit' && (action.can.edit || action.can.report);
  const go = (mode: 'summary' | 'edit', nextTab: PanelTab | null = panel.tab as PanelTab | null) =>
    onNavigate({ mode, id: action.id, tab: nextTab }, true);
  const source = sourceLink(action.source);

  return (
    <Stack gap="md">
      <Group justify="space-between" gap="xs" wrap="wrap">
        <Group gap="xs" wrap="wrap">
          <StatusBadge status={action.status} />
          {action.source.type === 'other' ? (
            <Text size="sm" c="dimmed">
              {t('actionsWeb.list.raisedOnItsOwn')}
            </Text>
          ) : source.to ? (
            <Anchor component={Link} to={source.to} size="sm">
              {t('actionsWeb.panel.source', { source: t(`actions.source.${action.source.type}`), serial: source.serial })}
            </Anchor>
          ) : (
            <Text size="sm">
              {t('actionsWeb.panel.source', { source: t(`actions.source.${action.source.type}`), serial: source.serial })}
            </Text>
          )}
        </Group>
        {editing ? (
          <Button variant="default" size="compact-sm" onClick={() => go('summary')}>
            {t('actionsWeb.panel.view')}
          </Button>
        ) : action.can.edit || action.can.report ? (
          <Button variant="light" size="compact-sm" onClick={() => go('edit', 'details')}>
            {t('actionsWeb.panel.edit')}
          </Button>
        ) : null}
      </Group>
      <Tabs value={tab} onChange={(v) => v && go(editing ? 'edit' : 'summary', v as PanelTab)} keepMounted={false}>
        <Tabs.List aria-label={t('actionsWeb.panel.tabs')}>
          <Tabs.Tab value="details">{t('actions.form.details')}</Tabs.Tab>
          <Tabs.Tab value="attachments">
            {t('actions.fields.attachments')} ({action.attachments.length})
          </Tabs.Tab>
          <Tabs.Tab value="history">{t('actions.form.history')}</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="details" pt="md">
          <Stack gap="md">
            <StatusMoves action={action} />
            {editing ? (
              <ActionEditForm action={action} onSaved={() => go('summary', 'details')} onCancel={() => go('summary')} />
            ) : (
              <ActionDetails action={action} />
            )}
          </Stack>
        </Tabs.Panel>
        <Tabs.Panel value="attachments" pt="md">
          <ActionAttachments action={action} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt="md">
          <ActionHistory action={action} />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

import { Button, Stack } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { useScreen } from '../../ui/pages/use-screen.js';
import { ExportButton, PageHeader } from '../../ui/index.js';
import { ActionPanel } from './action-panel.js';
import { ActionList } from './action-list.js';
import { useActionRights, useListExport } from './actions-api.js';
import { actionScreen, listAddress, listQuery, panelAddress, readAddress, type ListState, type Panel } from './list-url.js';

/**
 * Every action list of spec 000 §2 (/actions, /actions/audits, …, /actions/all) with the action form in
 * a right panel over it. The address holds both the list's filters and the panel (mode, id, tab), so
 * a link, a reload or the back button land on the same view, and closing the panel returns to the list.
 */
export function ActionsPage() {
  const { t } = useTranslation();
  const screen = actionScreen(useScreen());
  const location = useLocation();
  const { pathname, search } = location;
  const navigate = useNavigate();
  const rights = useActionRights();
  const { panel, state } = readAddress(screen, pathname, search);

  const setState = (next: ListState) => {
    void navigate(panel ? panelAddress(screen, next, panel) : listAddress(screen, next), { replace: true });
  };
  // A panel opened from another list (New action from /actions/audits) returns there when closed.
  const from = cameFrom(location.state);
  const openPanel = (next: Panel, replace = false) => void navigate(panelAddress(screen, state, next), { replace, state: location.state });
  const closePanel = () => void navigate(from ?? listAddress(screen, state));

  // Exactly the rows of the filters and tab, every page of them.
  const { page: _page, ...filters } = listQuery(screen, state);
  const exportList = useListExport(screen, filters);

  return (
    <Stack gap="md">
      <PageHeader
        title={t(screen.titleKey)}
        actions={
          <>
            <ExportButton download={exportList} />
            {rights.create ? (
              <Button
                component={Link}
                to={panelAddress(screen, state, { mode: 'add' })}
                state={{ from: from ?? listAddress(screen, state) }}
              >
                {t('actions.list.newAction')}
              </Button>
            ) : null}
          </>
        }
      />
      <ActionList screen={screen} state={state} onState={setState} />
      <ActionPanel screen={screen} panel={panel} onNavigate={openPanel} onClose={closePanel} />
    </Stack>
  );
}

function cameFrom(state: unknown): string | null {
  if (typeof state !== 'object' || state === null || !('from' in state)) return null;
  const from = (state as { from: unknown }).from;
  return typeof from === 'string' && from.startsWith('/actions') ? from : null;
}

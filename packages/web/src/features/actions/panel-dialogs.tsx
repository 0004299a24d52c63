import { createContext, useCallback, useContext, useEffect, useState, type ReactNode } from 'react';
import { useConfirm } from '../../ui/index.js';

/**
 * Escape belongs to the topmost dialog. Mantine's drawer and a dialog opened over it both listen on the
 * window, and the drawer (mounted first) would hear Escape first and close the whole panel. Dialogs in
 * the panel report that they are open, and the drawer leaves Escape to them meanwhile.
 */
const NestedDialogs = createContext<(delta: number) => void>(() => undefined);

export function NestedDialogsProvider({ onChange, children }: { onChange: (delta: number) => void; children: ReactNode }) {
  return <NestedDialogs.Provider value={onChange}>{children}</NestedDialogs.Provider>;
}

/** Counts a dialog of the panel as open while `open` holds. */
export function useNestedDialog(open: boolean): void {
  const report = useContext(NestedDialogs);
  useEffect(() => {
    if (!open) return;
    report(1);
    return () => report(-1);
  }, [open, report]);
}

/** The kit's confirmation, counted as a nested dialog while it asks. */
export function usePanelConfirm(): [(ask: Parameters<ReturnType<typeof useConfirm>[0]>[0]) => Promise<boolean>, ReactNode] {
  const [confirm, dialog] = useConfirm();
  const [asking, setAsking] = useState(false);
  useNestedDialog(asking);
  const ask = useCallback(
    async (question: Parameters<typeof confirm>[0]) => {
      setAsking(true);
      try {
        return await confirm(question);
      } finally {
        setAsking(false);
      }
    },
    [confirm],
  );
  return [ask, dialog];
}

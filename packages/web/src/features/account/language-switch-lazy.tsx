import { Button } from '@mantine/core';
import { lazy, Suspense, useState } from 'react';
import { useLanguageButton } from './language-button.js';

const loadMenu = () => import('./language-switch.js');
const LanguageMenu = lazy(() => loadMenu().then((m) => ({ default: m.LanguageSwitch })));

/**
 * The language switch of the signed-out pages: the same button, whose menu (Mantine's Menu, Popover and
 * floating-ui, a third of the sign-in page's code) is fetched when a pointer or the focus comes near it
 * and shown opened on the first click. The signed-in shell has the menu at once (language-switch.tsx).
 */
export function LazyLanguageSwitch() {
  const button = useLanguageButton();
  const [opened, setOpened] = useState(false);
  const standIn = (
    <Button
      {...button}
      aria-haspopup="menu"
      aria-expanded={false}
      onPointerEnter={() => void loadMenu()}
      onFocus={() => void loadMenu()}
      onClick={() => setOpened(true)}
    />
  );
  if (!opened) return standIn;
  return (
    <Suspense fallback={standIn}>
      <LanguageMenu openAtOnce />
    </Suspense>
  );
}

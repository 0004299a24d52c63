import { parseRecordSerial, type Principal } from '@bulwark/domain';
import { ActionIcon, Button, Kbd, Modal, Stack, Text, TextInput, UnstyledButton } from '@mantine/core';
import { useDisclosure, useWindowEvent } from '@mantine/hooks';
import { useMemo, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useRecordFinder } from '../../features/home/home-api.js';
import { notifyError } from '../notify.js';
import { hasOwnScreen } from '../screens.js';
import { visibleMenu } from './menu.js';
import { NavIcon } from './nav-icons.js';

type Entry = { key: string; label: string; hint?: string; icon: string; go: () => void | Promise<void> };

/** Typing in a field keeps its "/": the palette opens on "/" only outside text inputs. */
function typingIn(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el) return false;
  return el.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(el.tagName);
}

const fold = (s: string) =>
  s
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '')
    .toLowerCase();

/**
 * The command palette (issue 15): "/" or Ctrl-K anywhere opens it; a screen is found by its name, a
 * record by its serial (OBS-000014, SI-000003, #12). Arrow keys move, Enter opens, Escape closes.
 */
export function CommandPalette({ principal, host }: { principal: Principal; host: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const find = useRecordFinder();
  const [opened, { open, close }] = useDisclosure(false);
  const [text, setText] = useState('');
  const [active, setActive] = useState(0);
  const [busy, setBusy] = useState(false);

  useWindowEvent('keydown', (e) => {
    if (opened) return;
    const ctrlK = (e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k';
    const slash = e.key === '/' && !e.ctrlKey && !e.metaKey && !e.altKey && !typingIn(e.target);
    if (ctrlK || slash) {
      e.preventDefault();
      setText('');
      setActive(0);
      open();
    }
  });

  const screens = useMemo(
    () =>
      visibleMenu(principal, host, hasOwnScreen)
        .flatMap((g) => g.items)
        .map((i) => ({ path: i.path, icon: i.icon ?? 'list', label: t(i.label ?? `screen.${i.screen}`) })),
    [principal, host, t],
  );

  const go = (path: string) => {
    close();
    void navigate(path);
  };

  const entries: Entry[] = [];
  const serial = parseRecordSerial(text);
  if (serial) {
    entries.push({
      key: `record-${serial.label}`,
      label: t('home.palette.openRecord', { serial: serial.label }),
      icon: 'search',
      go: async () => {
        setBusy(true);
        const found = await find(text);
        setBusy(false);
        if (found?.path) go(found.path);
        else notifyError(t('home.palette.notFound', { serial: serial.label }));
      },
    });
  }
  const wanted = fold(text.trim());
  for (const s of screens) {
    if (wanted === '' || fold(s.label).includes(wanted)) entries.push({ key: s.path, label: s.label, icon: s.icon, go: () => go(s.path) });
  }
  const current = Math.min(active, Math.max(entries.length - 1, 0));

  const onKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setActive((current + 1) % Math.max(entries.length, 1));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setActive((current - 1 + entries.length) % Math.max(entries.length, 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      void entries[current]?.go();
    }
  };

  return (
    <>
      <Button
        variant="default"
        size="xs"
        onClick={open}
        leftSection={<NavIcon name="search" size={16} />}
        rightSection={<Kbd size="xs">/</Kbd>}
        visibleFrom="sm"
        aria-keyshortcuts="/ Control+K"
      >
        {t('home.palette.button')}
      </Button>
      <ActionIcon variant="subtle" size="lg" onClick={open} hiddenFrom="sm" aria-label={t('home.palette.label')}>
        <NavIcon name="search" size={20} />
      </ActionIcon>
      <Modal opened={opened} onClose={close} title={t('home.palette.label')} size="lg" yOffset="10vh">
        <Stack gap="xs">
          <TextInput
            data-autofocus
            aria-label={t('home.palette.label')}
            placeholder={t('home.palette.placeholder')}
            value={text}
            onChange={(e) => {
              setText(e.currentTarget.value);
              setActive(0);
            }}
            onKeyDown={onKey}
            role="combobox"
            aria-expanded
            aria-controls="palette-results"
            aria-activedescendant={entries[current] ? `palette-${current}` : undefined}
            aria-busy={busy || undefined}
          />
          <Text size="xs" c="dimmed">
            {t('home.palette.hint')}
          </Text>
          <Stack gap={2} id="palette-results" role="listbox" aria-label={t('home.palette.label')} mah="50vh" style={{ overflowY: 'auto' }}>
            {entries.length === 0 ? (
              <Text size="sm" role="status">
                {t('home.palette.nothing')}
              </Text>
            ) : (
              entries.map((entry, i) => (
                <UnstyledButton
                  key={entry.key}
                  id={`palette-${i}`}
                  role="option"
                  aria-selected={i === current}
                  tabIndex={-1}
                  onMouseEnter={() => setActive(i)}
                  onClick={() => void entry.go()}
                  px="sm"
                  py={8}
                  style={{
                    borderRadius: 4,
                    display: 'flex',
                    gap: 10,
                    alignItems: 'center',
                    background: i === current ? 'var(--mantine-color-default-hover)' : undefined,
                  }}
                >
                  <NavIcon name={entry.icon} />
                  <Text size="sm">{entry.label}</Text>
                </UnstyledButton>
              ))
            )}
          </Stack>
        </Stack>
      </Modal>
    </>
  );
}

import { LANGUAGES } from '@bulwark/domain';
import { Button, Menu } from '@mantine/core';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { currentLanguage } from '../../i18n/setup.js';
import { useLanguageButton } from './language-button.js';
import { useChangeLanguage } from './language-api.js';

export function LanguageSwitch({ openAtOnce = false }: { openAtOnce?: boolean }) {
  const { t, i18n } = useTranslation();
  const target = useRef<HTMLButtonElement>(null);
  const opened = useRef(false);
  // The lazy stand-in (language-switch-lazy.tsx) was clicked: take its focus first, so closing the menu
  // returns there, then open as that click would have.
  useEffect(() => {
    if (!openAtOnce || opened.current) return;
    opened.current = true;
    target.current?.focus();
    target.current?.click();
  }, [openAtOnce]);
  const change = useChangeLanguage();
  const button = useLanguageButton();
  const active = currentLanguage(i18n);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button ref={target} {...button} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('common.language')}</Menu.Label>
        {LANGUAGES.map((language) => (
          <Menu.Item
            key={language}
            lang={language}
            onClick={() => void change(language)}
            aria-current={language === active ? 'true' : undefined}
            fw={language === active ? 700 : undefined}
          >
            {t(`languages.${language}`)}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}

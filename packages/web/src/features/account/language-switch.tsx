import { LANGUAGES } from '@bulwark/domain';
import { Button, Menu } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '../../app/shell/icons.js';
import { currentLanguage } from '../../i18n/setup.js';
import { useChangeLanguage } from './account-api.js';

export function LanguageSwitch() {
  const { t, i18n } = useTranslation();
  const change = useChangeLanguage();
  const active = currentLanguage(i18n);
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        <Button
          variant="subtle"
          size="compact-sm"
          leftSection={<GlobeIcon />}
          // The name holds the code shown ("EN"), so a voice user can say what they see.
          aria-label={`${t('common.language')}: ${t(`languages.${active}`)} · ${active.toUpperCase()}`}
        >
          {active.toUpperCase()}
        </Button>
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

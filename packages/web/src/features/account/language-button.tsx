import type { ButtonProps } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { GlobeIcon } from '../../app/shell/icons.js';
import { currentLanguage } from '../../i18n/setup.js';

/** The look and name of the language button, shared by the menu (language-switch.tsx) and its lazy stand-in. */
export function useLanguageButton(): ButtonProps & { 'aria-label': string } {
  const { t, i18n } = useTranslation();
  const active = currentLanguage(i18n);
  return {
    variant: 'subtle',
    size: 'compact-sm',
    leftSection: <GlobeIcon />,
    // The name holds the code shown ("EN"), so a voice user can say what they see.
    'aria-label': `${t('common.language')}: ${t(`languages.${active}`)} · ${active.toUpperCase()}`,
    children: active.toUpperCase(),
  };
}

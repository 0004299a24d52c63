import { Radio, Stack, useMantineColorScheme, type MantineColorScheme } from '@mantine/core';
import { useTranslation } from 'react-i18next';

const SCHEMES: readonly MantineColorScheme[] = ['light', 'dark', 'auto'];

/** Light, dark, or as the device: kept on this device (app/providers.tsx's colour scheme manager). */
export function ColorSchemeChoice() {
  const { t } = useTranslation();
  const { colorScheme, setColorScheme } = useMantineColorScheme();
  return (
    <Radio.Group label={t('home.theme.label')} value={colorScheme} onChange={(v) => setColorScheme(v as MantineColorScheme)}>
      <Stack mt="xs" gap="xs">
        {SCHEMES.map((scheme) => (
          <Radio key={scheme} value={scheme} label={t(`home.theme.${scheme}`)} />
        ))}
      </Stack>
    </Radio.Group>
  );
}

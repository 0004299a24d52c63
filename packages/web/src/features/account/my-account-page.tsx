import { LANGUAGES, type Language } from '@bulwark/domain';
import { Loader, Paper, Radio, Stack, Table, Title } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { currentLanguage, isLanguage } from '../../i18n/setup.js';
import { ColorSchemeChoice } from './color-scheme-choice.js';
import { PasswordChangeForm } from './password-change-form.js';
import { useChangeLanguage } from './language-api.js';

export function MyAccountPage() {
  const { t, i18n } = useTranslation();
  const profile = useProfile();
  const change = useChangeLanguage();

  if (!profile) return <Loader aria-label={t('common.loading')} />;
  const { user, organization } = profile;
  const role = user.is_platform_admin
    ? t('shell.platformAdmin')
    : (user.role_name ?? (user.is_admin ? t('shell.administrator') : t('pages.noRole')));
  const rows: Array<[string, string]> = [
    [t('pages.accountName'), user.full_name],
    [t('auth.email'), user.email],
    [t('pages.accountRole'), role],
    [t('pages.accountOrganization'), organization?.name ?? t('pages.noOrganization')],
  ];

  const onLanguage = async (value: string) => {
    if (!isLanguage(value)) return;
    if (await change(value as Language)) notifySuccess(t('pages.languageSaved'));
  };

  return (
    <Stack maw={720}>
      <Title order={1} size="h2">
        {t('pages.myAccountTitle')}
      </Title>
      <Paper withBorder p="lg" radius="md" component="section" aria-labelledby="profile-title">
        <Title order={2} size="h4" id="profile-title" mb="sm">
          {t('sso.account.profile')}
        </Title>
        <Table variant="vertical" layout="fixed" withRowBorders>
          <Table.Tbody>
            {rows.map(([label, value]) => (
              <Table.Tr key={label}>
                <Table.Th w={160}>{label}</Table.Th>
                <Table.Td style={{ overflowWrap: 'anywhere' }}>{value}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      <Paper withBorder p="lg" radius="md">
        <Radio.Group label={t('pages.myAccountLanguage')} value={currentLanguage(i18n)} onChange={(v) => void onLanguage(v)}>
          <Stack mt="xs" gap="xs">
            {LANGUAGES.map((language) => (
              <Radio key={language} value={language} label={t(`languages.${language}`)} lang={language} />
            ))}
          </Stack>
        </Radio.Group>
      </Paper>
      <Paper withBorder p="lg" radius="md">
        <ColorSchemeChoice />
      </Paper>
      <Paper withBorder p="lg" radius="md" component="section">
        <PasswordChangeForm />
      </Paper>
    </Stack>
  );
}

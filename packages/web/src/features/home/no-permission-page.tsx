import { SCREEN_IDS, hasAnyRight, type ScreenId } from '@bulwark/domain';
import { Anchor, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { principalFromProfile } from '../../app/profile.js';
import { useProfile } from '../../app/use-profile.js';
import { useAdministrators } from './home-api.js';

function refusedScreen(value: string | null): ScreenId | null {
  return value && (SCREEN_IDS as readonly string[]).includes(value) ? (value as ScreenId) : null;
}

/**
 * `/no_permissions`: a screen the rights refuse is named, with the people who can open it for you
 * (issue 15). Without a screen it is the spec's "no permissions assigned" page.
 */
export function NoPermissionPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const screen = refusedScreen(params.get('screen'));
  const profile = useProfile();
  const anyRight = useMemo(() => (profile ? hasAnyRight(principalFromProfile(profile).access) : false), [profile]);
  const admins = useAdministrators();
  const name = screen ? t(`screen.${screen}`) : '';
  const people = admins.data?.administrators ?? [];

  return (
    <Stack maw={720} gap="md">
      <Title order={1} size="h2">
        {screen ? t('home.noAccess.title', { screen: name }) : t('pages.noPermissionsTitle')}
      </Title>
      <Paper withBorder p="lg" radius="md">
        <Stack gap="md" align="flex-start">
          <Text>{screen ? t('home.noAccess.body', { screen: name }) : t('home.noAccess.none')}</Text>
          {people.length > 0 ? (
            <List spacing={4} aria-label={t('shell.administrator')}>
              {people.map((p) => (
                <List.Item key={p.email}>
                  {p.full_name} · <Anchor href={`mailto:${p.email}`}>{p.email}</Anchor>
                </List.Item>
              ))}
            </List>
          ) : admins.isSuccess ? (
            <Text>{t('home.noAccess.nobody')}</Text>
          ) : null}
          <Group gap="xs">
            {anyRight ? (
              <Button component={Link} to="/">
                {t('home.noAccess.home')}
              </Button>
            ) : null}
            <Button component={Link} to="/logout" variant="default">
              {t('common.signOut')}
            </Button>
          </Group>
        </Stack>
      </Paper>
    </Stack>
  );
}

import type { ProfileResponse } from '@bulwark/domain';
import { Avatar, Menu, UnstyledButton } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

function initials(profile: ProfileResponse): string {
  const source = profile.user.full_name.trim() || profile.user.email;
  return source
    .split(/\s+/)
    .slice(0, 2)
    .map((part) => part[0]?.toUpperCase() ?? '')
    .join('');
}

export function UserMenu({ profile }: { profile: ProfileResponse }) {
  const { t } = useTranslation();
  return (
    <Menu position="bottom-end" width={260} withinPortal>
      <Menu.Target>
        {/* The name holds the initials shown, so a voice user can say what they see. */}
        <UnstyledButton aria-label={`${t('shell.userMenu')} · ${initials(profile)}`}>
          <Avatar color="blue" radius="xl" size={34}>
            {initials(profile)}
          </Avatar>
        </UnstyledButton>
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label style={{ overflowWrap: 'anywhere' }}>{t('common.signedInAs', { email: profile.user.email })}</Menu.Label>
        <Menu.Item component={Link} to="/myaccount">
          {t('screen.myaccount')}
        </Menu.Item>
        <Menu.Divider />
        <Menu.Item component={Link} to="/logout">
          {t('common.signOut')}
        </Menu.Item>
        <Menu.Item component={Link} to="/logout?everywhere=1">
          {t('auth.signOutEverywhere')}
        </Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}

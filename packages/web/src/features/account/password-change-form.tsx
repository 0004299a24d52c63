import { passwordChangeBody } from '@bulwark/domain';
import { Alert, Button, Group, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { useRef, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useChangePassword } from './account-api.js';

export function PasswordChangeForm() {
  const { t } = useTranslation();
  const changePassword = useChangePassword();
  const { busy, errors, message, run, refuse } = useFormSubmit();
  const formRef = useRef<HTMLFormElement>(null);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const checked = validate(
      passwordChangeBody,
      {
        current_password: String(form.get('current_password') ?? ''),
        password: String(form.get('password') ?? ''),
        password_confirmation: String(form.get('password_confirmation') ?? ''),
      },
      t,
    );
    if (refuse(checked.errors) || !checked.data) return;
    const body = checked.data;
    await run(async () => {
      await changePassword(body);
      formRef.current?.reset();
      notifySuccess(t('sso.account.passwordChanged'));
    });
  }

  const toggle = { 'aria-label': t('auth.togglePassword') };
  return (
    <form ref={formRef} onSubmit={submit} noValidate aria-busy={busy} aria-labelledby="password-change-title">
      <Stack>
        <Title order={2} size="h4" id="password-change-title">
          {t('sso.account.passwordTitle')}
        </Title>
        {message && (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        )}
        <PasswordInput
          name="current_password"
          label={t('sso.account.currentPassword')}
          autoComplete="current-password"
          required
          error={errors.current_password}
          visibilityToggleButtonProps={toggle}
        />
        <PasswordInput
          name="password"
          label={t('sso.account.newPassword')}
          autoComplete="new-password"
          required
          error={errors.password}
          visibilityToggleButtonProps={toggle}
        />
        <PasswordInput
          name="password_confirmation"
          label={t('sso.account.confirmPassword')}
          autoComplete="new-password"
          required
          error={errors.password_confirmation}
          visibilityToggleButtonProps={toggle}
        />
        <Text size="xs" c="dimmed">
          {t('auth.passwordRule')}
        </Text>
        <Group justify="flex-end">
          <Button type="submit" loading={busy}>
            {t('sso.account.changePassword')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

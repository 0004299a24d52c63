import { passwordResetBody } from '@bulwark/domain';
import { Alert, Anchor, Button, Paper, PasswordInput, Stack, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate, type FieldErrors } from '../../ui/forms/validation.js';
import { useAuthCommands } from './auth-api.js';

/**
 * Sets a password through an e-mailed link: a password reset, or (`activate`) the first password of an
 * invited user, whose link carries `?activate=1` and a token of the users module.
 */
export function NewPasswordForm({ token, activate = false }: { token: string; activate?: boolean }) {
  const { t } = useTranslation();
  const { activateAccount, setNewPassword } = useAuthCommands();
  const navigate = useNavigate();
  const [expired, setExpired] = useState(false);
  const { busy, errors, message, run, refuse } = useFormSubmit();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get('password') ?? '');
    const confirm = String(form.get('confirm') ?? '');
    const checked = validate(passwordResetBody, { password }, t);
    const found: FieldErrors = { ...(checked.errors ?? {}) };
    if (!confirm) found.confirm = t('validation.required');
    else if (!found.password && confirm !== password) found.confirm = t('auth.passwordsDiffer');
    if (refuse(found)) return;
    await run(
      async () => {
        if (activate) await activateAccount(token, password);
        else await setNewPassword(token, password);
        notifySuccess(t(activate ? 'auth.accountActivated' : 'auth.passwordChanged'));
        void navigate('/login', { replace: true });
      },
      (error) => {
        if (!isApiError(error) || error.code !== 'link_expired') return false;
        setExpired(true);
        return true;
      },
    );
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={1} size="h3">
          {t(activate ? 'auth.activateTitle' : 'auth.newPasswordTitle')}
        </Title>
        {expired ? (
          <>
            <Alert color="red" role="alert">
              {t('errors.link_expired')}
            </Alert>
            <Anchor component={Link} to="/password-reset">
              {t('auth.resetSend')}
            </Anchor>
          </>
        ) : (
          <form onSubmit={submit} noValidate aria-busy={busy}>
            <Stack>
              {message && (
                <Alert color="red" role="alert">
                  {message}
                </Alert>
              )}
              <PasswordInput
                name="password"
                label={t('auth.newPassword')}
                description={t('auth.passwordRule')}
                autoComplete="new-password"
                required
                error={errors.password}
                visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
              />
              <PasswordInput
                name="confirm"
                label={t('auth.confirmPassword')}
                autoComplete="new-password"
                required
                error={errors.confirm}
                visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
              />
              <Button type="submit" loading={busy}>
                {t('auth.setPassword')}
              </Button>
            </Stack>
          </form>
        )}
        <Anchor component={Link} to="/login" size="sm">
          {t('auth.backToSignIn')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

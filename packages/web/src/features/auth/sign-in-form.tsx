import { signInBody, type SignInResponse } from '@bulwark/domain';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useServices } from '../../app/services.js';
import { serverErrors, validate, type FieldErrors } from '../forms/validation.js';
import { signIn } from './auth-api.js';

export function SignInForm({ onSignedIn }: { onSignedIn: (response: SignInResponse) => void }) {
  const { t } = useTranslation();
  const { http } = useServices();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const checked = validate(signInBody, { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') }, t);
    setMessage(null);
    if (checked.errors) {
      setErrors(checked.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const response = await signIn(http, checked.data);
      if (!response) throw new Error('empty sign-in answer');
      onSignedIn(response);
    } catch (error) {
      const shown = serverErrors(error, t('errors.somethingWentWrong'));
      setErrors(shown.fields);
      setMessage(shown.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate aria-busy={busy}>
      <Stack>
        {message && (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        )}
        <TextInput name="email" type="email" label={t('auth.email')} autoComplete="username" required error={errors.email} />
        <PasswordInput
          name="password"
          label={t('auth.password')}
          autoComplete="current-password"
          required
          error={errors.password}
          visibilityToggleButtonProps={{ 'aria-label': t('auth.togglePassword') }}
        />
        <Button type="submit" loading={busy} fullWidth>
          {busy ? t('auth.signingIn') : t('auth.signIn')}
        </Button>
      </Stack>
    </form>
  );
}

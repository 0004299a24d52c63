import { signInBody, type SignInResponse } from '@bulwark/domain';
import { Alert, Button, PasswordInput, Stack, TextInput } from '@mantine/core';
import { type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useAuthCommands } from './auth-api.js';

export function SignInForm({ onSignedIn }: { onSignedIn: (response: SignInResponse) => void }) {
  const { t } = useTranslation();
  const { signIn } = useAuthCommands();
  const { busy, errors, message, run, refuse } = useFormSubmit();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const checked = validate(signInBody, { email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') }, t);
    if (refuse(checked.errors) || !checked.data) return;
    const credentials = checked.data;
    await run(async () => {
      const response = await signIn(credentials);
      if (!response) throw new Error('empty sign-in answer');
      onSignedIn(response);
    });
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

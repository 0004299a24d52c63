import { passwordResetRequestBody } from '@bulwark/domain';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useAuthCommands } from './auth-api.js';

export function RequestResetForm() {
  const { t } = useTranslation();
  const { requestPasswordReset } = useAuthCommands();
  const [sent, setSent] = useState(false);
  const { busy, errors, message, run, refuse } = useFormSubmit();

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validate(passwordResetRequestBody, { email: String(new FormData(event.currentTarget).get('email') ?? '') }, t);
    if (refuse(checked.errors) || !checked.data) return;
    const { email } = checked.data;
    await run(async () => {
      await requestPasswordReset(email);
      setSent(true);
    });
  }

  return (
    <Paper withBorder p="lg" radius="md">
      <Stack>
        <Title order={1} size="h3">
          {t('auth.resetTitle')}
        </Title>
        {sent ? (
          <Alert color="teal" role="status">
            {t('auth.resetSent')}
          </Alert>
        ) : (
          <form onSubmit={submit} noValidate aria-busy={busy}>
            <Stack>
              <Text size="sm">{t('auth.resetHelp')}</Text>
              {message && (
                <Alert color="red" role="alert">
                  {message}
                </Alert>
              )}
              <TextInput name="email" type="email" label={t('auth.email')} autoComplete="email" required error={errors.email} />
              <Button type="submit" loading={busy}>
                {t('auth.resetSend')}
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

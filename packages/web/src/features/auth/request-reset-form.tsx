import { passwordResetRequestBody } from '@bulwark/domain';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useServices } from '../../app/services.js';
import { serverErrors, validate, type FieldErrors } from '../forms/validation.js';
import { requestPasswordReset } from './auth-api.js';

export function RequestResetForm() {
  const { t } = useTranslation();
  const { http } = useServices();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validate(passwordResetRequestBody, { email: String(new FormData(event.currentTarget).get('email') ?? '') }, t);
    setMessage(null);
    if (checked.errors) return setErrors(checked.errors);
    setErrors({});
    setBusy(true);
    try {
      await requestPasswordReset(http, checked.data.email);
      setSent(true);
    } catch (error) {
      const shown = serverErrors(error, t('errors.somethingWentWrong'));
      setErrors(shown.fields);
      setMessage(shown.message);
    } finally {
      setBusy(false);
    }
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

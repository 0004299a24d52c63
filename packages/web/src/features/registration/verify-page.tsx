import { registrationVerifyBody, type RegistrationVerified } from '@bulwark/domain';
import { Alert, Anchor, Button, Group, Paper, PinInput, Stack, Text, Title } from '@mantine/core';
import { useEffect, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useServices } from '../../app/services.js';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useSignUpCommands } from './registration-api.js';

export const THANKYOU_STORAGE_KEY = 'bulwark.registration.done';

/** Seconds until `iso`, never below 0, re-read once a second. */
function useCountdown(iso: string | null, now: () => number): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, []);
  return iso ? Math.max(0, Math.ceil((Date.parse(iso) - now()) / 1000)) : 0;
}

/** /organization_verify: step 2 of sign-up, the code from the e-mail ("OTP required"). */
export function VerifyPage() {
  const { t } = useTranslation();
  const { now } = useServices();
  const commands = useSignUpCommands();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const registrationId = params.get('registration');
  const email = params.get('email') ?? '';
  const [code, setCode] = useState('');
  const [resendAfter, setResendAfter] = useState<string | null>(params.get('resend_after'));
  const [resending, setResending] = useState(false);
  const [resendError, setResendError] = useState<string | null>(null);
  const wait = useCountdown(resendAfter, now);
  const form = useFormSubmit();

  if (!registrationId) {
    return (
      <Paper withBorder p="lg" radius="md" maw={480} mx="auto">
        <Stack>
          <Text>{t('registration.verify.missing')}</Text>
          <Anchor component={Link} to="/registration">
            {t('registration.verify.startAgain')}
          </Anchor>
        </Stack>
      </Paper>
    );
  }
  const id = registrationId;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = validate(registrationVerifyBody, { code }, t);
    if (form.refuse(checked.errors)) return;
    await form.run(async () => {
      const done: RegistrationVerified = await commands.verify(id, code);
      sessionStorage.setItem(THANKYOU_STORAGE_KEY, JSON.stringify(done));
      void navigate('/thankyou', { replace: true, state: done });
    });
  }

  async function resend() {
    setResending(true);
    setResendError(null);
    try {
      const answer = await commands.resend(id);
      setResendAfter(answer.resend_after);
      setCode('');
      notifySuccess(t('registration.verify.resent'));
    } catch (error) {
      setResendError(error instanceof Error ? error.message : t('errors.somethingWentWrong'));
    } finally {
      setResending(false);
    }
  }

  return (
    <Paper withBorder p="lg" radius="md" maw={480} mx="auto">
      <Stack>
        <Title order={1} size="h3">
          {t('registration.verify.title')}
        </Title>
        <Text size="sm">{t('registration.verify.intro', { email })}</Text>
        {form.message && (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-busy={form.busy}>
          <Stack>
            <div>
              <Text component="label" htmlFor="otp-code" size="sm" fw={500}>
                {t('registration.verify.code')}
              </Text>
              <PinInput
                id="otp-code"
                length={6}
                type="number"
                oneTimeCode
                value={code}
                onChange={setCode}
                aria-label={t('registration.verify.code')}
                error={!!form.errors['code']}
                mt={4}
              />
              {form.errors['code'] && (
                <Text c="red" size="sm" mt={4} role="alert">
                  {form.errors['code']}
                </Text>
              )}
            </div>
            <Button type="submit" loading={form.busy}>
              {t('registration.verify.submit')}
            </Button>
          </Stack>
        </form>
        <Group justify="space-between">
          <Button variant="subtle" size="compact-sm" onClick={() => void resend()} disabled={wait > 0} loading={resending}>
            {wait > 0 ? t('registration.verify.resendIn', { seconds: wait }) : t('registration.verify.resend')}
          </Button>
          <Anchor component={Link} to="/registration" size="sm">
            {t('registration.verify.startAgain')}
          </Anchor>
        </Group>
        {resendError && (
          <Alert color="red" role="alert">
            {resendError}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}

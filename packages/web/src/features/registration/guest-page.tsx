import { guestSignupBody, type GuestSignupBody } from '@bulwark/domain';
import { Alert, Anchor, Button, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { PageLoader } from '../../ui/index.js';
import { Link } from 'react-router';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useGuestAvailability, useGuestCommands } from './registration-api.js';

/**
 * /guest_user_creation: on an organisation's own address, a visitor or contractor asks for a guest
 * account (report observations and incidents only) when the organisation allows it. The password is
 * chosen through the e-mailed link, which proves the address.
 */
export function GuestPage() {
  const { t } = useTranslation();
  const commands = useGuestCommands();
  const form = useFormSubmit();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const availability = useGuestAvailability();

  if (availability.isPending) {
    return <PageLoader />;
  }
  const shell = (children: React.ReactNode) => (
    <Paper withBorder p="lg" radius="md" maw={520} mx="auto">
      <Stack>
        <Title order={1} size="h3">
          {t('registration.guest.title')}
        </Title>
        {children}
        <Anchor component={Link} to="/login" size="sm">
          {t('registration.guest.signIn')}
        </Anchor>
      </Stack>
    </Paper>
  );
  if (availability.isError || !availability.data) return shell(<Alert color="yellow">{t('registration.guest.noOrganization')}</Alert>);
  if (!availability.data.enabled) return shell(<Alert color="yellow">{t('registration.guest.disabled')}</Alert>);
  if (sentTo)
    return shell(
      <Alert color="teal" role="status">
        {t('registration.guest.created', { email: sentTo })}
      </Alert>,
    );

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const value = {
      full_name: String(data.get('full_name') ?? ''),
      email: String(data.get('email') ?? ''),
      company: String(data.get('company') ?? '') || undefined,
    };
    const checked = validate(guestSignupBody, value, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const body: GuestSignupBody = checked.data;
    void form.run(async () => {
      await commands.signUp(body);
      setSentTo(body.email);
    });
  };

  return shell(
    <form onSubmit={submit} noValidate aria-busy={form.busy}>
      <Stack>
        <Text c="dimmed">{t('registration.guest.intro', { organization: availability.data.organization })}</Text>
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <TextInput name="full_name" label={t('registration.guest.fullName')} autoComplete="name" required error={form.errors.full_name} />
        <TextInput
          name="email"
          type="email"
          label={t('registration.guest.email')}
          autoComplete="email"
          required
          error={form.errors.email}
        />
        <TextInput name="company" label={t('registration.guest.company')} autoComplete="organization" error={form.errors.company} />
        <Button type="submit" loading={form.busy}>
          {t('registration.guest.submit')}
        </Button>
      </Stack>
    </form>,
  );
}

import { registrationBody, type RegistrationBody, type SubdomainAvailability } from '@bulwark/domain';
import { Alert, Anchor, Button, Loader, Paper, PasswordInput, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { baseDomainOf } from '../../api/tenant-host.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { verifyUrl } from './hosts.js';
import { useSignUpCommands, useSubdomainCheck } from './registration-api.js';

/** /registration and /get-started: step 1 of sign-up, on the bare domain. */
export function SignUpPage() {
  const { t } = useTranslation();
  const { location } = useServices();
  const commands = useSignUpCommands();
  const form = useFormSubmit();
  const [subDomain, setSubDomain] = useState('');
  const [touchedSubDomain, setTouchedSubDomain] = useState(false);
  // A live check as the person types, a little after they stop.
  const [settled] = useDebouncedValue(subDomain.trim().toLowerCase(), 350);
  const check = useSubdomainCheck(settled);
  const checking = subDomain.trim() !== '' && (settled !== subDomain.trim().toLowerCase() || check.isFetching);
  const answer: SubdomainAvailability | undefined = settled && !checking ? check.data : undefined;

  /** Suggests a sub-domain from the company name until the person picks one themselves. */
  async function suggestFrom(companyName: string) {
    if (touchedSubDomain || !companyName.trim()) return;
    try {
      const answer = await commands.suggestSubdomain(companyName);
      if (answer.suggestion) setSubDomain(answer.suggestion);
    } catch {
      // The person can still type one.
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const data = new FormData(event.currentTarget);
    const text = (name: string) => String(data.get(name) ?? '');
    const body: RegistrationBody = {
      company_name: text('company_name'),
      full_name: text('full_name'),
      email: text('email'),
      phone: text('phone'),
      password: text('password'),
      sub_domain: subDomain,
    };
    const checked = validate(registrationBody, body, t);
    if (form.refuse(checked.errors)) return;
    await form.run(async () => {
      const created = await commands.register(body);
      const target = verifyUrl(location, created.registration_id, created.email, created.resend_after);
      location.assign(target);
    });
  }

  const address = `${subDomain || '…'}.${baseDomainOf(location.host)}`;
  const hint = checking ? (
    <Text span size="xs" c="dimmed">
      <Loader size={10} mr={4} />
      {t('registration.signup.checking')}
    </Text>
  ) : answer?.available ? (
    <Text span size="xs" c="teal">
      {t('registration.signup.available')} · {t('registration.signup.subDomainHint', { address })}
    </Text>
  ) : (
    t('registration.signup.subDomainHint', { address })
  );
  const unavailable = answer && !answer.available ? answer : null;

  return (
    <Paper withBorder p="lg" radius="md" maw={640} mx="auto">
      <Stack>
        <div>
          <Title order={1} size="h3">
            {t('registration.signup.title')}
          </Title>
          <Text size="sm" c="dimmed">
            {t('registration.signup.intro')}
          </Text>
          <Text size="sm" fw={500} mt={4}>
            {t('registration.signup.trialFacts')}
          </Text>
        </div>
        {form.message && (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        )}
        <form onSubmit={submit} noValidate aria-busy={form.busy}>
          <Stack>
            <TextInput
              name="company_name"
              label={t('registration.signup.companyName')}
              required
              autoComplete="organization"
              error={form.errors['company_name']}
              onBlur={(e) => void suggestFrom(e.currentTarget.value)}
            />
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput
                name="full_name"
                label={t('registration.signup.fullName')}
                required
                autoComplete="name"
                error={form.errors['full_name']}
              />
              <TextInput
                name="phone"
                type="tel"
                label={t('registration.signup.phone')}
                description={t('registration.signup.phoneHint')}
                required
                autoComplete="tel"
                error={form.errors['phone']}
              />
            </SimpleGrid>
            <TextInput
              name="email"
              type="email"
              label={t('registration.signup.email')}
              description={t('registration.signup.emailHint')}
              required
              autoComplete="email"
              error={form.errors['email']}
            />
            <PasswordInput
              name="password"
              label={t('registration.signup.password')}
              description={t('registration.signup.passwordHint')}
              required
              autoComplete="new-password"
              error={form.errors['password']}
            />
            <TextInput
              name="sub_domain"
              label={t('registration.signup.subDomain')}
              description={hint}
              value={subDomain}
              onChange={(e) => {
                setTouchedSubDomain(true);
                setSubDomain(e.currentTarget.value.toLowerCase());
              }}
              autoCapitalize="none"
              autoCorrect="off"
              spellCheck={false}
              required
              rightSection={
                <Text size="xs" c="dimmed" pr="xs">
                  .{baseDomainOf(location.host)}
                </Text>
              }
              rightSectionWidth="auto"
              error={
                form.errors['sub_domain'] ??
                (unavailable ? (
                  <span>
                    {t(`registration.signup.unavailable.${unavailable.reason ?? 'format'}`)}
                    {unavailable.suggestion && (
                      <>
                        {' '}
                        <Anchor component="button" type="button" size="xs" onClick={() => setSubDomain(unavailable.suggestion!)}>
                          {t('registration.signup.useSuggestion', { suggestion: unavailable.suggestion })}
                        </Anchor>
                      </>
                    )}
                  </span>
                ) : undefined)
              }
            />
            <Button type="submit" loading={form.busy}>
              {t('registration.signup.submit')}
            </Button>
          </Stack>
        </form>
        <Anchor component={Link} to="/login" size="sm">
          {t('registration.signup.haveAccount')}
        </Anchor>
      </Stack>
    </Paper>
  );
}

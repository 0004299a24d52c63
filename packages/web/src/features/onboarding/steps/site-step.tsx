import { SITE_COUNTRIES, siteSchema, siteTimeZones } from '@bulwark/domain';
import { Alert, Button, Group, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../../ui/forms/use-form-submit.js';
import { validate } from '../../../ui/forms/validation.js';
import { useOnboardingCommands, useSites } from '../onboarding-api.js';

type Draft = {
  name: string;
  time_zone: string;
  emergency_phone: string;
  address: string;
  city: string;
  state: string;
  country: string;
  zip: string;
};

/** The first site with the fields a site must have (spec 001 §5); the rest is in Settings › Sites. */
export function SiteStep({ timezone, me, onDone }: { timezone: string; me: string; onDone: () => Promise<void> }) {
  const { t, i18n } = useTranslation();
  const commands = useOnboardingCommands();
  const sites = useSites();
  const form = useFormSubmit();
  const [draft, setDraft] = useState<Draft>({
    name: '',
    time_zone: timezone,
    emergency_phone: '',
    address: '',
    city: '',
    state: '',
    country: '',
    zip: '',
  });
  const zones = useMemo(() => siteTimeZones().map((z) => ({ value: z, label: z.replaceAll('_', ' ') })), []);
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([i18n.language], { type: 'region' });
    return SITE_COUNTRIES.map((c) => ({ value: c, label: names.of(c) ?? c })).sort((a, b) => a.label.localeCompare(b.label));
  }, [i18n.language]);
  const set = (key: keyof Draft) => (value: string | null) => setDraft((d) => ({ ...d, [key]: value ?? '' }));

  const existing = sites.data ?? [];
  if (existing.length > 0) {
    return (
      <Stack>
        {existing.map((s) => (
          <Alert key={s.id} color="teal">
            {t('onboarding.siteCreated', { name: s.name })}
          </Alert>
        ))}
        <Text size="sm" c="dimmed">
          {t('onboarding.addAnotherSite')}
        </Text>
        <Group>
          <Button onClick={() => void onDone()}>{t('onboarding.next')}</Button>
        </Group>
      </Stack>
    );
  }

  const save = () => {
    // The admin heads safety until the next step says otherwise.
    const checked = validate(siteSchema, { ...draft, head_of_safety_id: me }, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const site = checked.data;
    void form.run(async () => {
      await commands.createSite(site);
      await sites.refetch();
      await onDone();
    });
  };

  const field = (key: keyof Draft, label: string, extra: Partial<React.ComponentProps<typeof TextInput>> = {}) => (
    <TextInput
      label={label}
      value={draft[key]}
      onChange={(e) => set(key)(e.currentTarget.value)}
      error={form.errors[key]}
      required
      {...extra}
    />
  );

  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {field('name', t('sites.fields.name'))}
        <Select
          label={t('sites.fields.timeZone')}
          data={zones}
          value={draft.time_zone}
          onChange={set('time_zone')}
          searchable
          required
          error={form.errors.time_zone}
        />
        {field('address', t('sites.fields.address'))}
        {field('city', t('sites.fields.city'))}
        {field('state', t('sites.fields.state'))}
        <Select
          label={t('sites.fields.country')}
          data={countries}
          value={draft.country || null}
          onChange={set('country')}
          searchable
          required
          error={form.errors.country}
        />
        {field('zip', t('sites.fields.zip'))}
        {field('emergency_phone', t('sites.fields.emergencyPhone'), { type: 'tel', autoComplete: 'tel' })}
      </SimpleGrid>
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={save} loading={form.busy}>
          {t('onboarding.next')}
        </Button>
      </Group>
    </Stack>
  );
}

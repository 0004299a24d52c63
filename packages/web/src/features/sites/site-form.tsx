import { SITE_COUNTRIES, siteSchema, siteTimeZones, type SiteResponse, type SiteUserSummary } from '@bulwark/domain';
import { Alert, Button, Checkbox, Group, Paper, Select, SimpleGrid, Stack, TextInput, Textarea, Title } from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { currentLanguage } from '../../i18n/setup.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PageHeader, PageLoader, RecordLoadFailed } from '../../ui/index.js';
import { useSite, useSiteCommands, useSitesRefresh } from './sites-api.js';
import { UserPicker } from './user-picker.js';

type FormState = {
  name: string;
  short_name: string;
  site_code: string;
  time_zone: string | null;
  head_of_safety_id: string | null;
  head_of_site_id: string | null;
  emergency_phone: string;
  emergency_email: string;
  address: string;
  city: string;
  state: string;
  country: string | null;
  zip: string;
  latitude: string;
  longitude: string;
  is_active: boolean;
};

const EMPTY: FormState = {
  name: '',
  short_name: '',
  site_code: '',
  time_zone: null,
  head_of_safety_id: null,
  head_of_site_id: null,
  emergency_phone: '',
  emergency_email: '',
  address: '',
  city: '',
  state: '',
  country: null,
  zip: '',
  latitude: '',
  longitude: '',
  is_active: true,
};

function fromSite(s: SiteResponse): FormState {
  return {
    name: s.name,
    short_name: s.short_name ?? '',
    site_code: s.site_code ?? '',
    time_zone: s.time_zone,
    head_of_safety_id: s.head_of_safety?.id ?? null,
    head_of_site_id: s.head_of_site?.id ?? null,
    emergency_phone: s.emergency_phone,
    emergency_email: s.emergency_email ?? '',
    address: s.address,
    city: s.city,
    state: s.state,
    country: s.country,
    zip: s.zip,
    latitude: s.latitude === null ? '' : String(s.latitude),
    longitude: s.longitude === null ? '' : String(s.longitude),
    is_active: s.is_active,
  };
}

/** A coordinate as typed: empty is "not given", anything else must read as a number (the schema says which range). */
function coordinate(text: string): number | string | null {
  const v = text.trim().replace(',', '.');
  if (v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) ? n : v;
}

function payloadOf(f: FormState) {
  return {
    ...f,
    time_zone: f.time_zone ?? '',
    country: f.country ?? '',
    head_of_safety_id: f.head_of_safety_id ?? '',
    latitude: coordinate(f.latitude),
    longitude: coordinate(f.longitude),
  };
}

/** /sites/new and /sites/edit/:id: every field of a site, checked by the same schema as the server. */
export function SiteForm({ siteId }: { siteId: string | null }) {
  const { t, i18n } = useTranslation();
  const commands = useSiteCommands();
  const refresh = useSitesRefresh();
  const navigate = useNavigate();
  const form = useFormSubmit();
  const [edited, setEdited] = useState<FormState | null>(null);

  const existing = useSite(siteId);
  const loaded = existing.data ?? null;
  const people: { safety: SiteUserSummary | null; head: SiteUserSummary | null } = {
    safety: loaded?.head_of_safety ?? null,
    head: loaded?.head_of_site ?? null,
  };
  // The person's edits win over the loaded site; a refetch in the background never overwrites typing.
  const values: FormState | null = edited ?? (siteId ? (loaded ? fromSite(loaded) : null) : EMPTY);

  const language = currentLanguage(i18n);
  const countries = useMemo(() => {
    const names = new Intl.DisplayNames([language], { type: 'region' });
    return SITE_COUNTRIES.map((code) => ({ value: code, label: `${names.of(code) ?? code} (${code})` })).sort((a, b) =>
      a.label.localeCompare(b.label, language),
    );
  }, [language]);
  const zones = useMemo(() => siteTimeZones().map((z) => ({ value: z, label: z.replace(/_/g, ' ') })), []);

  const title = siteId ? t('sites.form.editTitle') : t('sites.form.newTitle');
  if (siteId && existing.isError) {
    return (
      <RecordLoadFailed
        title={title}
        error={existing.error}
        notFoundText={t('sites.form.notFound')}
        backTo="/sites"
        backLabel={t('sites.form.back')}
      />
    );
  }

  if (!values) {
    return <PageLoader />;
  }
  const f = values;
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setEdited((prev) => ({ ...(prev ?? f), [key]: value }));
  const text = (key: keyof FormState) => ({
    value: f[key] as string,
    onChange: (e: { currentTarget: { value: string } }) => set(key, e.currentTarget.value as never),
    error: form.errors[key],
  });

  async function onSubmit(e: FormEvent) {
    e.preventDefault();
    const checked = validate(siteSchema, payloadOf(f), t);
    if (form.refuse(checked.errors)) return;
    await form.run(async () => {
      const body = payloadOf(f);
      if (siteId) {
        await commands.update(siteId, body);
        notifySuccess(t('sites.form.saved'));
      } else {
        await commands.create(body);
        notifySuccess(t('sites.form.created'));
      }
      await refresh();
      void navigate('/sites');
    });
  }

  return (
    <Stack maw={880} gap="md">
      <PageHeader title={title} />
      <form onSubmit={(e) => void onSubmit(e)} noValidate>
        <Stack gap="md">
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <Paper withBorder p="lg" radius="md">
            <Title order={2} size="h4" mb="sm">
              {t('sites.form.general')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <TextInput label={t('sites.fields.name')} withAsterisk maxLength={100} {...text('name')} />
              <TextInput label={t('sites.fields.shortName')} maxLength={20} {...text('short_name')} />
              <TextInput label={t('sites.fields.siteCode')} maxLength={30} {...text('site_code')} />
              <Select
                label={t('sites.fields.timeZone')}
                withAsterisk
                searchable
                limit={100}
                placeholder={t('sites.form.timeZoneSearch')}
                data={zones}
                value={f.time_zone}
                onChange={(v) => set('time_zone', v)}
                error={form.errors['time_zone']}
                nothingFoundMessage={t('kit.noResults')}
              />
              {siteId ? (
                <Checkbox
                  mt="md"
                  label={t('sites.fields.active')}
                  checked={f.is_active}
                  onChange={(e) => set('is_active', e.currentTarget.checked)}
                />
              ) : null}
            </SimpleGrid>
          </Paper>
          <Paper withBorder p="lg" radius="md">
            <Title order={2} size="h4" mb="sm">
              {t('sites.form.people')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <UserPicker
                label={t('sites.fields.headOfSafety')}
                required
                value={f.head_of_safety_id}
                current={people.safety}
                onChange={(id) => set('head_of_safety_id', id)}
                error={form.errors['head_of_safety_id']}
              />
              <UserPicker
                label={t('sites.fields.headOfSite')}
                value={f.head_of_site_id}
                current={people.head}
                onChange={(id) => set('head_of_site_id', id)}
                error={form.errors['head_of_site_id']}
              />
              <TextInput
                label={t('sites.fields.emergencyPhone')}
                withAsterisk
                type="tel"
                autoComplete="off"
                description={t('sites.form.phoneHint')}
                {...text('emergency_phone')}
              />
              <TextInput label={t('sites.fields.emergencyEmail')} type="email" autoComplete="off" {...text('emergency_email')} />
            </SimpleGrid>
          </Paper>
          <Paper withBorder p="lg" radius="md">
            <Title order={2} size="h4" mb="sm">
              {t('sites.form.location')}
            </Title>
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <Textarea
                label={t('sites.fields.address')}
                withAsterisk
                autosize
                minRows={2}
                maxLength={500}
                {...text('address')}
                style={{ gridColumn: '1 / -1' }}
              />
              <TextInput label={t('sites.fields.city')} withAsterisk maxLength={100} {...text('city')} />
              <TextInput label={t('sites.fields.state')} withAsterisk maxLength={100} {...text('state')} />
              <Select
                label={t('sites.fields.country')}
                withAsterisk
                searchable
                placeholder={t('sites.form.countrySearch')}
                data={countries}
                value={f.country}
                onChange={(v) => set('country', v)}
                error={form.errors['country']}
                nothingFoundMessage={t('kit.noResults')}
              />
              <TextInput label={t('sites.fields.zip')} withAsterisk maxLength={12} {...text('zip')} />
              <TextInput label={t('sites.fields.latitude')} inputMode="decimal" {...text('latitude')} />
              <TextInput label={t('sites.fields.longitude')} inputMode="decimal" {...text('longitude')} />
            </SimpleGrid>
          </Paper>
          <Group justify="flex-end">
            <Button component={Link} to="/sites" variant="default">
              {t('sites.form.cancel')}
            </Button>
            <Button type="submit" loading={form.busy}>
              {t('sites.form.save')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}

import { Alert, Button, Group, Select, Stack } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../../ui/forms/use-form-submit.js';
import { useOnboardingCommands, useSites, useUserOptions } from '../onboarding-api.js';

/** Each active site's head of safety, chosen among the organisation's people, then confirmed. */
export function HeadOfSafetyStep({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const commands = useOnboardingCommands();
  const sites = useSites();
  const users = useUserOptions();
  const form = useFormSubmit();
  const [choice, setChoice] = useState<Record<string, string | null>>({});

  const list = sites.data ?? [];
  const options = (users.data ?? []).map((u) => ({ value: u.id, label: `${u.full_name} (${u.email})` }));

  const save = () =>
    void form.run(async () => {
      for (const site of list) {
        const picked = choice[site.id];
        if (picked && picked !== site.head_of_safety?.id) {
          await commands.setHeadOfSafety(site.id, picked);
        }
      }
      await commands.confirmHeadsOfSafety();
      await sites.refetch();
      await onDone();
    });

  if (sites.isSuccess && list.length === 0) return <Alert color="yellow">{t('onboarding.validation.siteFirst')}</Alert>;
  return (
    <Stack>
      {list.map((site) => (
        <Select
          key={site.id}
          label={t('onboarding.headOfSafetyFor', { site: site.name })}
          data={options}
          value={choice[site.id] ?? site.head_of_safety?.id ?? null}
          onChange={(v) => setChoice((c) => ({ ...c, [site.id]: v }))}
          searchable
          required
          maw={480}
          nothingFoundMessage={t('kit.noResults')}
        />
      ))}
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      {Object.values(form.errors).length > 0 ? (
        <Alert color="red" role="alert">
          {Object.values(form.errors).join(' ')}
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

import { onboardingTimezoneBody, siteTimeZones } from '@bulwark/domain';
import { Button, Group, Select, Stack } from '@mantine/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../../ui/forms/use-form-submit.js';
import { validate } from '../../../ui/forms/validation.js';
import { useOnboardingCommands } from '../onboarding-api.js';

/** The browser's own zone is the likely answer; the organisation's current one wins if already chosen. */
function guessZone(current: string): string {
  if (current && current !== 'UTC') return current;
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || current;
  } catch {
    return current;
  }
}

export function TimezoneStep({ current, onDone }: { current: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const commands = useOnboardingCommands();
  const zones = useMemo(() => siteTimeZones().map((z) => ({ value: z, label: z.replaceAll('_', ' ') })), []);
  const [timezone, setTimezone] = useState<string | null>(guessZone(current));
  const form = useFormSubmit();

  const save = () => {
    const checked = validate(onboardingTimezoneBody, { timezone: timezone ?? '' }, t);
    if (form.refuse(checked.errors) || !checked.data) return;
    const chosen = checked.data.timezone;
    void form.run(async () => {
      await commands.setTimezone(chosen);
      await onDone();
    });
  };

  return (
    <Stack>
      <Select
        label={t('onboarding.timezoneLabel')}
        data={zones}
        value={timezone}
        onChange={setTimezone}
        searchable
        required
        maw={420}
        error={form.errors.timezone}
        nothingFoundMessage={t('kit.noResults')}
      />
      {form.message ? <div role="alert">{form.message}</div> : null}
      <Group>
        <Button onClick={save} loading={form.busy}>
          {t('onboarding.next')}
        </Button>
      </Group>
    </Stack>
  );
}

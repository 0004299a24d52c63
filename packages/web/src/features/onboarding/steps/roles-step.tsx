import { ONBOARDING_ROLE_PRESETS, type OnboardingRolePreset } from '@bulwark/domain';
import { Alert, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormSubmit } from '../../../ui/forms/use-form-submit.js';
import { useOnboardingCommands, useRoles } from '../onboarding-api.js';

const PRESETS = Object.keys(ONBOARDING_ROLE_PRESETS) as OnboardingRolePreset[];

/** Creates the chosen common roles (named in the admin's language); roles that exist already are kept. */
export function RolesStep({ onDone }: { onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const commands = useOnboardingCommands();
  const roles = useRoles();
  const form = useFormSubmit();
  const [picked, setPicked] = useState<string[]>(['safetyManager', 'siteSupervisor', 'employee']);
  const custom = (roles.data ?? []).filter((r) => !r.is_system);
  const existing = new Set(custom.map((r) => r.name.toLowerCase()));

  const save = () => {
    if (picked.length === 0 && custom.length === 0) {
      form.refuse({ roles: t('onboarding.validation.rolesPick') });
      return;
    }
    void form.run(async () => {
      for (const preset of picked as OnboardingRolePreset[]) {
        const name = t(`onboarding.presets.${preset}`);
        if (existing.has(name.toLowerCase())) continue;
        await commands.createRole({ name, role_actions_attributes: ONBOARDING_ROLE_PRESETS[preset] });
      }
      await roles.refetch();
      await onDone();
    });
  };

  return (
    <Stack>
      {custom.length > 0 ? (
        <Alert color="teal">{t('onboarding.rolesExisting', { names: custom.map((r) => r.name).join(', ') })}</Alert>
      ) : null}
      <Checkbox.Group value={picked} onChange={setPicked} error={form.errors.roles}>
        <Stack gap="sm" mt="xs">
          {PRESETS.map((p) => (
            <Checkbox
              key={p}
              value={p}
              label={t(`onboarding.presets.${p}`)}
              description={t(`onboarding.presetHelp.${p}`)}
              disabled={existing.has(t(`onboarding.presets.${p}`).toLowerCase())}
            />
          ))}
        </Stack>
      </Checkbox.Group>
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      <Group>
        <Button onClick={save} loading={form.busy}>
          {t('onboarding.createRoles')}
        </Button>
      </Group>
      <Text size="xs" c="dimmed">
        {t('onboarding.help.roles')}
      </Text>
    </Stack>
  );
}

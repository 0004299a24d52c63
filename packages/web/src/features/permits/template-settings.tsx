import { permitTemplateUpdateBody, type PermitTemplateDetail } from '@bulwark/domain';
import { Alert, Button, Group, NumberInput, SimpleGrid, Stack, Switch, TextInput, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { useTemplateCommands } from './permit-templates-api.js';

/** A template's own settings (spec 001 §3): name, description, prefix, default and extension hours, declaration, switch. */
export function TemplateSettings({ template, readOnly }: { template: PermitTemplateDetail; readOnly: boolean }) {
  const { t } = useTranslation();
  const commands = useTemplateCommands(template.id);
  const form = useFormSubmit();
  const [v, setV] = useState({
    name: template.name,
    description: template.description,
    prefix: template.prefix,
    default_hours: template.default_hours,
    extension_hours: template.extension_hours,
    extension_declaration: template.extension_declaration,
    enabled: template.enabled,
  });
  const set = (change: Partial<typeof v>) => setV((x) => ({ ...x, ...change }));
  async function save() {
    if (form.refuse(validate(permitTemplateUpdateBody, v, t).errors)) return;
    await form.run(async () => {
      await commands.update(template.id, v);
      notifySuccess(t('permitsWeb.templates.saved'));
    });
  }
  const e = form.errors;
  return (
    <Stack gap="sm" component="form" onSubmit={(ev) => (ev.preventDefault(), void save())}>
      {form.message ? (
        <Alert color="red" role="alert">
          {form.message}
        </Alert>
      ) : null}
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <TextInput
          label={t('permitsWeb.templates.name')}
          withAsterisk
          value={v.name}
          onChange={(ev) => set({ name: ev.currentTarget.value })}
          error={e['name']}
          readOnly={readOnly}
        />
        <TextInput
          label={t('permitsWeb.templates.prefix')}
          description={t('permitsWeb.templates.prefixHelp')}
          withAsterisk
          value={v.prefix}
          onChange={(ev) => set({ prefix: ev.currentTarget.value.toUpperCase() })}
          error={e['prefix']}
          readOnly={readOnly}
        />
      </SimpleGrid>
      <Textarea
        label={t('permitsWeb.templates.description')}
        withAsterisk
        autosize
        minRows={2}
        value={v.description}
        onChange={(ev) => set({ description: ev.currentTarget.value })}
        error={e['description']}
        readOnly={readOnly}
      />
      <SimpleGrid cols={{ base: 2 }} spacing="sm">
        <NumberInput
          label={t('permitsWeb.templates.defaultHours')}
          min={1}
          max={168}
          allowDecimal={false}
          value={v.default_hours}
          onChange={(n) => set({ default_hours: Number(n) || 1 })}
          error={e['default_hours']}
          readOnly={readOnly}
        />
        <NumberInput
          label={t('permitsWeb.templates.extensionHours')}
          min={1}
          max={24}
          allowDecimal={false}
          value={v.extension_hours}
          onChange={(n) => set({ extension_hours: Number(n) || 1 })}
          error={e['extension_hours']}
          readOnly={readOnly}
        />
      </SimpleGrid>
      <Textarea
        label={t('permitsWeb.templates.declaration')}
        withAsterisk
        autosize
        minRows={3}
        value={v.extension_declaration}
        onChange={(ev) => set({ extension_declaration: ev.currentTarget.value })}
        error={e['extension_declaration']}
        readOnly={readOnly}
      />
      <Switch
        label={t('permitsWeb.templates.enabled')}
        checked={v.enabled}
        onChange={(ev) => set({ enabled: ev.currentTarget.checked })}
        disabled={readOnly}
      />
      {!readOnly ? (
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('common.save')}
          </Button>
        </Group>
      ) : null}
    </Stack>
  );
}

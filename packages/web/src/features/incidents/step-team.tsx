import { localDateIn, type IncidentFormData } from '@bulwark/domain';
import { Alert, Button, Group, MultiSelect, Select, SimpleGrid, Stack, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useFormats } from '../../ui/format.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useIncidentCommands } from './incidents-api.js';
import type { StepProps } from './step-props.js';
import { Field } from './view-report.js';

/** The people a form may pick: name and e-mail, so two people of the same name are told apart. */
export function peopleOptions(users: IncidentFormData['users']) {
  return users.map((u) => ({ value: u.id, label: u.full_name && u.full_name !== u.email ? `${u.full_name} (${u.email})` : u.email }));
}

/** Step 2: the lead, the members and the target date. Forming the team starts the investigation. */
export function StepTeam({ incident: o, formData, onSaved }: StepProps) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const { day } = useFormats();
  const inv = o.investigation;
  const [lead, setLead] = useState<string | null>(inv.lead?.id ?? null);
  const [members, setMembers] = useState<string[]>(inv.members.map((m) => m.id));
  const [target, setTarget] = useState(inv.target_date ?? '');
  const today = localDateIn(o.site.time_zone, new Date(services.now()));
  const incidentDay = o.occurred_at.slice(0, 10);
  const people = peopleOptions(formData.users);

  if (!o.permissions.edit_team) {
    return (
      <SimpleGrid cols={{ base: 1, xs: 2 }} component="dl" m={0} spacing="sm">
        <Field label={t('incidents.fields.lead')}>{inv.lead?.full_name ?? '—'}</Field>
        <Field label={t('incidents.fields.targetDate')}>{inv.target_date ? day(inv.target_date) : '—'}</Field>
        <Field label={t('incidents.fields.members')} wide>
          {inv.members.map((m) => m.full_name).join(', ') || '—'}
        </Field>
      </SimpleGrid>
    );
  }

  async function save(e: FormEvent) {
    e.preventDefault();
    await form.run(async () => {
      await commands.team(o.id, { lead_id: lead ?? '', member_ids: members, target_date: target });
      notifySuccess(t('incidentsWeb.steps.saved'));
      onSaved();
    });
  }

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-busy={form.busy}>
      <Stack gap="sm">
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          <Select
            label={t('incidents.fields.lead')}
            withAsterisk
            searchable
            data={people}
            value={lead}
            onChange={(v) => {
              setLead(v);
              setMembers((ms) => ms.filter((m) => m !== v));
            }}
            nothingFoundMessage={t('kit.noResults')}
            error={form.errors['lead_id']}
            comboboxProps={{ withinPortal: true }}
          />
          <TextInput
            type="date"
            label={t('incidents.fields.targetDate')}
            withAsterisk
            description={t('incidentsWeb.team.targetHint', { zone: o.site.time_zone })}
            min={today > incidentDay ? today : incidentDay}
            value={target}
            onChange={(e) => setTarget(e.currentTarget.value)}
            error={form.errors['target_date']}
          />
        </SimpleGrid>
        <MultiSelect
          label={t('incidents.fields.members')}
          withAsterisk
          searchable
          data={people.filter((p) => p.value !== lead)}
          value={members}
          onChange={setMembers}
          nothingFoundMessage={t('kit.noResults')}
          error={form.errors['member_ids']}
          comboboxProps={{ withinPortal: true }}
        />
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {inv.lead ? t('incidentsWeb.team.save') : t('incidentsWeb.team.form')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

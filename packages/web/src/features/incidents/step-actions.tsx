import { localDateIn, type CapaKind, type CapaItemInput } from '@bulwark/domain';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { ActionItemsField } from '../actions/action-items-field.js';
import { emptyActionItem, type ActionItemRow } from '../actions/action-items.js';
import { useIncidentCommands } from './incidents-api.js';
import { peopleOptions } from './step-team.js';
import type { StepProps } from './step-props.js';
import { CapaView } from './view-investigation.js';

type Row = ActionItemRow & { category_id: string | null };

/**
 * The server numbers the actions sent as one list (corrective first, then preventive): its error
 * `actions.N.field` belongs to row N of the first group, or row N - c of the second.
 */
export function errorsOf(errors: Record<string, string>, kind: CapaKind, correctiveCount: number): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(errors)) {
    const m = /^actions\.(\d+)\.(.+)$/.exec(k);
    if (!m) continue;
    const i = Number(m[1]);
    if (kind === 'corrective' && i < correctiveCount) out[`corrective.${i}.${m[2]}`] = v;
    if (kind === 'preventive' && i >= correctiveCount) out[`preventive.${i - correctiveCount}.${m[2]}`] = v;
  }
  return out;
}

/**
 * Step 6: the CAPA actions already raised with their live status (they move in the actions module),
 * and new corrective and preventive actions, raised with the same rows as the observation form.
 */
export function StepActions({ incident: o, formData }: StepProps) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const [rows, setRows] = useState<Record<CapaKind, Row[]>>({ corrective: [], preventive: [] });
  const minDate = localDateIn(o.site.time_zone, new Date(services.now()));
  const people = { options: peopleOptions(formData.users) };
  const categories = formData.action_categories.map((c) => ({ value: c.id, label: c.name }));
  const pending = rows.corrective.length + rows.preventive.length;

  async function save(e: FormEvent) {
    e.preventDefault();
    const item =
      (kind: CapaKind) =>
      (r: Row): CapaItemInput => ({
        kind,
        description: r.description,
        control_type: (r.control_type ?? '') as CapaItemInput['control_type'],
        responsible_id: r.responsible_id ?? '',
        due_date: r.due_date,
        category_id: r.category_id,
      });
    await form.run(async () => {
      await commands.addActions(o.id, {
        actions: [...rows.corrective.map(item('corrective')), ...rows.preventive.map(item('preventive'))],
      });
      notifySuccess(t('incidentsWeb.capa.raised', { count: pending }));
      setRows({ corrective: [], preventive: [] });
    });
  }

  const group = (kind: CapaKind) => (
    <Stack gap="xs" key={kind}>
      <Title order={3} size="h5">
        {t('incidentsWeb.capa.new', { kind: t(`incidents.capaKinds.${kind}`) })}
      </Title>
      <Text size="xs" c="dimmed">
        {t(`incidentsWeb.capa.hint.${kind}`)}
      </Text>
      <ActionItemsField
        rows={rows[kind]}
        onChange={(next) => setRows((r) => ({ ...r, [kind]: next }))}
        onAdd={() => setRows((r) => ({ ...r, [kind]: [...r[kind], emptyActionItem()] }))}
        errors={errorsOf(form.errors, kind, rows.corrective.length)}
        errorPrefix={kind}
        controlTypes={formData.control_types}
        people={people}
        categories={categories}
        columns={2}
        minDate={minDate}
        texts={{
          row: (n) => t('incidentsWeb.capa.row', { kind: t(`incidents.capaKinds.${kind}`), n }),
          removeLabel: (n) => t('incidentsWeb.capa.removeRow', { kind: t(`incidents.capaKinds.${kind}`), n }),
          remove: t('incidentsWeb.capa.remove'),
          add: t('incidentsWeb.capa.add', { kind: t(`incidents.capaKinds.${kind}`) }),
        }}
      />
    </Stack>
  );

  return (
    <Stack gap="sm">
      <CapaView o={o} />
      {o.permissions.add_actions ? (
        <form onSubmit={(e) => void save(e)} noValidate aria-busy={form.busy}>
          <Stack gap="md">
            {form.message || form.errors['actions'] ? (
              <Alert color="red" role="alert">
                {form.message ?? form.errors['actions']}
              </Alert>
            ) : null}
            {group('corrective')}
            {group('preventive')}
            {pending > 0 ? (
              <Group justify="flex-end">
                <Button type="submit" loading={form.busy}>
                  {t('incidentsWeb.capa.raise', { count: pending })}
                </Button>
              </Group>
            ) : null}
          </Stack>
        </form>
      ) : null}
    </Stack>
  );
}

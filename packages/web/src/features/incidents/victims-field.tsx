import type { IncidentGuestFormData } from '@bulwark/domain';
import { Button, Group, Paper, Select, SimpleGrid, Stack, Switch, Text, TextInput, Textarea } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../ui/forms/validation.js';
import { BodyDiagram } from './body-diagram.js';
import { OshaCaseField } from './osha-case-field.js';
import { emptyOsha, emptyVictim, type VictimDraft } from './report-model.js';

type Choices = Pick<IncidentGuestFormData, 'victim_types' | 'genders' | 'age_ranges'>;

type Props = {
  victims: VictimDraft[];
  onChange: (victims: VictimDraft[]) => void;
  /** Told the error paths a change makes stale ('victims.0.name'). */
  onEdit: (...paths: string[]) => void;
  choices: Choices;
  errors: FieldErrors;
  /** Staff keep each employee's or contractor's OSHA case; a guest gives none. */
  osha: { injuryTypes: readonly string[]; privacyReasons: readonly string[] } | null;
  /** The incident's day, the earliest return-to-work date. */
  minDate?: string | undefined;
};

/** The people hurt or involved: at least one, each a card with the body diagram. */
export function VictimsField({ victims, onChange, onEdit, choices, errors, osha, minDate }: Props) {
  const { t } = useTranslation();
  const set = (key: string, change: Partial<VictimDraft>) => {
    const i = victims.findIndex((v) => v.key === key);
    onChange(victims.map((v) => (v.key === key ? { ...v, ...change } : v)));
    onEdit(...Object.keys(change).map((f) => `victims.${i}.${f}`));
  };
  const options = (list: readonly string[], prefix: string) => list.map((x) => ({ value: x, label: t(`${prefix}.${x}`) }));

  return (
    <Stack gap="sm" component="fieldset" style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
      <Text component="legend" fw={600} size="sm" mb={4}>
        {t('incidents.fields.victims')}{' '}
        <Text span c="red">
          *
        </Text>
      </Text>
      {errors['victims'] ? (
        <Text c="red" size="sm" role="alert">
          {errors['victims']}
        </Text>
      ) : null}
      {victims.map((v, i) => {
        const n = i + 1;
        const err = (f: string) => errors[`victims.${i}.${f}`];
        const covered = v.type === 'employee' || v.type === 'contractor';
        return (
          <Paper key={v.key} withBorder p="sm" radius="sm" role="group" aria-label={t('incidentsWeb.victims.row', { n })}>
            <Group justify="space-between" mb={6} wrap="nowrap">
              <Text fw={600} size="sm">
                {t('incidentsWeb.victims.row', { n })}
              </Text>
              <Button
                size="compact-sm"
                variant="subtle"
                color="red"
                disabled={victims.length <= 1}
                onClick={() => {
                  onChange(victims.filter((x) => x.key !== v.key));
                  onEdit('victims');
                }}
                aria-label={t('incidentsWeb.victims.removeRow', { n })}
              >
                {t('incidentsWeb.victims.remove')}
              </Button>
            </Group>
            <Stack gap="xs">
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
                <Select
                  label={t('incidents.victim.type')}
                  withAsterisk
                  data={options(choices.victim_types, 'incidents.victimTypes')}
                  value={v.type}
                  onChange={(type) => set(v.key, { type })}
                  error={err('type')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label={t('incidents.victim.name')}
                  withAsterisk
                  maxLength={100}
                  value={v.name}
                  onChange={(e) => set(v.key, { name: e.currentTarget.value })}
                  error={err('name')}
                />
                <TextInput
                  label={t('incidents.victim.employeeId')}
                  maxLength={50}
                  value={v.employee_id}
                  onChange={(e) => set(v.key, { employee_id: e.currentTarget.value })}
                  error={err('employee_id')}
                />
                <Select
                  label={t('incidents.victim.gender')}
                  withAsterisk
                  data={options(choices.genders, 'incidents.genders')}
                  value={v.gender}
                  onChange={(gender) => set(v.key, { gender })}
                  error={err('gender')}
                  comboboxProps={{ withinPortal: true }}
                />
                <Select
                  label={t('incidents.victim.ageRange')}
                  clearable
                  data={options(choices.age_ranges, 'incidents.ageRanges')}
                  value={v.age_range}
                  onChange={(age_range) => set(v.key, { age_range })}
                  error={err('age_range')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  type="date"
                  label={t('incidents.victim.returnToWorkDate')}
                  min={minDate}
                  value={v.return_to_work_date}
                  onChange={(e) => set(v.key, { return_to_work_date: e.currentTarget.value })}
                  error={err('return_to_work_date')}
                />
              </SimpleGrid>
              <BodyDiagram
                label={t('incidents.victim.bodyParts')}
                idPrefix={`victim-${v.key}`}
                value={v.body_parts}
                onChange={(body_parts) => set(v.key, { body_parts })}
                error={err('body_parts')}
              />
              <Textarea
                label={t('incidents.victim.injuryDetails')}
                autosize
                minRows={2}
                maxLength={2000}
                value={v.injury_details}
                onChange={(e) => set(v.key, { injury_details: e.currentTarget.value })}
                error={err('injury_details')}
              />
              <Switch
                label={t('incidents.victim.takenToHospital')}
                checked={v.taken_to_hospital}
                onChange={(e) => set(v.key, { taken_to_hospital: e.currentTarget.checked })}
              />
              <Textarea
                label={t('incidents.victim.treatment')}
                autosize
                minRows={2}
                maxLength={2000}
                value={v.treatment}
                onChange={(e) => set(v.key, { treatment: e.currentTarget.value })}
                error={err('treatment')}
              />
              {osha && covered ? (
                <>
                  <Switch
                    label={t('incidentsWeb.victims.keepOsha')}
                    description={t('incidentsWeb.victims.keepOshaHint')}
                    checked={v.osha !== null}
                    onChange={(e) => set(v.key, { osha: e.currentTarget.checked ? emptyOsha() : null })}
                  />
                  {v.osha ? (
                    <OshaCaseField
                      value={v.osha}
                      contractor={v.type === 'contractor'}
                      onChange={(o) => set(v.key, { osha: o })}
                      injuryTypes={osha.injuryTypes}
                      privacyReasons={osha.privacyReasons}
                      errors={errors}
                      prefix={`victims.${i}.osha`}
                    />
                  ) : null}
                </>
              ) : null}
            </Stack>
          </Paper>
        );
      })}
      <Button
        variant="light"
        w="fit-content"
        onClick={() => {
          onChange([...victims, emptyVictim()]);
          onEdit('victims');
        }}
      >
        {t('incidentsWeb.victims.add')}
      </Button>
    </Stack>
  );
}

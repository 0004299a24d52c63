import { OSHA_DAYS_CAP, oshaClassification } from '@bulwark/domain';
import { Checkbox, NumberInput, Paper, Select, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import type { FieldErrors } from '../../ui/forms/validation.js';
import type { OshaDraft } from './report-model.js';

type Props = {
  value: OshaDraft;
  onChange: (value: OshaDraft) => void;
  contractor: boolean;
  injuryTypes: readonly string[];
  privacyReasons: readonly string[];
  errors: FieldErrors;
  /** The server's path of this case ('victims.0.osha'). */
  prefix: string;
};

/**
 * A victim's OSHA case (29 CFR 1904): the facts the 300, 300A and 301 forms need beyond the report.
 * The outcome the facts give (the log's one box, 1904.7) is shown as they are answered.
 */
export function OshaCaseField({ value, onChange, contractor, injuryTypes, privacyReasons, errors, prefix }: Props) {
  const { t } = useTranslation();
  const set = (change: Partial<OshaDraft>) => onChange({ ...value, ...change });
  const err = (f: string) => errors[`${prefix}.${f}`];
  const count = (v: string | number) => (v === '' ? '' : String(v));
  const outcome = oshaClassification({
    died: value.died,
    days_away: Number(value.days_away) || 0,
    days_restricted: Number(value.days_restricted) || 0,
    medical_treatment: value.medical_treatment,
    loss_of_consciousness: value.loss_of_consciousness,
    significant_diagnosis: value.significant_diagnosis,
  });
  const flag = (key: 'medical_treatment' | 'loss_of_consciousness' | 'significant_diagnosis', label: string) => (
    <Checkbox label={t(label)} checked={value[key]} onChange={(e) => set({ [key]: e.currentTarget.checked })} />
  );

  return (
    <Paper withBorder p="sm" radius="sm" bg="gray.0" role="group" aria-label={t('incidentsWeb.victims.oshaCase')}>
      <Stack gap="xs">
        <Text fw={600} size="sm">
          {t('incidentsWeb.victims.oshaCase')}
        </Text>
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs">
          <TextInput
            label={t('incidents.osha.fields.jobTitle')}
            maxLength={100}
            value={value.job_title}
            onChange={(e) => set({ job_title: e.currentTarget.value })}
            error={err('job_title')}
          />
          <Select
            label={t('incidents.osha.fields.injuryType')}
            withAsterisk
            data={injuryTypes.map((x) => ({ value: x, label: t(`incidents.osha.injuryTypes.${x}`) }))}
            value={value.injury_type}
            onChange={(injury_type) => set({ injury_type })}
            error={err('injury_type')}
            comboboxProps={{ withinPortal: true }}
          />
          <NumberInput
            label={t('incidents.osha.fields.daysAway')}
            min={0}
            max={OSHA_DAYS_CAP}
            allowDecimal={false}
            allowNegative={false}
            value={value.days_away}
            onChange={(v) => set({ days_away: count(v) })}
            error={err('days_away')}
          />
          <NumberInput
            label={t('incidents.osha.fields.daysRestricted')}
            min={0}
            max={OSHA_DAYS_CAP}
            allowDecimal={false}
            allowNegative={false}
            value={value.days_restricted}
            onChange={(v) => set({ days_restricted: count(v) })}
            error={err('days_restricted')}
          />
        </SimpleGrid>
        {flag('medical_treatment', 'incidents.osha.fields.medicalTreatment')}
        {flag('loss_of_consciousness', 'incidents.osha.fields.lossOfConsciousness')}
        {flag('significant_diagnosis', 'incidents.osha.fields.significantDiagnosis')}
        <Checkbox
          label={t('incidents.osha.fields.died')}
          checked={value.died}
          onChange={(e) => set({ died: e.currentTarget.checked, date_of_death: e.currentTarget.checked ? value.date_of_death : '' })}
        />
        {value.died ? (
          <TextInput
            type="date"
            label={t('incidents.osha.fields.dateOfDeath')}
            withAsterisk
            value={value.date_of_death}
            onChange={(e) => set({ date_of_death: e.currentTarget.value })}
            error={err('date_of_death')}
          />
        ) : null}
        {contractor ? (
          <Checkbox
            label={t('incidents.osha.fields.daySupervised')}
            checked={value.day_to_day_supervised}
            onChange={(e) => set({ day_to_day_supervised: e.currentTarget.checked })}
            error={err('day_to_day_supervised')}
          />
        ) : null}
        <Select
          label={t('incidents.osha.fields.privacyReason')}
          clearable
          placeholder={t('incidentsWeb.victims.noPrivacy')}
          data={privacyReasons.map((x) => ({ value: x, label: t(`incidents.osha.privacyReasons.${x}`) }))}
          value={value.privacy_reason}
          onChange={(privacy_reason) => set({ privacy_reason })}
          error={err('privacy_reason')}
          comboboxProps={{ withinPortal: true }}
        />
        <Text size="sm" c={outcome ? undefined : 'dimmed'} role="status">
          {outcome
            ? t('incidentsWeb.victims.oshaOutcome', { outcome: t(`incidents.osha.classifications.${outcome}`) })
            : t('incidentsWeb.victims.oshaNoCriterion')}
          {contractor && !value.day_to_day_supervised ? ` ${t('incidentsWeb.victims.oshaNotCovered')}` : ''}
        </Text>
        {err('_') || errors[prefix] ? (
          <Text c="red" size="sm" role="alert">
            {err('_') ?? errors[prefix]}
          </Text>
        ) : null}
      </Stack>
    </Paper>
  );
}

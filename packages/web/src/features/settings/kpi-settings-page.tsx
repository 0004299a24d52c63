import { KPI_FIELDS, KPI_YEAR_MAX, KPI_YEAR_MIN, kpiSettingsSchema, type KpiField } from '@bulwark/domain';
import { Alert, Button, Group, NumberInput, Paper, Select, Stack } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { validate } from '../../ui/forms/validation.js';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { ActionRulesCard } from './action-rules-card.js';
import { useKpiSettings, useSettingsCommands } from './settings-api.js';

const PERCENT: readonly KpiField[] = ['critical_closure_rate_target', 'serious_closure_rate_target'];

/** /kpi_settings (admin): the targets of one year that the dashboards compare with, and the organisation's action rules. */
export function KpiSettingsPage() {
  const { t } = useTranslation();
  const thisYear = new Date().getFullYear();
  const [year, setYear] = useState(thisYear);
  const years = Array.from({ length: 11 }, (_, i) => thisYear + 5 - i).filter((y) => y >= KPI_YEAR_MIN && y <= KPI_YEAR_MAX);
  return (
    <Stack maw={720}>
      <PageHeader
        title={t('settings.kpi.title')}
        description={t('settings.kpi.intro')}
        actions={
          <Select
            label={t('settings.kpi.year')}
            data={years.map(String)}
            value={String(year)}
            onChange={(v) => v && setYear(Number(v))}
            allowDeselect={false}
            w={120}
          />
        }
      />
      <KpiForm key={year} year={year} />
      <ActionRulesCard />
    </Stack>
  );
}

function KpiForm({ year }: { year: number }) {
  const { t } = useTranslation();
  const commands = useSettingsCommands();
  const query = useKpiSettings(year);
  const [values, setValues] = useState<Partial<Record<KpiField, number | string>>>({});
  const form = useFormSubmit();

  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('errors.somethingWentWrong')}
      </Alert>
    );
  if (!query.data) return <PageLoader />;
  const data = query.data;
  const value = (f: KpiField) => values[f] ?? data[f];

  async function submit(e: FormEvent) {
    e.preventDefault();
    const input = Object.fromEntries(
      KPI_FIELDS.map((f) => {
        const v = value(f);
        return [f, v === '' ? undefined : Number(v)];
      }),
    );
    const checked = validate(kpiSettingsSchema, input, t);
    const targets = checked.data;
    if (form.refuse(checked.errors) || !targets) return;
    await form.run(async () => {
      await commands.saveKpi(year, targets);
      setValues({});
      notifySuccess(t('settings.kpi.saved'));
    });
  }

  return (
    <Paper withBorder p="lg" radius="md" component="form" onSubmit={(e: FormEvent) => void submit(e)} noValidate>
      <Stack>
        {data.is_default ? (
          <Alert color="blue" role="status">
            {t('settings.kpi.isDefault')}
          </Alert>
        ) : null}
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        {KPI_FIELDS.map((f) => (
          <NumberInput
            key={f}
            label={t(`settings.kpi.fields.${f}`)}
            description={t(`settings.kpi.hints.${f}`)}
            value={value(f)}
            onChange={(v) => setValues({ ...values, [f]: v })}
            min={0}
            max={PERCENT.includes(f) ? 100 : undefined}
            decimalScale={2}
            clampBehavior="none"
            suffix={PERCENT.includes(f) ? ' %' : undefined}
            error={form.errors[f]}
            required
          />
        ))}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('settings.kpi.save')}
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

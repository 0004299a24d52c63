import { INCIDENT_WHYS_MAX, type IncidentRootCauses } from '@bulwark/domain';
import { Alert, Badge, Button, Group, MultiSelect, Paper, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { PageLoader } from '../../ui/index.js';
import { useIncidentCommands, useRootCauses } from './incidents-api.js';
import type { StepProps } from './step-props.js';
import { FactorsView } from './view-investigation.js';

type Analysis = { factorId: string; whys: string[]; rootCauseIds: string[] };
type Cause = IncidentRootCauses['options'][number];

const causeLabel = (c: Cause) => [...c.path, c.name].join(' › ');

/** The root-cause choices grouped by their type, with any retired cause already picked kept in. */
export function causeOptions(options: Cause[], picked: Cause[]) {
  const all = [...options, ...picked.filter((p) => !options.some((o) => o.id === p.id))];
  const groups = new Map<string, { value: string; label: string }[]>();
  for (const c of all) groups.set(c.type_name, [...(groups.get(c.type_name) ?? []), { value: c.id, label: causeLabel(c) }]);
  return [...groups.entries()].map(([group, items]) => ({ group, items }));
}

/**
 * Step 5: for each key factor, the chain of whys (each asks why the answer before it happened) ending
 * in root causes picked from the organisation's root-cause tree. Factors left blank are not sent.
 */
export function StepWhy({ incident: o, onSaved }: StepProps) {
  const { t } = useTranslation();
  const editable = o.permissions.edit_investigation;
  const causes = useRootCauses(o.id, editable);
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const factors = o.investigation.factors;
  const [analyses, setAnalyses] = useState<Analysis[]>(() =>
    factors.map((f) => ({ factorId: f.id, whys: f.whys.length ? [...f.whys] : [''], rootCauseIds: f.root_causes.map((r) => r.id) })),
  );
  if (!editable) return <FactorsView o={o} />;
  if (factors.length === 0) return <Alert color="yellow">{t('incidentsWeb.why.noFactors')}</Alert>;
  if (causes.isPending) return <PageLoader />;
  const options = causes.data?.options ?? [];

  const set = (factorId: string, change: Partial<Analysis>) =>
    setAnalyses((as) => as.map((a) => (a.factorId === factorId ? { ...a, ...change } : a)));
  const touched = (a: Analysis) => a.whys.some((w) => w.trim() !== '') || a.rootCauseIds.length > 0;

  async function save(e: FormEvent) {
    e.preventDefault();
    const sent = analyses.filter(touched);
    if (sent.length === 0) {
      form.refuse({ analyses: t('incidentsWeb.why.nothing') });
      return;
    }
    await form.run(async () => {
      await commands.whyAnalysis(o.id, {
        analyses: sent.map((a) => ({ factor_id: a.factorId, whys: a.whys.filter((w) => w.trim() !== ''), root_cause_ids: a.rootCauseIds })),
      });
      notifySuccess(t('incidentsWeb.steps.saved'));
      onSaved();
    });
  }
  // The server numbers the analyses it was sent; the form's errors follow the factor each one names.
  const sentIndex = (factorId: string) => analyses.filter(touched).findIndex((a) => a.factorId === factorId);

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-busy={form.busy}>
      <Stack gap="sm">
        {form.message || form.errors['analyses'] ? (
          <Alert color="red" role="alert">
            {form.message ?? form.errors['analyses']}
          </Alert>
        ) : null}
        {options.length === 0 ? <Alert color="yellow">{t('incidentsWeb.why.noCauses')}</Alert> : null}
        {factors.map((f, fi) => {
          const a = analyses.find((x) => x.factorId === f.id)!;
          const n = sentIndex(f.id);
          const err = (field: string) => (n >= 0 ? form.errors[`analyses.${n}.${field}`] : undefined);
          return (
            <Paper key={f.id} withBorder p="sm" radius="sm" role="group" aria-label={t('incidentsWeb.why.factor', { n: fi + 1 })}>
              <Group gap={6} wrap="nowrap" align="flex-start" mb="xs">
                <Badge variant="light" style={{ minWidth: 'max-content' }}>
                  {t(`incidents.keyFactors.${f.category}`)}
                </Badge>
                <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                  {f.description}
                </Text>
              </Group>
              <Stack gap={6}>
                {a.whys.map((w, i) => (
                  <Textarea
                    key={i}
                    label={t('incidentsWeb.why.label', { n: i + 1 })}
                    description={i === 0 ? t('incidentsWeb.why.firstHint') : t('incidentsWeb.why.nextHint')}
                    autosize
                    minRows={1}
                    maxLength={500}
                    value={w}
                    onChange={(e) => set(f.id, { whys: a.whys.map((x, j) => (j === i ? e.currentTarget.value : x)) })}
                    error={err(`whys.${i}`) ?? (i === 0 ? err('whys') : undefined)}
                  />
                ))}
                <Group gap="xs">
                  <Button
                    size="compact-sm"
                    variant="light"
                    disabled={a.whys.length >= INCIDENT_WHYS_MAX}
                    onClick={() => set(f.id, { whys: [...a.whys, ''] })}
                  >
                    {t('incidentsWeb.why.addWhy')}
                  </Button>
                  {a.whys.length > 1 ? (
                    <Button size="compact-sm" variant="subtle" color="red" onClick={() => set(f.id, { whys: a.whys.slice(0, -1) })}>
                      {t('incidentsWeb.why.removeWhy')}
                    </Button>
                  ) : null}
                </Group>
                <MultiSelect
                  label={t('incidents.fields.rootCauses')}
                  description={t('incidentsWeb.why.causesHint')}
                  searchable
                  data={causeOptions(options, f.root_causes)}
                  value={a.rootCauseIds}
                  onChange={(rootCauseIds) => set(f.id, { rootCauseIds })}
                  nothingFoundMessage={t('kit.noResults')}
                  error={err('root_cause_ids')}
                  comboboxProps={{ withinPortal: true }}
                />
              </Stack>
            </Paper>
          );
        })}
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('incidentsWeb.steps.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

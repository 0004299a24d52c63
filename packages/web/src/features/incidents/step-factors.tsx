import type { KeyFactorCategory } from '@bulwark/domain';
import { Alert, Button, Grid, Group, Paper, Select, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useConfirm } from '../../ui/index.js';
import { useIncidentCommands } from './incidents-api.js';
import type { StepProps } from './step-props.js';
import { FactorsView } from './view-investigation.js';

type Row = { key: string; id: string | null; category: KeyFactorCategory | null; description: string; analysed: boolean };

let counter = 0;
const key = () => `k${(counter += 1)}`;

/** Step 4: the key factors under man, machine, method, material or environment. A factor kept keeps its analysis. */
export function StepFactors({ incident: o, formData, onSaved }: StepProps) {
  const { t } = useTranslation();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const [confirm, dialog] = useConfirm();
  const [rows, setRows] = useState<Row[]>(() =>
    o.investigation.factors.length
      ? o.investigation.factors.map((f) => ({
          key: key(),
          id: f.id,
          category: f.category,
          description: f.description,
          analysed: f.whys.length > 0 || f.root_causes.length > 0,
        }))
      : [{ key: key(), id: null, category: null, description: '', analysed: false }],
  );
  if (!o.permissions.edit_investigation) return <FactorsView o={o} withWhys={false} />;

  const set = (k: string, change: Partial<Row>) => setRows((xs) => xs.map((x) => (x.key === k ? { ...x, ...change } : x)));
  const err = (path: string) => form.errors[path];

  async function save(e: FormEvent) {
    e.preventDefault();
    // Leaving out an analysed factor drops its why-why chain: asked first.
    const dropped = o.investigation.factors.filter((f) => (f.whys.length || f.root_causes.length) && !rows.some((r) => r.id === f.id));
    if (dropped.length > 0 && !(await confirm({ message: t('incidentsWeb.factors.confirmDrop', { count: dropped.length }), danger: true })))
      return;
    await form.run(async () => {
      await commands.keyFactors(o.id, {
        factors: rows.map((r) => ({ id: r.id, category: (r.category ?? '') as KeyFactorCategory, description: r.description })),
      });
      notifySuccess(t('incidentsWeb.steps.saved'));
      onSaved();
    });
  }

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-busy={form.busy}>
      <Stack gap="xs">
        {form.message || err('factors') ? (
          <Alert color="red" role="alert">
            {form.message ?? err('factors')}
          </Alert>
        ) : null}
        {rows.map((r, i) => (
          <Paper key={r.key} withBorder p="xs" radius="sm" role="group" aria-label={t('incidentsWeb.factors.row', { n: i + 1 })}>
            <Grid gap="xs">
              <Grid.Col span={{ base: 12, sm: 4 }}>
                <Select
                  label={t('incidentsWeb.factors.category')}
                  withAsterisk
                  data={formData.key_factor_categories.map((c) => ({ value: c, label: t(`incidents.keyFactors.${c}`) }))}
                  value={r.category}
                  onChange={(v) => set(r.key, { category: v as KeyFactorCategory | null })}
                  description={r.category ? t(`incidents.keyFactorHints.${r.category}`) : undefined}
                  error={err(`factors.${i}.category`)}
                  comboboxProps={{ withinPortal: true }}
                />
              </Grid.Col>
              <Grid.Col span={{ base: 12, sm: 8 }}>
                <Textarea
                  label={t('incidentsWeb.factors.description')}
                  withAsterisk
                  autosize
                  minRows={2}
                  maxLength={2000}
                  value={r.description}
                  onChange={(e) => set(r.key, { description: e.currentTarget.value })}
                  error={err(`factors.${i}.description`)}
                />
              </Grid.Col>
            </Grid>
            <Group justify="space-between" mt={4}>
              <Text size="xs" c="dimmed">
                {r.analysed ? t('incidentsWeb.factors.analysed') : ''}
              </Text>
              <Button
                size="compact-xs"
                variant="subtle"
                color="red"
                disabled={rows.length <= 1}
                onClick={() => setRows((xs) => xs.filter((x) => x.key !== r.key))}
              >
                {t('incidentsWeb.factors.remove', { n: i + 1 })}
              </Button>
            </Group>
          </Paper>
        ))}
        <Button
          variant="light"
          w="fit-content"
          onClick={() => setRows((xs) => [...xs, { key: key(), id: null, category: null, description: '', analysed: false }])}
        >
          {t('incidentsWeb.factors.add')}
        </Button>
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy}>
            {t('incidentsWeb.steps.save')}
          </Button>
        </Group>
      </Stack>
      {dialog}
    </form>
  );
}

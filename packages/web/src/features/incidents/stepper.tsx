import { INVESTIGATION_STEPS, type Incident } from '@bulwark/domain';
import { Box, Select, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import classes from './incidents.module.css';

/** The address of step `n` (1..7) of an incident. */
export const stepPath = (id: string, n: number) => `/incidents/${id}/steps/step${n}`;

/**
 * Where the investigation stands: the seven steps with the ones done ticked, the one it stands at,
 * the one shown, and who holds it now. A column of links beside the step on a wide screen; on a phone
 * a single "go to step" choice, so nothing scrolls sideways.
 */
export function Stepper({ incident, shown }: { incident: Incident; shown: number }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const inv = incident.investigation;
  const stands = inv.current_step;
  const label = (n: number) => t(`incidents.steps.${INVESTIGATION_STEPS[n - 1]!}`);
  const done = (n: number) => inv.steps.find((s) => s.number === n)?.done ?? false;
  const holders = inv.holders.map((h) => h.full_name).join(', ');

  return (
    <Stack gap="xs" component="nav" aria-label={t('incidentsWeb.steps.nav')}>
      <Box visibleFrom="md">
        <Stack gap={2} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
          {INVESTIGATION_STEPS.map((key, i) => {
            const n = i + 1;
            const dot = done(n)
              ? `${classes.stepDot} ${classes.stepDone}`
              : n === stands
                ? `${classes.stepDot} ${classes.stepNow}`
                : classes.stepDot;
            return (
              <li key={key}>
                <Link to={stepPath(incident.id, n)} className={classes.stepLink} aria-current={n === shown ? 'step' : undefined}>
                  <span className={dot} aria-hidden>
                    {done(n) ? '✓' : n}
                  </span>
                  <span>
                    <Text size="sm" fw={n === shown ? 700 : 500} component="span" display="block">
                      {label(n)}
                    </Text>
                    <Text size="xs" c="dimmed" component="span" display="block">
                      {done(n) ? t('incidentsWeb.steps.done') : n === stands ? t('incidentsWeb.steps.here') : t('incidentsWeb.steps.todo')}
                    </Text>
                  </span>
                </Link>
              </li>
            );
          })}
        </Stack>
      </Box>
      <Select
        hiddenFrom="md"
        label={t('incidentsWeb.steps.goTo')}
        value={String(shown)}
        allowDeselect={false}
        data={INVESTIGATION_STEPS.map((_, i) => ({
          value: String(i + 1),
          label: `${i + 1}. ${label(i + 1)}${done(i + 1) ? ' ✓' : ''}`,
        }))}
        onChange={(v) => v && void navigate(stepPath(incident.id, Number(v)))}
        comboboxProps={{ withinPortal: true }}
      />
      <Text size="sm" c="dimmed">
        {holders ? t('incidentsWeb.steps.heldBy', { names: holders }) : t('incidentsWeb.steps.heldByNobody')}
      </Text>
    </Stack>
  );
}

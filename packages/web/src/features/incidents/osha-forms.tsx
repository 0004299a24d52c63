import { OSHA_INJURY_TYPES, type Osha300, type OshaClassification } from '@bulwark/domain';
import { Alert, Paper, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import type { UseQueryResult } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../ui/format.js';
import { PageLoader } from '../../ui/index.js';
import { useOsha300a, useOsha301 } from './incidents-api.js';
import classes from './osha.module.css';
import { Field } from './view-report.js';

const BOXES: OshaClassification[] = ['death', 'days_away', 'job_transfer_restriction', 'other_recordable'];
const BOX_COLUMN: Record<OshaClassification, string> = {
  death: 'death',
  days_away: 'daysAway',
  job_transfer_restriction: 'transfer',
  other_recordable: 'other',
};
const INJURY_SHORT: Record<(typeof OSHA_INJURY_TYPES)[number], string> = {
  injury: '(1)',
  skin_disorder: '(2)',
  respiratory_condition: '(3)',
  poisoning: '(4)',
  hearing_loss: '(5)',
  other_illness: '(6)',
};

function FormTitle({ title, subtitle, line }: { title: string; subtitle: string; line: string }) {
  return (
    <Stack gap={0}>
      <Title order={2} size="h3">
        {title}
      </Title>
      <Text fw={600}>{subtitle}</Text>
      <Text size="sm" c="dimmed">
        {line}
      </Text>
    </Stack>
  );
}

/** Form 300: one line per case, the one most serious outcome checked, privacy cases unnamed, the totals. */
export function Osha300Log({ query }: { query: UseQueryResult<Osha300> }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('kit.loadFailed')}
      </Alert>
    );
  if (!query.data) return <PageLoader />;
  const log = query.data;
  const col = (k: string) => t(`incidents.osha.log.columns.${k}`);
  return (
    <Stack gap="sm">
      <FormTitle
        title={t('incidents.osha.log.title')}
        subtitle={t('incidents.osha.log.subtitle')}
        line={t('incidents.osha.log.yearEstablishment', { year: log.year, name: log.establishment.name })}
      />
      {log.rows.length === 0 ? (
        <Text c="dimmed">{t('incidents.osha.log.empty')}</Text>
      ) : (
        <Table.ScrollContainer minWidth={1000}>
          <Table withTableBorder withColumnBorders className={classes.table} aria-label={t('incidents.osha.log.title')}>
            <Table.Thead>
              <Table.Tr>
                {['caseNumber', 'employeeName', 'jobTitle', 'date', 'location', 'description'].map((k) => (
                  <Table.Th key={k}>{col(k)}</Table.Th>
                ))}
                {BOXES.map((b) => (
                  <Table.Th key={b}>{col(BOX_COLUMN[b])}</Table.Th>
                ))}
                <Table.Th>{col('awayDays')}</Table.Th>
                <Table.Th>{col('transferDays')}</Table.Th>
                <Table.Th>{col('injuryType')}</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {log.rows.map((r) => (
                <Table.Tr key={`${r.incident_id}-${r.victim_id}`}>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{r.case_number}</Table.Td>
                  <Table.Td>{r.privacy_case ? <em>{t('incidents.privacyCase')}</em> : r.employee_name}</Table.Td>
                  <Table.Td>{r.job_title ?? ''}</Table.Td>
                  <Table.Td style={{ whiteSpace: 'nowrap' }}>{fmt.day(r.date)}</Table.Td>
                  <Table.Td>{r.location}</Table.Td>
                  <Table.Td style={{ minWidth: 220 }}>{r.description}</Table.Td>
                  {BOXES.map((b) => (
                    <Table.Td
                      key={b}
                      ta="center"
                      aria-label={r.classification === b ? t(`incidents.osha.classifications.${b}`) : undefined}
                    >
                      {r.classification === b ? '✓' : ''}
                    </Table.Td>
                  ))}
                  <Table.Td ta="right">{r.days_away || ''}</Table.Td>
                  <Table.Td ta="right">{r.days_restricted || ''}</Table.Td>
                  <Table.Td>{`${INJURY_SHORT[r.injury_type]} ${t(`incidents.osha.injuryTypes.${r.injury_type}`)}`}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
            <Table.Tfoot>
              <Table.Tr>
                <Table.Th colSpan={6}>{t('incidents.osha.log.totals')}</Table.Th>
                <Table.Th ta="center">{log.totals.deaths}</Table.Th>
                <Table.Th ta="center">{log.totals.days_away_cases}</Table.Th>
                <Table.Th ta="center">{log.totals.job_transfer_restriction_cases}</Table.Th>
                <Table.Th ta="center">{log.totals.other_recordable_cases}</Table.Th>
                <Table.Th ta="right">{log.totals.days_away}</Table.Th>
                <Table.Th ta="right">{log.totals.days_restricted}</Table.Th>
                <Table.Th>{OSHA_INJURY_TYPES.map((k) => `${INJURY_SHORT[k]} ${log.totals.injury_types[k]}`).join('  ')}</Table.Th>
              </Table.Tr>
            </Table.Tfoot>
          </Table>
        </Table.ScrollContainer>
      )}
      <Text size="xs" c="dimmed">
        {t('incidents.osha.log.privacyNote')}
      </Text>
      {log.privacy_list && log.privacy_list.length > 0 ? (
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm">
            {t('incidentsWeb.osha.privacyList')}
          </Text>
          <Text size="xs" c="dimmed" mb={4}>
            {t('incidentsWeb.osha.privacyListHint')}
          </Text>
          {log.privacy_list.map((p) => (
            <Text key={p.case_number} size="sm">{`${p.case_number} · ${p.employee_name}`}</Text>
          ))}
        </Paper>
      ) : null}
    </Stack>
  );
}

/** Form 300A: the year's totals, the injury types, and the employment figures from manpower. */
export function Osha300ASummary({ siteId, year }: { siteId: string; year: number }) {
  const { t, i18n } = useTranslation();
  const query = useOsha300a(siteId, year);
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('kit.loadFailed')}
      </Alert>
    );
  if (!query.data) return <PageLoader />;
  const s = query.data;
  const n = (x: number) => new Intl.NumberFormat(i18n.language).format(x);
  const k = (key: string) => t(`incidents.osha.summary.${key}`);
  return (
    <Stack gap="sm">
      <FormTitle
        title={k('title')}
        subtitle={k('subtitle')}
        line={t('incidents.osha.log.yearEstablishment', { year: s.year, name: s.establishment.name })}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('numberOfCases')}
          </Text>
          <SimpleGrid cols={2} component="dl" m={0} spacing={6}>
            <Field label={`(G) ${k('deaths')}`}>{n(s.totals.deaths)}</Field>
            <Field label={`(H) ${k('daysAwayCases')}`}>{n(s.totals.days_away_cases)}</Field>
            <Field label={`(I) ${k('transferCases')}`}>{n(s.totals.job_transfer_restriction_cases)}</Field>
            <Field label={`(J) ${k('otherCases')}`}>{n(s.totals.other_recordable_cases)}</Field>
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('numberOfDays')}
          </Text>
          <SimpleGrid cols={2} component="dl" m={0} spacing={6}>
            <Field label={`(K) ${k('daysAway')}`}>{n(s.totals.days_away)}</Field>
            <Field label={`(L) ${k('daysRestricted')}`}>{n(s.totals.days_restricted)}</Field>
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('injuryIllnessTypes')}
          </Text>
          <SimpleGrid cols={2} component="dl" m={0} spacing={6}>
            {OSHA_INJURY_TYPES.map((x) => (
              <Field key={x} label={`(M${INJURY_SHORT[x]}) ${t(`incidents.osha.injuryTypes.${x}`)}`}>
                {n(s.totals.injury_types[x])}
              </Field>
            ))}
          </SimpleGrid>
        </Paper>
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('establishment')}
          </Text>
          <SimpleGrid cols={2} component="dl" m={0} spacing={6}>
            <Field label={k('street')}>{s.establishment.street || '—'}</Field>
            <Field label={k('city')}>{s.establishment.city || '—'}</Field>
            <Field label={k('state')}>{s.establishment.state || '—'}</Field>
            <Field label={k('zip')}>{s.establishment.zip || '—'}</Field>
          </SimpleGrid>
          <Text fw={600} size="sm" mt="sm" mb={6}>
            {k('employment')}
          </Text>
          <SimpleGrid cols={2} component="dl" m={0} spacing={6}>
            <Field label={k('averageEmployees')}>{n(s.average_employees)}</Field>
            <Field label={k('hoursWorked')}>{n(s.hours_worked)}</Field>
          </SimpleGrid>
          <Text size="xs" c="dimmed" mt={4}>
            {k('hoursRule')}
          </Text>
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** Form 301: one case, as far as the record holds it (blank where it holds nothing). */
export function Osha301Report({ id, victimId }: { id: string; victimId: string }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const query = useOsha301(id, victimId);
  if (query.isError)
    return (
      <Alert color="red" role="alert">
        {t('kit.loadFailed')}
      </Alert>
    );
  if (!query.data) return <PageLoader />;
  const r = query.data;
  const k = (key: string) => t(`incidents.osha.report301.${key}`);
  const f = (key: string) => t(`incidents.osha.fields.${key}`);
  return (
    <Stack gap="sm">
      <FormTitle title={k('title')} subtitle={k('subtitle')} line={`${r.establishment.name} · ${r.incident_serial}`} />
      <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="sm">
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('employeeInfo')}
          </Text>
          <Stack gap={6} component="dl" m={0}>
            <Field label={t('incidents.victim.name')}>{r.employee.name}</Field>
            <Field label={t('incidents.victim.employeeId')}>{r.employee.employee_id ?? '—'}</Field>
            <Field label={f('jobTitle')}>{r.employee.job_title ?? '—'}</Field>
            <Field label={t('incidents.victim.gender')}>{t(`incidents.genders.${r.employee.gender}`)}</Field>
            <Field label={t('incidents.victim.ageRange')}>
              {r.employee.age_range ? t(`incidents.ageRanges.${r.employee.age_range}`) : '—'}
            </Field>
          </Stack>
        </Paper>
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('treatmentInfo')}
          </Text>
          <Stack gap={6} component="dl" m={0}>
            <Field label={t('incidents.victim.treatment')}>{r.treatment.treatment ?? '—'}</Field>
            <Field label={k('emergencyRoom')}>{t(r.treatment.taken_to_hospital ? 'incidents.fields.yes' : 'incidents.fields.no')}</Field>
          </Stack>
        </Paper>
        <Paper withBorder p="sm" radius="sm">
          <Text fw={600} size="sm" mb={6}>
            {k('caseInfo')}
          </Text>
          <Stack gap={6} component="dl" m={0}>
            <Field label={f('caseNumber')}>{r.case.case_number}</Field>
            <Field label={k('dateOfInjury')}>{fmt.day(r.case.date_of_injury)}</Field>
            <Field label={k('timeOfEvent')}>{r.case.time_of_event}</Field>
            <Field label={f('classification')}>{t(`incidents.osha.classifications.${r.case.classification}`)}</Field>
            <Field label={f('injuryType')}>{t(`incidents.osha.injuryTypes.${r.case.injury_type}`)}</Field>
            <Field label={f('daysAway')}>{r.case.days_away}</Field>
            <Field label={f('daysRestricted')}>{r.case.days_restricted}</Field>
            {r.case.date_of_death ? <Field label={f('dateOfDeath')}>{fmt.day(r.case.date_of_death)}</Field> : null}
          </Stack>
        </Paper>
      </SimpleGrid>
      <Paper withBorder p="sm" radius="sm">
        <Stack gap={6} component="dl" m={0}>
          <Field label={k('whatHappened')}>{r.case.what_happened}</Field>
          <Field label={k('injury')}>{r.case.injury ?? '—'}</Field>
          <Field label={t('incidents.victim.bodyParts')}>
            {r.case.body_parts.map((p) => t(`incidents.bodyParts.${p}`)).join(', ') || '—'}
          </Field>
          <Field label={k('actionTaken')}>{r.case.action_taken}</Field>
        </Stack>
      </Paper>
    </Stack>
  );
}

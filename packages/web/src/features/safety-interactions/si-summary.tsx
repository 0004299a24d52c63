import type { SiSummaryResponse } from '@bulwark/domain';
import { Alert, Group, Paper, Progress, Select, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { PageHeader, PageLoader } from '../../ui/index.js';
import { useSiOptions, useSummary } from './safety-interactions-api.js';
import { localDay } from './si-format.js';
import { SiNav } from './si-nav.js';

export function Stat({ label, value, hint }: { label: string; value: string | number; hint?: string }) {
  return (
    <Paper withBorder p="md" radius="md">
      <Text size="xs" c="dimmed" fw={600} tt="uppercase">
        {label}
      </Text>
      <Text fz={28} fw={700} lh={1.2}>
        {value}
      </Text>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}

const pct = (share: number | null) => (share === null ? '—' : `${Math.round(share * 100)}%`);

function Tally({
  rows,
  first,
  t,
}: {
  rows: Array<{ key: string; name: string; interactions: number; safe: number; at_risk: number; extra?: number }>;
  first: string;
  t: (k: string) => string;
}) {
  return (
    <Table.ScrollContainer minWidth={360}>
      <Table striped verticalSpacing="xs">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>{first}</Table.Th>
            <Table.Th ta="right">{t('safetyInteractions.summary.interactions')}</Table.Th>
            <Table.Th ta="right">{t('safetyInteractions.summary.safe')}</Table.Th>
            <Table.Th ta="right">{t('safetyInteractions.summary.atRisk')}</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((r) => (
            <Table.Tr key={r.key}>
              <Table.Td style={{ overflowWrap: 'anywhere' }}>{r.name}</Table.Td>
              <Table.Td ta="right">{r.interactions}</Table.Td>
              <Table.Td ta="right">{r.safe}</Table.Td>
              <Table.Td ta="right">{r.at_risk}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

function Figures({ s }: { s: SiSummaryResponse }) {
  const { t } = useTranslation();
  const most = Math.max(1, ...s.by_topic.map((x) => x.safe + x.at_risk));
  return (
    <Stack gap="md">
      <SimpleGrid cols={{ base: 2, sm: 4 }}>
        <Stat label={t('safetyInteractions.summary.interactions')} value={s.totals.interactions} />
        <Stat label={t('safetyInteractions.summary.safe')} value={s.totals.safe} />
        <Stat label={t('safetyInteractions.summary.atRisk')} value={s.totals.at_risk} />
        <Stat label={t('safetyInteractions.summary.safeShare')} value={pct(s.totals.safe_share)} />
        <Stat label={t('safetyInteractions.summary.recognition')} value={s.totals.recognition} />
        <Stat label={t('safetyInteractions.summary.planned')} value={s.totals.planned} />
        <Stat label={t('safetyInteractions.summary.plannedDone')} value={s.totals.planned_done} />
        <Stat label={t('safetyInteractions.summary.plannedMissed')} value={s.totals.planned_missed} />
      </SimpleGrid>
      {s.totals.interactions === 0 ? <Alert color="gray">{t('safetyInteractions.summary.empty')}</Alert> : null}
      <Paper withBorder p="md" radius="md" component="section">
        <Title order={2} size="h4" mb="sm">
          {t('safetyInteractions.summary.byTopic')}
        </Title>
        <Table.ScrollContainer minWidth={360}>
          <Table verticalSpacing="xs" aria-label={t('safetyInteractions.summary.byTopic')}>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>{t('safetyInteractions.fields.topic')}</Table.Th>
                <Table.Th ta="right">{t('safetyInteractions.summary.discussed')}</Table.Th>
                <Table.Th ta="right">{t('safetyInteractions.summary.safe')}</Table.Th>
                <Table.Th ta="right">{t('safetyInteractions.summary.atRisk')}</Table.Th>
                <Table.Th w="30%" visibleFrom="sm" />
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {s.by_topic.map((x) => (
                <Table.Tr key={x.topic}>
                  <Table.Td>{t(`safetyInteractions.topics.${x.topic}`)}</Table.Td>
                  <Table.Td ta="right">{x.discussed}</Table.Td>
                  <Table.Td ta="right">{x.safe}</Table.Td>
                  <Table.Td ta="right">{x.at_risk}</Table.Td>
                  <Table.Td visibleFrom="sm">
                    <Progress.Root size="md" aria-hidden>
                      <Progress.Section value={(x.safe / most) * 100} color="teal" />
                      <Progress.Section value={(x.at_risk / most) * 100} color="orange" />
                    </Progress.Root>
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Paper withBorder p="md" radius="md" component="section">
          <Title order={2} size="h4" mb="sm">
            {t('safetyInteractions.summary.bySite')}
          </Title>
          <Tally
            t={t}
            first={t('safetyInteractions.fields.site')}
            rows={s.by_site.map((x) => ({ key: x.site.id, name: x.site.name, ...x }))}
          />
        </Paper>
        <Paper withBorder p="md" radius="md" component="section">
          <Title order={2} size="h4" mb="sm">
            {t('safetyInteractions.summary.byObserver')}
          </Title>
          <Tally
            t={t}
            first={t('safetyInteractions.fields.observer')}
            rows={s.by_observer.map((x) => ({ key: x.observer.id, name: x.observer.full_name, ...x }))}
          />
        </Paper>
      </SimpleGrid>
    </Stack>
  );
}

/** /safety-interactions/summary: completed interactions of a period by topic, site and observer, safe against at-risk. */
export function SiSummary() {
  const { t } = useTranslation();
  const options = useSiOptions();
  const [from, setFrom] = useState(localDay(-89));
  const [to, setTo] = useState(localDay(0));
  const [siteId, setSiteId] = useState<string | null>(null);
  const valid = /^\d{4}-\d{2}-\d{2}$/.test(from) && /^\d{4}-\d{2}-\d{2}$/.test(to) && from <= to;
  const summary = useSummary({ from: valid ? from : localDay(-89), to: valid ? to : localDay(0), site_id: siteId });
  return (
    <Stack gap="md">
      <SiNav />
      <PageHeader title={t('safetyInteractions.nav.summary')} />
      <Group gap="sm" wrap="wrap" align="flex-end" role="group" aria-label={t('safetyInteractions.summary.period')}>
        <TextInput
          type="date"
          label={t('safetyInteractions.summary.from')}
          value={from}
          max={to}
          onChange={(e) => setFrom(e.currentTarget.value)}
          w={{ base: '100%', xs: 170 }}
        />
        <TextInput
          type="date"
          label={t('safetyInteractions.summary.to')}
          value={to}
          min={from}
          onChange={(e) => setTo(e.currentTarget.value)}
          error={valid ? undefined : t('safetyInteractions.validation.dateRange')}
          w={{ base: '100%', xs: 170 }}
        />
        <Select
          label={t('safetyInteractions.summary.site')}
          placeholder={t('safetyInteractions.list.allSites')}
          clearable
          data={(options.data?.sites ?? []).map((s) => ({ value: s.id, label: s.name }))}
          value={siteId}
          onChange={setSiteId}
          w={{ base: '100%', xs: 220 }}
        />
      </Group>
      {summary.isError ? (
        <Alert color="red" role="alert">
          {t('kit.loadFailed')}
        </Alert>
      ) : summary.data ? (
        <Figures s={summary.data} />
      ) : (
        <PageLoader />
      )}
    </Stack>
  );
}

import { formatBytes, type Incident, type IncidentFile } from '@bulwark/domain';
import { Anchor, Badge, Divider, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useFormats } from '../../ui/format.js';
import { StoredImage, useSaveLinkedFile } from '../../ui/index.js';
import { RatingBadge, RiskBadge } from './badges.js';

/** Read views of the report (step 1), shared by the step page and the printable report. */

export function Field({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <Stack gap={0} style={wide ? { gridColumn: '1 / -1' } : undefined}>
      <Text size="xs" c="dimmed" component="dt">
        {label}
      </Text>
      <Text size="sm" component="dd" m={0} style={{ overflowWrap: 'anywhere', whiteSpace: 'pre-wrap' }}>
        {children}
      </Text>
    </Stack>
  );
}

export function SectionTitle({ id, children }: { id: string; children: ReactNode }) {
  return (
    <>
      <Divider mb="xs" />
      <Title order={3} size="h5" id={id} mb={6}>
        {children}
      </Title>
    </>
  );
}

/** The reporter as the reader may see them (a guest's own name, marked as a guest). */
export function reporterText(o: Pick<Incident, 'reporter'>, t: (k: string) => string): string {
  if (!o.reporter) return '—';
  if (!o.reporter.guest) return o.reporter.full_name;
  // A guest may leave the name empty: then the record says so in words, not with an empty name.
  const name = o.reporter.full_name.trim();
  return name ? `${name} (${t('incidents.guestReporter')})` : t('incidents.unnamedGuest');
}

export function ReportFieldsView({ o }: { o: Incident }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const yesNo = (v: boolean | null) => (v === null ? '—' : t(v ? 'incidents.fields.yes' : 'incidents.fields.no'));
  return (
    <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm" component="dl" m={0}>
      <Field label={t('incidents.fields.type')}>{t(`categories.types.${o.type}`)}</Field>
      <Field label={t('incidents.fields.category')}>{o.category?.name ?? '—'}</Field>
      <Field label={t('incidents.fields.site')}>{o.site.name}</Field>
      <Field label={t('incidents.fields.area')}>{o.site_node?.full_name ?? '—'}</Field>
      <Field label={t('incidents.fields.occurredAt')}>{`${fmt.local(o.occurred_at)} (${o.site.time_zone})`}</Field>
      <Field label={t('incidents.fields.shift')}>{o.shift ? t(`incidents.shifts.${o.shift}`) : '—'}</Field>
      <Field label={t('incidents.fields.severity')}>
        <RatingBadge severity={o.severity} pending={o.rating_pending} />
      </Field>
      <Field label={t('incidents.fields.likelihood')}>{o.likelihood ? t(`incidents.likelihoods.${o.likelihood}`) : '—'}</Field>
      <Field label={t('incidents.fields.riskScore')}>
        {o.risk_score === null ? (
          '—'
        ) : (
          <Group gap={6} component="span">
            {o.risk_score} <RiskBadge level={o.risk_level} />
          </Group>
        )}
      </Field>
      <Field label={t('incidents.fields.investigationRequired')}>{yesNo(o.investigation_required)}</Field>
      <Field label={t('incidents.fields.reporter')}>{reporterText(o, t)}</Field>
      <Field label={t('incidents.fields.source')}>{t(`incidents.sources.${o.source}`)}</Field>
      <Field label={t('incidents.fields.createdAt')}>{fmt.instant(o.created_at)}</Field>
      <Field label={t('incidents.fields.oshaWorkRelated')}>{yesNo(o.osha_work_related)}</Field>
      <Field label={t('incidents.fields.description')} wide>
        {o.description}
      </Field>
      <Field label={t('incidents.fields.actionTaken')} wide>
        {o.action_taken}
      </Field>
      {o.closing_remarks ? (
        <Field label={t('incidents.fields.closingRemarks')} wide>
          {`${o.closing_remarks}${o.closed_by ? ` — ${o.closed_by.full_name}` : ''}${o.closed_at ? `, ${fmt.instant(o.closed_at)}` : ''}`}
        </Field>
      ) : null}
    </SimpleGrid>
  );
}

export function VictimsView({ o }: { o: Incident }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  return (
    <section aria-labelledby={`victims-${o.id}`}>
      <SectionTitle id={`victims-${o.id}`}>{t('incidents.fields.victims')}</SectionTitle>
      {o.victims.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('incidents.report.noVictims')}
        </Text>
      ) : (
        <Stack gap="xs">
          {o.victims.map((v) => (
            <Paper key={v.id} withBorder p="sm" radius="sm">
              <Group justify="space-between" gap="xs" mb={4} wrap="wrap">
                <Text fw={600} size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {v.name}
                  {v.employee_id ? ` · ${v.employee_id}` : ''}
                </Text>
                <Group gap={4}>
                  <Badge variant="light">{t(`incidents.victimTypes.${v.type}`)}</Badge>
                  {v.lost_time ? <Badge color="orange">{t('incidents.victim.lostTime')}</Badge> : null}
                  {v.osha?.recordable ? (
                    <Badge color="red" variant="outline">{`${t('incidents.fields.oshaRecordable')} ${v.osha.case_number ?? ''}`}</Badge>
                  ) : null}
                </Group>
              </Group>
              <SimpleGrid cols={{ base: 1, xs: 2 }} spacing={6} component="dl" m={0}>
                <Field label={t('incidents.victim.gender')}>{t(`incidents.genders.${v.gender}`)}</Field>
                <Field label={t('incidents.victim.ageRange')}>{v.age_range ? t(`incidents.ageRanges.${v.age_range}`) : '—'}</Field>
                <Field label={t('incidents.victim.bodyParts')} wide>
                  {v.body_parts.length ? v.body_parts.map((p) => t(`incidents.bodyParts.${p}`)).join(', ') : '—'}
                </Field>
                <Field label={t('incidents.victim.injuryDetails')} wide>
                  {v.injury_details ?? '—'}
                </Field>
                <Field label={t('incidents.victim.takenToHospital')}>
                  {t(v.taken_to_hospital ? 'incidents.fields.yes' : 'incidents.fields.no')}
                </Field>
                <Field label={t('incidents.victim.returnToWorkDate')}>{v.return_to_work_date ? fmt.day(v.return_to_work_date) : '—'}</Field>
                <Field label={t('incidents.victim.treatment')} wide>
                  {v.treatment ?? '—'}
                </Field>
                {v.osha ? (
                  <Field label={t('incidentsWeb.victims.oshaCase')} wide>
                    {[
                      t(`incidents.osha.injuryTypes.${v.osha.injury_type}`),
                      v.osha.classification
                        ? t(`incidents.osha.classifications.${v.osha.classification}`)
                        : t('incidentsWeb.victims.oshaNoCriterion'),
                      v.osha.days_away ? `${t('incidents.osha.fields.daysAway')}: ${v.osha.days_away}` : null,
                      v.osha.days_restricted ? `${t('incidents.osha.fields.daysRestricted')}: ${v.osha.days_restricted}` : null,
                      v.osha.privacy_case ? t('incidents.privacyCase') : null,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
                  </Field>
                ) : null}
              </SimpleGrid>
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}

export function FilesView({ files, title, id, empty }: { files: IncidentFile[]; title: string; id: string; empty: string }) {
  const { t } = useTranslation();
  const download = useSaveLinkedFile();
  return (
    <section aria-labelledby={id}>
      <SectionTitle id={id}>{title}</SectionTitle>
      {files.length === 0 ? (
        <Text size="sm" c="dimmed">
          {empty}
        </Text>
      ) : (
        <SimpleGrid cols={{ base: 2, xs: 3, md: 4 }} spacing="xs">
          {files.map((a) => (
            <Paper key={a.id} withBorder p={6} radius="sm">
              {a.mime_type.startsWith('image/') ? (
                <StoredImage url={a.url} alt={a.file_name} h={90} fit="cover" radius="sm" mb={4} />
              ) : null}
              {/* Files are served only with the session's headers: a plain link would be refused, so it downloads. */}
              <Anchor
                component="button"
                type="button"
                size="xs"
                ta="left"
                style={{ display: 'block', overflowWrap: 'anywhere' }}
                aria-label={t('observationsWeb.attachments.download', { name: a.file_name })}
                onClick={() => void download(a.url).catch(() => undefined)}
              >
                {a.file_name}
              </Anchor>
              <Text size="xs" c="dimmed">
                {formatBytes(a.size_bytes)}
              </Text>
            </Paper>
          ))}
        </SimpleGrid>
      )}
    </section>
  );
}

export function HistoryView({ o }: { o: Incident }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const label = (action: string) => {
    const key = `incidentsWeb.history.${action}`;
    const text = t(key);
    return text === key ? action : text;
  };
  return (
    <section aria-labelledby={`history-${o.id}`}>
      <SectionTitle id={`history-${o.id}`}>{t('incidents.fields.history')}</SectionTitle>
      <Stack gap={4} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
        {o.history.map((h, i) => (
          <Text key={`${h.at}-${i}`} size="sm" component="li">
            <Text span c="dimmed" size="xs">
              {fmt.instant(h.at)}
            </Text>{' '}
            {label(h.action)}
            {h.actor ? ` — ${h.actor.full_name}` : ''}
            {h.changes.length > 0 ? (
              <Text span c="dimmed" size="xs">
                {` (${h.changes
                  .map((c) => changeText(c, o, t, fmt.day))
                  .filter(Boolean)
                  .join('; ')})`}
              </Text>
            ) : null}
          </Text>
        ))}
      </Stack>
    </section>
  );
}

/** The people an incident names (its team), by id: a history names them, never shows their ids. */
function peopleOf(o: Incident): Map<string, string> {
  const inv = o.investigation;
  return new Map([...(inv.lead ? [inv.lead] : []), ...inv.members, ...inv.holders].map((p) => [p.id, p.full_name]));
}

/**
 * One change of a history entry: "Target date: 3 Dec 2026 → 10 Dec 2026", the field as the form labels
 * it; a field with no label of its own is left out rather than shown by its API name.
 */
function changeText(
  c: { field: string; from: unknown; to: unknown },
  o: Incident,
  t: TFunction,
  day: (d: string) => string,
): string | null {
  const key = `incidents.fields.${c.field.replace(/_id(s?)$/, '$1').replace(/_(\w)/g, (_, x: string) => x.toUpperCase())}`;
  const field = c.field === 'member_ids' ? t('incidents.fields.members') : t(key);
  if (field === key) return null;
  const people = peopleOf(o);
  const value = (v: unknown): string => {
    if (v === null || v === undefined || v === '') return t('actionsWeb.history.empty_value');
    if (Array.isArray(v))
      return (
        v
          .map((x) => people.get(String(x)) ?? '')
          .filter(Boolean)
          .join(', ') || String(v.length)
      );
    if (typeof v === 'boolean') return t(v ? 'incidents.fields.yes' : 'incidents.fields.no');
    const text = String(v);
    if (c.field === 'target_date') return day(text);
    if (c.field === 'lead_id') return people.get(text) ?? '—';
    if (c.field === 'investigation_state') return t(`incidents.investigationStates.${text}`, { defaultValue: text });
    if (c.field === 'status') return t(`incidents.statuses.${text}`, { defaultValue: text });
    return text.length > 60 ? `${text.slice(0, 60)}…` : text;
  };
  return t('actionsWeb.history.fieldChange', { field, from: value(c.from), to: value(c.to) });
}

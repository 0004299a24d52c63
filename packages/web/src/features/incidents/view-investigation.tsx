import { actionPath, type Incident } from '@bulwark/domain';
import { Anchor, Badge, Group, List, Paper, SimpleGrid, Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useFormats } from '../../ui/format.js';
import { Field, FilesView, SectionTitle } from './view-report.js';

/** Read views of the investigation (steps 2–7), for readers who may not edit and for the printable report. */

export function TeamView({ o }: { o: Incident }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const inv = o.investigation;
  return (
    <section aria-labelledby={`team-${o.id}`}>
      <SectionTitle id={`team-${o.id}`}>{t('incidents.steps.team')}</SectionTitle>
      <SimpleGrid cols={{ base: 1, xs: 2 }} component="dl" m={0} spacing="sm">
        <Field label={t('incidents.fields.lead')}>{inv.lead?.full_name ?? '—'}</Field>
        <Field label={t('incidents.fields.targetDate')}>{inv.target_date ? fmt.day(inv.target_date) : '—'}</Field>
        <Field label={t('incidents.fields.members')} wide>
          {inv.members.map((m) => m.full_name).join(', ') || '—'}
        </Field>
      </SimpleGrid>
    </section>
  );
}

export function FactsView({ o }: { o: Incident }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  const inv = o.investigation;
  return (
    <Stack gap="sm">
      <section aria-labelledby={`timeline-${o.id}`}>
        <SectionTitle id={`timeline-${o.id}`}>{t('incidents.fields.timeline')}</SectionTitle>
        {inv.timeline.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('incidents.report.noTimeline')}
          </Text>
        ) : (
          <Stack gap={4} component="ol" p={0} m={0} style={{ listStyle: 'none' }}>
            {inv.timeline.map((e) => (
              <Text key={e.id} size="sm" component="li" style={{ overflowWrap: 'anywhere' }}>
                <Text span c="dimmed" size="xs">
                  {fmt.local(e.at)}
                </Text>{' '}
                {e.description}
              </Text>
            ))}
          </Stack>
        )}
      </section>
      <section aria-labelledby={`witnesses-${o.id}`}>
        <SectionTitle id={`witnesses-${o.id}`}>{t('incidents.fields.witnesses')}</SectionTitle>
        {inv.witnesses.length === 0 ? (
          <Text size="sm" c="dimmed">
            {t('incidents.report.noWitnesses')}
          </Text>
        ) : (
          <Stack gap="xs">
            {inv.witnesses.map((w) => (
              <Paper key={w.id} withBorder p="xs" radius="sm">
                <Text size="sm" fw={600}>
                  {w.name}
                  {w.contact ? ` · ${w.contact}` : ''}
                </Text>
                <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
                  {w.statement}
                </Text>
              </Paper>
            ))}
          </Stack>
        )}
      </section>
      <FilesView
        files={inv.evidence}
        title={t('incidents.fields.evidence')}
        id={`evidence-${o.id}`}
        empty={t('incidents.report.noAttachments')}
      />
    </Stack>
  );
}

/** The key factors with their why-why chains and the root causes they end in. */
export function FactorsView({ o, withWhys = true }: { o: Incident; withWhys?: boolean }) {
  const { t } = useTranslation();
  const inv = o.investigation;
  return (
    <section aria-labelledby={`factors-${o.id}`}>
      <SectionTitle id={`factors-${o.id}`}>{t('incidents.fields.factors')}</SectionTitle>
      {inv.factors.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('incidents.report.noFactors')}
        </Text>
      ) : (
        <Stack gap="xs">
          {inv.factors.map((f) => (
            <Paper key={f.id} withBorder p="xs" radius="sm">
              <Group gap={6} wrap="nowrap" align="flex-start">
                <Badge variant="light" style={{ minWidth: 'max-content' }}>
                  {t(`incidents.keyFactors.${f.category}`)}
                </Badge>
                <Text size="sm" style={{ overflowWrap: 'anywhere' }}>
                  {f.description}
                </Text>
              </Group>
              {withWhys && f.whys.length > 0 ? (
                <List type="ordered" size="sm" mt={6} spacing={2}>
                  {f.whys.map((w, i) => (
                    <List.Item key={i}>{w}</List.Item>
                  ))}
                </List>
              ) : null}
              {withWhys && f.root_causes.length > 0 ? (
                <Text size="sm" mt={6}>
                  <Text span fw={600}>
                    {t('incidents.fields.rootCauses')}:
                  </Text>{' '}
                  {f.root_causes.map((r) => [...r.path, r.name].join(' › ')).join('; ')}
                </Text>
              ) : null}
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}

/** The CAPA actions with their live status, each a link to the action's own page. */
export function CapaView({ o, links = true }: { o: Incident; links?: boolean }) {
  const { t } = useTranslation();
  const fmt = useFormats();
  return (
    <section aria-labelledby={`capa-${o.id}`}>
      <SectionTitle id={`capa-${o.id}`}>{t('incidents.fields.actions')}</SectionTitle>
      {o.actions.length === 0 ? (
        <Text size="sm" c="dimmed">
          {t('incidents.report.noActions')}
        </Text>
      ) : (
        <Stack gap={6} component="ul" p={0} m={0} style={{ listStyle: 'none' }}>
          {o.actions.map((a) => (
            <Paper key={a.id} component="li" withBorder p="xs" radius="sm">
              <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
                {links ? (
                  <Anchor component={Link} to={actionPath('incident', a.id)} size="sm" style={{ overflowWrap: 'anywhere' }}>
                    {`#${a.serial} ${a.description}`}
                  </Anchor>
                ) : (
                  <Text size="sm" style={{ overflowWrap: 'anywhere' }}>{`#${a.serial} ${a.description}`}</Text>
                )}
                <Badge variant="light" size="sm" style={{ minWidth: 'max-content' }}>
                  {t(`actions.status.${a.status}`)}
                </Badge>
              </Group>
              <Text size="xs" c="dimmed" mt={2}>
                {[
                  a.capa_kind ? t(`incidents.capaKinds.${a.capa_kind}`) : null,
                  t(`actions.controlType.${a.control_type}`),
                  a.responsible?.full_name ?? '—',
                  `${t('incidents.actionColumns.dueDate')} ${fmt.day(a.due_date)}`,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </Text>
            </Paper>
          ))}
        </Stack>
      )}
    </section>
  );
}

export function RecordView({ o }: { o: Incident }) {
  const { t } = useTranslation();
  const inv = o.investigation;
  return (
    <section aria-labelledby={`record-${o.id}`}>
      <SectionTitle id={`record-${o.id}`}>{t('incidents.steps.record')}</SectionTitle>
      <SimpleGrid cols={1} component="dl" m={0} spacing="sm">
        <Field label={t('incidents.fields.conclusion')}>{inv.conclusion ?? '—'}</Field>
        <Field label={t('incidents.fields.lessonsLearned')}>{inv.lessons_learned ?? '—'}</Field>
      </SimpleGrid>
    </section>
  );
}

import { localDateTimeIn } from '@bulwark/domain';
import { Alert, Button, Grid, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useServices } from '../../app/services.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { AttachmentsField, storedAttachment, uploadedIds, uploadsPending, type AttachmentItem } from '../observations/attachments-field.js';
import { useIncidentCommands } from './incidents-api.js';
import { SectionTitle } from './view-report.js';
import { peopleOptions } from './step-team.js';
import type { StepProps } from './step-props.js';
import { FactsView } from './view-investigation.js';

type Event = { key: string; at: string; description: string };
type Witness = { key: string; user_id: string | null; name: string; statement: string; contact: string };

let counter = 0;
const key = () => `r${(counter += 1)}`;

/** Step 3: the timeline of events, the witnesses and their statements, and the evidence. */
export function StepFacts({ incident: o, formData, onSaved }: StepProps) {
  const { t } = useTranslation();
  const services = useServices();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const inv = o.investigation;
  const [events, setEvents] = useState<Event[]>(() =>
    inv.timeline.length
      ? inv.timeline.map((e) => ({ key: key(), at: e.at, description: e.description }))
      : [{ key: key(), at: o.occurred_at, description: '' }],
  );
  const [witnesses, setWitnesses] = useState<Witness[]>(() =>
    inv.witnesses.map((w) => ({ key: key(), user_id: w.user?.id ?? null, name: w.name, statement: w.statement, contact: w.contact ?? '' })),
  );
  const [files, setFiles] = useState<AttachmentItem[]>(() =>
    inv.evidence.map((a) =>
      storedAttachment({
        id: a.id,
        file_name: a.file_name,
        size: a.size_bytes,
        content_type: a.mime_type,
        thumbnail_url: a.mime_type.startsWith('image/') ? a.url : null,
      }),
    ),
  );
  const people = peopleOptions(formData.users);
  const now = localDateTimeIn(o.site.time_zone, new Date(services.now()));
  const err = (path: string) => form.errors[path];

  if (!o.permissions.edit_investigation) return <FactsView o={o} />;

  async function save(e: FormEvent) {
    e.preventDefault();
    if (uploadsPending(files)) return;
    await form.run(async () => {
      await commands.facts(o.id, {
        timeline: events.map((x) => ({ at: x.at, description: x.description })),
        witnesses: witnesses.map((w) => ({ name: w.name, user_id: w.user_id, statement: w.statement, contact: w.contact })),
        evidence_ids: uploadedIds(files),
      });
      notifySuccess(t('incidentsWeb.steps.saved'));
      onSaved();
    });
  }

  const setEvent = (k: string, change: Partial<Event>) => setEvents((xs) => xs.map((x) => (x.key === k ? { ...x, ...change } : x)));
  const setWitness = (k: string, change: Partial<Witness>) => setWitnesses((xs) => xs.map((x) => (x.key === k ? { ...x, ...change } : x)));

  return (
    <form onSubmit={(e) => void save(e)} noValidate aria-busy={form.busy}>
      <Stack gap="sm">
        {form.message ? (
          <Alert color="red" role="alert">
            {form.message}
          </Alert>
        ) : null}
        <section aria-labelledby="facts-timeline">
          <SectionTitle id="facts-timeline">{t('incidents.fields.timeline')}</SectionTitle>
          <Stack gap="xs">
            {events.map((ev, i) => (
              <Paper key={ev.key} withBorder p="xs" radius="sm" role="group" aria-label={t('incidentsWeb.facts.event', { n: i + 1 })}>
                <Grid gap="xs">
                  <Grid.Col span={{ base: 12, sm: 4 }}>
                    <TextInput
                      type="datetime-local"
                      label={t('incidents.timeline.at')}
                      withAsterisk
                      max={now}
                      value={ev.at}
                      onChange={(e) => setEvent(ev.key, { at: e.currentTarget.value })}
                      error={err(`timeline.${i}.at`)}
                    />
                  </Grid.Col>
                  <Grid.Col span={{ base: 12, sm: 8 }}>
                    <Textarea
                      label={t('incidents.timeline.description')}
                      withAsterisk
                      autosize
                      minRows={1}
                      maxLength={2000}
                      value={ev.description}
                      onChange={(e) => setEvent(ev.key, { description: e.currentTarget.value })}
                      error={err(`timeline.${i}.description`)}
                    />
                  </Grid.Col>
                </Grid>
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  mt={4}
                  onClick={() => setEvents((xs) => xs.filter((x) => x.key !== ev.key))}
                >
                  {t('incidentsWeb.facts.removeEvent', { n: i + 1 })}
                </Button>
              </Paper>
            ))}
            <Button variant="light" w="fit-content" onClick={() => setEvents((xs) => [...xs, { key: key(), at: '', description: '' }])}>
              {t('incidentsWeb.facts.addEvent')}
            </Button>
          </Stack>
        </section>
        <section aria-labelledby="facts-witnesses">
          <SectionTitle id="facts-witnesses">{t('incidents.fields.witnesses')}</SectionTitle>
          <Stack gap="xs">
            {witnesses.length === 0 ? (
              <Text size="sm" c="dimmed">
                {t('incidents.report.noWitnesses')}
              </Text>
            ) : null}
            {witnesses.map((w, i) => (
              <Paper key={w.key} withBorder p="xs" radius="sm" role="group" aria-label={t('incidentsWeb.facts.witness', { n: i + 1 })}>
                <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
                  <Select
                    label={t('incidentsWeb.facts.member')}
                    clearable
                    searchable
                    data={people}
                    value={w.user_id}
                    onChange={(v) =>
                      setWitness(w.key, { user_id: v, name: v ? (formData.users.find((u) => u.id === v)?.full_name ?? w.name) : w.name })
                    }
                    comboboxProps={{ withinPortal: true }}
                  />
                  <TextInput
                    label={t('incidents.witness.name')}
                    withAsterisk
                    maxLength={100}
                    value={w.name}
                    onChange={(e) => setWitness(w.key, { name: e.currentTarget.value })}
                    error={err(`witnesses.${i}.name`)}
                  />
                </SimpleGrid>
                <Textarea
                  label={t('incidents.witness.statement')}
                  withAsterisk
                  autosize
                  minRows={2}
                  maxLength={4000}
                  mt="xs"
                  value={w.statement}
                  onChange={(e) => setWitness(w.key, { statement: e.currentTarget.value })}
                  error={err(`witnesses.${i}.statement`)}
                />
                <TextInput
                  label={t('incidents.witness.contact')}
                  maxLength={200}
                  mt="xs"
                  value={w.contact}
                  onChange={(e) => setWitness(w.key, { contact: e.currentTarget.value })}
                  error={err(`witnesses.${i}.contact`)}
                />
                <Button
                  size="compact-xs"
                  variant="subtle"
                  color="red"
                  mt={4}
                  onClick={() => setWitnesses((xs) => xs.filter((x) => x.key !== w.key))}
                >
                  {t('incidentsWeb.facts.removeWitness', { n: i + 1 })}
                </Button>
              </Paper>
            ))}
            <Button
              variant="light"
              w="fit-content"
              onClick={() => setWitnesses((xs) => [...xs, { key: key(), user_id: null, name: '', statement: '', contact: '' }])}
            >
              {t('incidentsWeb.facts.addWitness')}
            </Button>
          </Stack>
        </section>
        <section aria-labelledby="facts-evidence">
          <SectionTitle id="facts-evidence">{t('incidents.fields.evidence')}</SectionTitle>
          <AttachmentsField
            label={t('incidents.fields.evidence')}
            items={files}
            onChange={setFiles}
            maxFiles={20}
            upload={async (file, onProgress) => (await commands.upload(file, onProgress, { incidentId: o.id })).id}
            error={err('evidence_ids')}
          />
        </section>
        <Group justify="flex-end">
          <Button type="submit" loading={form.busy} disabled={uploadsPending(files)}>
            {t('incidentsWeb.steps.save')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

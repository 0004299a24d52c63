import { SI_DURATION_MAX, SI_TOPICS, siLocalDateTime, siSerial, type SiStatus, type SiTopic } from '@bulwark/domain';
import {
  Alert,
  Button,
  Chip,
  Group,
  NumberInput,
  Paper,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from '@mantine/core';
import { useMemo, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useProfile } from '../../app/use-profile.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { PageHeader, PageLoader, RecordLoadFailed, useConfirm } from '../../ui/index.js';
import { AgreedActionList, AgreedActionRows } from './agreed-actions.js';
import { BehaviourRows } from './behaviour-rows.js';
import { checkForm, emptyForm, formOf, type FormState } from './form-model.js';
import { PeopleRows } from './people-rows.js';
import { PeoplePicker } from './people-picker.js';
import { useInteraction, useSchedules, useSiCommands, useSiOptions } from './safety-interactions-api.js';
import { formatDay } from './si-format.js';
import { SiNav } from './si-nav.js';

/** /safety-interactions/new and /safety-interactions/edit/:id: who, where and when, what was discussed and seen, what was agreed. */
export function SiForm({ id }: { id: string | null }) {
  const { t, i18n } = useTranslation();
  const commands = useSiCommands();
  const navigate = useNavigate();
  const profile = useProfile();
  const [params] = useSearchParams();
  const form = useFormSubmit();
  const [confirm, dialog] = useConfirm();
  const options = useSiOptions();
  const existing = useInteraction(id);
  const [edited, setEdited] = useState<FormState | null>(null);

  const planId = id ? null : params.get('schedule');
  const plans = useSchedules({ status: undefined }, planId !== null);
  const plan = plans.data?.schedules.find((s) => s.id === planId) ?? null;

  const meId = profile?.user.id;
  const meName = profile?.user.full_name;
  const me = useMemo(() => (meId && meName !== undefined ? { id: meId, full_name: meName } : null), [meId, meName]);
  const loaded = existing.data ?? null;
  // A plan opened from the schedule fills in its observer and site.
  const start = useMemo(() => {
    if (id) return loaded ? formOf(loaded) : null;
    if (planId && !plans.data) return null;
    const f = emptyForm(plan?.observer ?? me);
    return plan ? { ...f, site_id: plan.site.id, schedule_id: plan.id, held_at: siLocalDateTime(plan.site.time_zone) } : f;
  }, [id, loaded, planId, plans.data, plan, me]);
  const values = edited ?? start;

  const sites = options.data?.sites ?? [];
  const site =
    sites.find((s) => s.id === values?.site_id) ?? (loaded && loaded.site.id === values?.site_id ? { ...loaded.site, areas: [] } : null);
  const sitePlans = useSchedules({ site_id: values?.site_id ?? undefined }, !!values?.site_id);

  const title = id
    ? t('safetyInteractions.form.editTitle', { serial: loaded ? siSerial(loaded.serial) : '' })
    : t('safetyInteractions.form.newTitle');
  if (id && existing.isError) {
    return (
      <RecordLoadFailed
        title={title}
        error={existing.error}
        notFoundText={t('safetyInteractions.form.notFound')}
        backTo="/safety-interactions"
        backLabel={t('safetyInteractions.form.back')}
      />
    );
  }
  if (!values || options.isLoading) return <PageLoader />;
  const f = values;
  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setEdited((prev) => ({ ...(prev ?? f), [key]: value }));
  const readOnly = loaded ? !loaded.can_edit : false;
  const completed = loaded?.status === 'completed';
  const minDue = site ? siLocalDateTime(site.time_zone).slice(0, 10) : undefined;
  const planOptions = (sitePlans.data?.schedules ?? [])
    .filter((s) => s.status !== 'done' || s.id === f.schedule_id)
    .map((s) => ({ value: s.id, label: `${formatDay(s.planned_date, i18n.language)} · ${s.observer?.full_name ?? '—'}` }));

  function setTopics(next: SiTopic[]) {
    // Behaviours stay filed only under topics still discussed.
    setEdited((prev) => {
      const cur = prev ?? f;
      const keep = (rows: FormState['safe']) => rows.map((r) => (r.topic && !next.includes(r.topic) ? { ...r, topic: null } : r));
      return { ...cur, topics: next, safe: keep(cur.safe), atRisk: keep(cur.atRisk) };
    });
  }

  async function save(status: SiStatus) {
    const checked = checkForm(f, status, t);
    if (form.refuse(checked.errors) || !checked.body) return;
    const body = checked.body;
    await form.run(async () => {
      if (id) {
        await commands.update(id, body);
        notifySuccess(t('safetyInteractions.form.saved'));
      } else {
        const created = await commands.create(body);
        notifySuccess(t('safetyInteractions.form.created', { serial: siSerial(created.serial) }));
      }
      await commands.refresh();
      void navigate('/safety-interactions');
    });
  }

  async function remove() {
    if (!loaded) return;
    const ok = await confirm({
      title: t('safetyInteractions.list.confirmDeleteTitle', { serial: siSerial(loaded.serial) }),
      message: t('safetyInteractions.list.confirmDeleteBody'),
      confirmLabel: t('safetyInteractions.list.delete'),
      danger: true,
    });
    if (!ok) return;
    await form.run(async () => {
      await commands.remove(loaded.id, { notify: false });
      notifySuccess(t('safetyInteractions.list.deleted'));
      await commands.refresh();
      void navigate('/safety-interactions');
    });
  }

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    void save(completed ? 'completed' : 'draft');
  };

  return (
    <Stack maw={900} gap="md">
      <SiNav />
      <PageHeader
        title={title}
        actions={
          loaded ? (
            <Button component={Link} to={`/safety-interactions/${loaded.id}/report`} variant="default">
              {t('safetyInteractions.list.report')}
            </Button>
          ) : null
        }
      />
      <form onSubmit={onSubmit} noValidate>
        <fieldset disabled={readOnly || form.busy} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
          <Stack gap="md">
            {readOnly ? <Alert color="yellow">{t('safetyInteractions.form.readOnly')}</Alert> : null}
            {completed && !readOnly ? <Alert color="blue">{t('safetyInteractions.form.completedNote')}</Alert> : null}
            {form.message ? (
              <Alert color="red" role="alert">
                {form.message}
              </Alert>
            ) : null}

            <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="section">
              <Title order={2} size="h4" mb="sm">
                {t('safetyInteractions.form.where')}
              </Title>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <Select
                  label={t('safetyInteractions.fields.site')}
                  withAsterisk
                  searchable
                  data={sites.map((s) => ({ value: s.id, label: s.name }))}
                  value={f.site_id}
                  onChange={(v) =>
                    setEdited((prev) => {
                      const cur = prev ?? f;
                      // Until the person sets the time, it follows the chosen site's clock.
                      const zone = sites.find((s) => s.id === v)?.time_zone;
                      const held_at = !cur.held_at_touched && zone ? siLocalDateTime(zone) : cur.held_at;
                      return { ...cur, site_id: v, area_id: null, schedule_id: null, held_at };
                    })
                  }
                  error={form.errors['site_id']}
                  nothingFoundMessage={t('kit.noResults')}
                  comboboxProps={{ withinPortal: true }}
                />
                <Select
                  label={t('safetyInteractions.fields.area')}
                  searchable
                  clearable
                  data={(site?.areas ?? []).map((a) => ({ value: a.id, label: a.full_name }))}
                  value={f.area_id}
                  onChange={(v) => set('area_id', v)}
                  error={form.errors['area_id']}
                  nothingFoundMessage={t('kit.noResults')}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label={t('safetyInteractions.fields.location')}
                  maxLength={200}
                  value={f.location}
                  onChange={(e) => set('location', e.currentTarget.value)}
                  error={form.errors['location']}
                />
                <Select
                  label={t('safetyInteractions.fields.schedule')}
                  clearable
                  placeholder={t('safetyInteractions.form.noSchedule')}
                  data={planOptions}
                  value={f.schedule_id}
                  onChange={(v) => set('schedule_id', v)}
                  error={form.errors['schedule_id']}
                  comboboxProps={{ withinPortal: true }}
                />
                <TextInput
                  label={t('safetyInteractions.fields.heldAt')}
                  withAsterisk
                  type="datetime-local"
                  max={site ? siLocalDateTime(site.time_zone) : undefined}
                  value={f.held_at}
                  onChange={(e) => setEdited((prev) => ({ ...(prev ?? f), held_at: e.currentTarget.value, held_at_touched: true }))}
                  description={site ? t('safetyInteractions.form.siteTime', { zone: site.time_zone }) : undefined}
                  error={form.errors['held_at']}
                />
                <NumberInput
                  label={t('safetyInteractions.fields.duration')}
                  withAsterisk
                  min={1}
                  max={SI_DURATION_MAX}
                  allowDecimal={false}
                  allowNegative={false}
                  value={f.duration}
                  onChange={(v) => set('duration', String(v))}
                  error={form.errors['duration_minutes']}
                />
              </SimpleGrid>
            </Paper>

            <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="section">
              <Title order={2} size="h4" mb="sm">
                {t('safetyInteractions.form.who')}
              </Title>
              <Stack gap="sm">
                <PeoplePicker
                  label={t('safetyInteractions.fields.observer')}
                  required
                  value={f.observer?.id ?? null}
                  current={f.observer}
                  onChange={(_, person) => set('observer', person)}
                  error={form.errors['observer_id']}
                />
                <PeopleRows rows={f.participants} onChange={(rows) => set('participants', rows)} errors={form.errors} disabled={readOnly} />
                <TextInput
                  label={t('safetyInteractions.fields.crew')}
                  maxLength={200}
                  value={f.crew}
                  onChange={(e) => set('crew', e.currentTarget.value)}
                  error={form.errors['crew']}
                />
              </Stack>
            </Paper>

            <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="section">
              <Title order={2} size="h4" mb="sm">
                {t('safetyInteractions.form.what')}
              </Title>
              <Stack gap="md">
                <Stack gap={6} role="group" aria-label={t('safetyInteractions.fields.topics')}>
                  <Text fw={600} size="sm">
                    {t('safetyInteractions.fields.topics')}
                  </Text>
                  <Chip.Group multiple value={f.topics} onChange={(v) => setTopics(SI_TOPICS.filter((x) => v.includes(x)))}>
                    <Group gap={6}>
                      {SI_TOPICS.map((x) => (
                        <Chip key={x} value={x} size="sm">
                          {t(`safetyInteractions.topics.${x}`)}
                        </Chip>
                      ))}
                    </Group>
                  </Chip.Group>
                  {form.errors['topics'] ? (
                    <Text c="red" size="sm" role="alert">
                      {form.errors['topics']}
                    </Text>
                  ) : null}
                  {f.topics.length === 0 ? (
                    <Text size="xs" c="dimmed">
                      {t('safetyInteractions.form.chooseTopicsFirst')}
                    </Text>
                  ) : null}
                </Stack>
                <BehaviourRows
                  kind="safe_behaviours"
                  label={t('safetyInteractions.fields.safeBehaviours')}
                  addLabel={t('safetyInteractions.form.addSafe')}
                  rows={f.safe}
                  topics={f.topics}
                  onChange={(rows) => set('safe', rows)}
                  errors={form.errors}
                  disabled={readOnly}
                />
                <BehaviourRows
                  kind="at_risk_behaviours"
                  label={t('safetyInteractions.fields.atRiskBehaviours')}
                  addLabel={t('safetyInteractions.form.addAtRisk')}
                  rows={f.atRisk}
                  topics={f.topics}
                  onChange={(rows) => set('atRisk', rows)}
                  errors={form.errors}
                  disabled={readOnly}
                />
                <Switch
                  label={t('safetyInteractions.fields.recognition')}
                  checked={f.recognition}
                  onChange={(e) => set('recognition', e.currentTarget.checked)}
                />
                <Textarea
                  label={t('safetyInteractions.fields.comment')}
                  autosize
                  minRows={2}
                  maxLength={2000}
                  value={f.comment}
                  onChange={(e) => set('comment', e.currentTarget.value)}
                  error={form.errors['comment']}
                />
              </Stack>
            </Paper>

            <Paper withBorder p={{ base: 'sm', sm: 'lg' }} radius="md" component="section">
              <Title order={2} size="h4" mb="sm">
                {t('safetyInteractions.form.agreed')}
              </Title>
              <Stack gap="sm">
                {loaded ? (
                  <>
                    <Text fw={600} size="sm">
                      {t('safetyInteractions.form.existingActions')}
                    </Text>
                    <AgreedActionList actions={loaded.actions} />
                  </>
                ) : null}
                <AgreedActionRows
                  rows={f.actions}
                  onChange={(rows) => set('actions', rows)}
                  errors={form.errors}
                  minDate={minDue ?? ''}
                  disabled={readOnly}
                />
              </Stack>
            </Paper>

            <Group justify="space-between" wrap="wrap" gap="xs">
              <Group gap="xs">
                {loaded?.can_delete ? (
                  <Button color="red" variant="subtle" onClick={() => void remove()}>
                    {t('safetyInteractions.list.delete')}
                  </Button>
                ) : null}
              </Group>
              <Group gap="xs" wrap="wrap">
                <Button component={Link} to="/safety-interactions" variant="default">
                  {t('safetyInteractions.form.cancel')}
                </Button>
                {completed ? (
                  <Button type="submit" loading={form.busy}>
                    {t('safetyInteractions.form.save')}
                  </Button>
                ) : (
                  <>
                    <Button type="submit" variant="light" loading={form.busy}>
                      {t('safetyInteractions.form.saveDraft')}
                    </Button>
                    <Button loading={form.busy} onClick={() => void save('completed')}>
                      {t('safetyInteractions.form.complete')}
                    </Button>
                  </>
                )}
              </Group>
            </Group>
          </Stack>
        </fieldset>
      </form>
      {dialog}
    </Stack>
  );
}

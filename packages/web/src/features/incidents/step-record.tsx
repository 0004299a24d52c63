import { Alert, Button, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useConfirm } from '../../ui/index.js';
import { ReviewPanel } from '../workflows/review-panel.js';
import { CloseDialog, SendReport } from './communicate.js';
import { useIncidentCommands } from './incidents-api.js';
import type { StepProps } from './step-props.js';
import { RecordView } from './view-investigation.js';
import { SectionTitle } from './view-report.js';

/**
 * Step 7: the conclusion and lessons learned, submitting for review, the review itself (the reviewers
 * whose turn it is decide here), closing, and sending the report to the people chosen.
 */
export function StepRecord({ incident: o, formData }: StepProps) {
  const { t } = useTranslation();
  const commands = useIncidentCommands();
  const form = useFormSubmit();
  const [confirm, dialog] = useConfirm();
  const [conclusion, setConclusion] = useState(o.investigation.conclusion ?? '');
  const [lessons, setLessons] = useState(o.investigation.lessons_learned ?? '');
  const [closing, setClosing] = useState(false);
  const submitForm = useFormSubmit();
  const perms = o.permissions;
  const inv = o.investigation;
  const working = inv.state === 'in_progress' || inv.state === 'returned' || inv.state === 'awaiting_team';

  async function save(e: FormEvent) {
    e.preventDefault();
    await form.run(async () => {
      await commands.record(o.id, { conclusion, lessons_learned: lessons });
      notifySuccess(t('incidentsWeb.steps.saved'));
    });
  }

  async function submit() {
    if (
      !(await confirm({
        title: t('incidentsWeb.record.submitTitle'),
        message: t('incidentsWeb.record.submitConfirm'),
        confirmLabel: t('incidentsWeb.record.submit'),
      }))
    )
      return;
    await submitForm.run(async () => {
      await commands.submit(o.id);
      notifySuccess(t('incidentsWeb.record.submitted'));
    });
  }

  return (
    <Stack gap="md">
      {o.investigation_required ? (
        perms.edit_investigation ? (
          <form onSubmit={(e) => void save(e)} noValidate aria-busy={form.busy}>
            <Stack gap="xs">
              {form.message ? (
                <Alert color="red" role="alert">
                  {form.message}
                </Alert>
              ) : null}
              <Textarea
                label={t('incidents.fields.conclusion')}
                withAsterisk
                autosize
                minRows={3}
                maxLength={4000}
                value={conclusion}
                onChange={(e) => setConclusion(e.currentTarget.value)}
                error={form.errors['conclusion']}
              />
              <Textarea
                label={t('incidents.fields.lessonsLearned')}
                autosize
                minRows={2}
                maxLength={4000}
                value={lessons}
                onChange={(e) => setLessons(e.currentTarget.value)}
                error={form.errors['lessons_learned']}
              />
              <Group justify="flex-end">
                <Button type="submit" variant="default" loading={form.busy}>
                  {t('incidentsWeb.record.save')}
                </Button>
              </Group>
            </Stack>
          </form>
        ) : (
          <RecordView o={o} />
        )
      ) : null}

      {o.investigation_required && working && (perms.submit || perms.submit_blocked_by.length > 0) ? (
        <Stack gap="xs">
          <SectionTitle id="record-submit">{t('incidentsWeb.record.submitTitle')}</SectionTitle>
          {perms.submit_blocked_by.length > 0 ? (
            <Alert color="yellow" title={t('incidentsWeb.record.missing')}>
              <List size="sm">
                {perms.submit_blocked_by.map((k) => (
                  <List.Item key={k}>{t(k)}</List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
          {submitForm.message ? (
            <Alert color="red" role="alert">
              {submitForm.message}
            </Alert>
          ) : null}
          {perms.submit ? (
            <Group>
              <Button onClick={() => void submit()} loading={submitForm.busy}>
                {t('incidentsWeb.record.submit')}
              </Button>
            </Group>
          ) : null}
        </Stack>
      ) : null}

      {o.investigation_required ? <ReviewPanel review={inv.review} onDecide={(decision) => commands.decide(o.id, decision)} /> : null}

      {o.status === 'closed' || perms.close || perms.close_blocked_by ? (
        <Stack gap="xs">
          <SectionTitle id="record-close">{t('incidentsWeb.close.title')}</SectionTitle>
          {o.status === 'closed' ? (
            <Text size="sm">
              {t('incidentsWeb.close.closed', { remarks: o.closing_remarks ?? '', name: o.closed_by?.full_name ?? '' })}
            </Text>
          ) : perms.close ? (
            <Group>
              <Button color="teal" onClick={() => setClosing(true)}>
                {t('incidentsWeb.close.button')}
              </Button>
            </Group>
          ) : (
            <Text size="sm" c="dimmed">
              {t(perms.close_blocked_by ?? '')}
            </Text>
          )}
        </Stack>
      ) : null}

      <SendReport incident={o} formData={formData} />
      <CloseDialog incident={o} opened={closing} onClose={() => setClosing(false)} />
      {dialog}
    </Stack>
  );
}

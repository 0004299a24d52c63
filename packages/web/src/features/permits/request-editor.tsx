import type { Permit, PermitForm, Worker } from '@bulwark/domain';
import { Alert, Button, Group, Modal, Paper, SegmentedControl, Stack, Text, Textarea } from '@mantine/core';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { PageHeader } from '../../ui/index.js';
import { AnswerFiles } from './answer-files.js';
import { ClashList } from './clash-list.js';
import { GuidedTour, TourStop } from './guided-tour.js';
import { PermitFormSections } from './permit-form-sections.js';
import { usePermitCommands } from './permits-api.js';
import { requestBody, stepOf, submitProblems, uploadsPending, type RequestState, type RequestStep } from './request-model.js';
import { ShareDialog } from './share-dialog.js';
import { SubmitReview } from './submit-review.js';
import { WorkersStep } from './workers-step.js';

const STEPS: RequestStep[] = ['workers', 'form', 'submit'];
const FILES_RULE = { kinds: ['image', 'pdf', 'document', 'video'] as const, max_files: 20, max_file_kb: 10 * 1024 };

type Props = { form: PermitForm; permit: Permit | null; initial: RequestState; initialWorkers: Worker[] };

/**
 * The request flow for a phone at the work site (spec 001 §2): workers, the form, then submit, each a
 * step that can be visited in any order; a draft is saved at any point, shared with a colleague, and
 * submitted after a confirmation that shows any clash the server found.
 */
export function RequestEditor({ form, permit, initial, initialWorkers }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [search, setSearch] = useSearchParams();
  const commands = usePermitCommands();
  const [state, setState] = useState<RequestState>(initial);
  const [workers, setWorkers] = useState<Worker[]>(initialWorkers);
  const [step, setStep] = useState<RequestStep>('workers');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState<'save' | 'share' | 'submit' | null>(null);
  // A new request saved in order to be shared arrives here as a draft with ?share=1: the dialog opens.
  const [sharing, setSharing] = useState(() => permit !== null && search.get('share') === '1');
  const [confirming, setConfirming] = useState<Permit | null>(null);

  useEffect(() => {
    if (search.has('share')) setSearch({}, { replace: true });
  }, [search, setSearch]);

  const pending = uploadsPending(state.answers, state.attachments);
  const body = () => requestBody({ ...state, worker_ids: workers.map((w) => w.id) });

  /** Shows a refusal: field texts under their fields (and the step that holds the first), the rest above. */
  function refused(error: unknown) {
    if (isApiError(error) && Object.keys(error.fields).length > 0) {
      setErrors(error.fields);
      setStep(stepOf(Object.keys(error.fields)[0]!));
      setMessage(t('permitsWeb.request.fixFields'));
    } else setMessage(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
  }

  /** Saves the draft (creating it the first time) and answers it as the server now holds it. */
  async function save(): Promise<Permit> {
    if (permit) return commands.update(permit.id, body());
    return (await commands.create({ template_id: form.template.id, ...body() })).permit;
  }

  async function run(kind: 'save' | 'share' | 'submit') {
    setMessage(null);
    setErrors({});
    if (pending) {
      setMessage(t('permitsWeb.request.waitUploads'));
      return;
    }
    if (kind === 'submit') {
      const problems = submitProblems({ ...state, worker_ids: workers.map((w) => w.id) }, form.sections);
      if (Object.keys(problems).length > 0) {
        setErrors(Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, t(v)])));
        setStep(stepOf(Object.keys(problems)[0]!));
        setMessage(t('permitsWeb.request.fixFields'));
        return;
      }
    }
    setBusy(kind);
    try {
      const saved = await save();
      if (kind === 'submit') setConfirming(saved);
      else if (kind === 'share') {
        if (permit) setSharing(true);
        else navigate(`/permit-form-questions/edit/${saved.id}?share=1`, { replace: true });
      } else {
        notifySuccess(t('permitsWeb.request.saved', { number: saved.number }));
        if (!permit) navigate(`/permit-form-questions/edit/${saved.id}`, { replace: true });
      }
    } catch (error) {
      refused(error);
    } finally {
      setBusy(null);
    }
  }

  async function submit(draft: Permit) {
    setBusy('submit');
    try {
      const sent = await commands.submit(draft.id);
      setConfirming(null);
      notifySuccess(t('permitsWeb.request.submitted', { number: sent.number }));
      navigate(`/permit/${sent.id}/summary`);
    } catch (error) {
      setConfirming(null);
      refused(error);
      if (!permit) navigate(`/permit-form-questions/edit/${draft.id}`, { replace: true });
    } finally {
      setBusy(null);
    }
  }

  const at = STEPS.indexOf(step);
  const title = permit
    ? t('permitsWeb.request.editTitle', { number: permit.number, type: form.template.name })
    : t('permitsWeb.request.newTitle', { type: form.template.name });

  return (
    <GuidedTour tourKey="request_permit" count={3}>
      <Stack gap="md" maw={760} pb={80}>
        <PageHeader title={title} description={form.template.description} />
        {permit && permit.shared_with.length > 0 ? (
          <Text size="sm" c="dimmed">
            {t('permitsWeb.request.sharedNote', {
              requester: permit.requester.full_name,
              names: permit.shared_with.map((p) => p.full_name).join(', '),
            })}
          </Text>
        ) : null}
        <TourStop index={0} title={t('permitsWeb.tour.request.stepsTitle')} text={t('permitsWeb.tour.request.steps')}>
          <SegmentedControl
            fullWidth
            value={step}
            onChange={(v) => setStep(v as RequestStep)}
            aria-label={t('permitsWeb.request.steps')}
            data={STEPS.map((s, i) => ({ value: s, label: `${i + 1}. ${t(`permitsWeb.request.step.${s}`)}` }))}
          />
        </TourStop>
        {message ? (
          <Alert color="red" role="alert">
            {message}
          </Alert>
        ) : null}

        {step === 'workers' ? (
          <WorkersStep workers={workers} onChange={setWorkers} error={errors['worker_ids']} />
        ) : step === 'form' ? (
          <Stack gap="md">
            <PermitFormSections
              sections={form.sections}
              phase="request"
              state={state}
              onChange={setState}
              errors={errors}
              sites={form.sites}
              masters={form.masters}
              upload={commands.uploadAttachment}
              defaultHours={form.template.default_hours}
            />
            <Paper withBorder radius="md" p={{ base: 'sm', sm: 'md' }}>
              <Stack gap="sm">
                <Textarea
                  label={t('permits.fields.description')}
                  autosize
                  minRows={3}
                  value={state.description}
                  onChange={(e) => {
                    const description = e.currentTarget.value;
                    setState((s) => ({ ...s, description }));
                  }}
                  error={errors['description']}
                />
                <AnswerFiles
                  label={t('permitsWeb.request.attachments')}
                  required={false}
                  rule={FILES_RULE}
                  items={state.attachments}
                  onChange={(update) => setState((s) => ({ ...s, attachments: update(s.attachments) }))}
                  upload={commands.uploadAttachment}
                  error={errors['attachment_ids']}
                />
              </Stack>
            </Paper>
          </Stack>
        ) : (
          <SubmitReview
            form={form}
            state={state}
            workers={workers}
            problems={submitProblems({ ...state, worker_ids: workers.map((w) => w.id) }, form.sections)}
            onGo={(field) => setStep(stepOf(field))}
          />
        )}

        <Paper
          withBorder
          p="xs"
          radius="md"
          shadow="sm"
          style={{ position: 'sticky', bottom: 8, zIndex: 5 }}
          component="nav"
          aria-label={t('permitsWeb.request.actions')}
        >
          <Group justify="space-between" gap="xs" wrap="wrap">
            <Group gap="xs">
              <TourStop index={1} title={t('permitsWeb.tour.request.draftTitle')} text={t('permitsWeb.tour.request.draft')}>
                <Button variant="default" onClick={() => void run('save')} loading={busy === 'save'} disabled={busy !== null}>
                  {t('permitsWeb.request.saveDraft')}
                </Button>
              </TourStop>
              <Button variant="subtle" onClick={() => void run('share')} loading={busy === 'share'} disabled={busy !== null}>
                {t('permitsWeb.request.share')}
              </Button>
            </Group>
            <TourStop index={2} title={t('permitsWeb.tour.request.submitTitle')} text={t('permitsWeb.tour.request.submit')}>
              {at < STEPS.length - 1 ? (
                <Button onClick={() => setStep(STEPS[at + 1]!)}>{t('permitsWeb.request.next')}</Button>
              ) : (
                <Button onClick={() => void run('submit')} loading={busy === 'submit'} disabled={busy !== null && busy !== 'submit'}>
                  {t('permits.commands.submit')}
                </Button>
              )}
            </TourStop>
          </Group>
        </Paper>
      </Stack>
      {permit ? <ShareDialog permit={permit} opened={sharing} onClose={() => setSharing(false)} /> : null}
      <SubmitConfirm draft={confirming} busy={busy === 'submit'} onCancel={() => setConfirming(null)} onSubmit={(d) => void submit(d)} />
    </GuidedTour>
  );
}

/** "Submit the form" is confirmed (spec 001 §10), with the clashes the server found in plain sight. */
function SubmitConfirm(props: { draft: Permit | null; busy: boolean; onCancel: () => void; onSubmit: (d: Permit) => void }) {
  const { t } = useTranslation();
  const d = props.draft;
  return (
    <Modal opened={d !== null} onClose={props.onCancel} title={t('permitsWeb.request.confirmTitle')} centered>
      {d ? (
        <Stack gap="sm">
          <Text size="sm">{t('permitsWeb.request.confirmText', { number: d.number })}</Text>
          <ClashList clashes={d.clashes} links={false} />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={props.onCancel}>
              {t('common.cancel')}
            </Button>
            <Button
              color={d.clashes.length > 0 ? 'orange' : undefined}
              onClick={() => props.onSubmit(d)}
              loading={props.busy}
              data-autofocus
            >
              {d.clashes.length > 0 ? t('permitsWeb.request.submitAnyway') : t('permits.commands.submit')}
            </Button>
          </Group>
        </Stack>
      ) : null}
    </Modal>
  );
}

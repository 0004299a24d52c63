import type { Permit } from '@bulwark/domain';
import { Alert, Button, Checkbox, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { PermitFormSections } from './permit-form-sections.js';
import { usePermitCommands } from './permits-api.js';
import { EMPTY_REQUEST, answersFromPermit, answersToSend, submitProblems, uploadsPending, type RequestState } from './request-model.js';

type Refusal = { message: string | null; fields: Record<string, string> };

function refusalOf(error: unknown, fallback: string): Refusal {
  if (!isApiError(error)) return { message: fallback, fields: {} };
  const hasFields = Object.keys(error.fields).length > 0;
  return { message: hasFields ? null : error.message, fields: error.fields };
}

/**
 * A decision with a comment: approve (optional), reject and revoke (the reason is required, spec 001
 * §5). Each is a confirmation of its own: nothing is sent until its button is pressed.
 */
export function CommentDialog(props: {
  opened: boolean;
  title: string;
  text: string;
  label: string;
  confirmLabel: string;
  required: boolean;
  danger?: boolean;
  onClose: () => void;
  onSend: (comment: string) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>({ message: null, fields: {} });
  const close = () => {
    setComment('');
    setRefusal({ message: null, fields: {} });
    props.onClose();
  };
  async function send() {
    if (props.required && comment.trim() === '') {
      setRefusal({ message: null, fields: { comment: t('permits.validation.commentRequired') } });
      return;
    }
    setBusy(true);
    try {
      await props.onSend(comment.trim());
      close();
    } catch (error) {
      setRefusal(refusalOf(error, t('errors.somethingWentWrong')));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={props.opened} onClose={close} title={props.title} centered>
      <Stack gap="sm">
        <Text size="sm">{props.text}</Text>
        {refusal.message ? (
          <Alert color="red" role="alert">
            {refusal.message}
          </Alert>
        ) : null}
        <Textarea
          label={props.label}
          withAsterisk={props.required}
          autosize
          minRows={3}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          error={refusal.fields['comment']}
          data-autofocus
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={close}>
            {t('common.cancel')}
          </Button>
          <Button color={props.danger ? 'red' : undefined} onClick={() => void send()} loading={busy}>
            {props.confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** An extension request: the template's declaration, confirmed by the requester (spec 001 §3). */
export function ExtensionDialog({ permit, opened, onClose }: { permit: Permit; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = usePermitCommands();
  const [agreed, setAgreed] = useState(false);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>({ message: null, fields: {} });
  const declaration = permit.template.extension_declaration;
  async function send() {
    if (!agreed) {
      setRefusal({ message: null, fields: { agreed: t('permitsWeb.extension.mustAgree') } });
      return;
    }
    setBusy(true);
    try {
      await commands.requestExtension(permit.id, declaration);
      notifySuccess(t('permitsWeb.extension.sent'));
      onClose();
    } catch (error) {
      setRefusal(refusalOf(error, t('errors.somethingWentWrong')));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title={t('permitsWeb.extension.title', { number: permit.number })} centered>
      <Stack gap="sm">
        <Text size="sm">{t('permitsWeb.extension.help', { count: permit.template.extension_hours })}</Text>
        {refusal.message ? (
          <Alert color="red" role="alert">
            {refusal.message}
          </Alert>
        ) : null}
        <Text
          size="sm"
          p="sm"
          bg="gray.0"
          style={{ borderRadius: 6, whiteSpace: 'pre-wrap' }}
          aria-label={t('permitsWeb.extension.declaration')}
        >
          {declaration}
        </Text>
        <Checkbox
          label={t('permitsWeb.extension.agree')}
          checked={agreed}
          onChange={(e) => setAgreed(e.currentTarget.checked)}
          error={refusal.fields['agreed'] ?? refusal.fields['declaration']}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void send()} loading={busy}>
            {t('permits.commands.request_extension')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

/** Closing: the closure checklist of the permit's form (its required answers) and a remark. */
export function CloseDialog({ permit, opened, onClose }: { permit: Permit; opened: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const commands = usePermitCommands();
  const [state, setState] = useState<RequestState>(EMPTY_REQUEST);
  const [comment, setComment] = useState('');
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<Refusal>({ message: null, fields: {} });
  const requestAnswers = answersToSend(answersFromPermit(permit.sections, permit.answers));
  async function send() {
    setRefusal({ message: null, fields: {} });
    if (uploadsPending(state.answers)) {
      setRefusal({ message: t('permitsWeb.request.waitUploads'), fields: {} });
      return;
    }
    // Only the checklist's own answers are checked here: the permit's fields were checked on submitting.
    const problems = Object.fromEntries(
      Object.entries(submitProblems(state, permit.sections, 'closure')).filter(([k]) => k.startsWith('answers.')),
    );
    if (Object.keys(problems).length > 0) {
      setRefusal({
        message: t('permitsWeb.request.fixFields'),
        fields: Object.fromEntries(Object.entries(problems).map(([k, v]) => [k, t(v)])),
      });
      return;
    }
    setBusy(true);
    try {
      await commands.close(permit.id, answersToSend(state.answers), comment.trim());
      notifySuccess(t('permitsWeb.close.done', { number: permit.number }));
      onClose();
    } catch (error) {
      setRefusal(refusalOf(error, t('errors.somethingWentWrong')));
    } finally {
      setBusy(false);
    }
  }
  return (
    <Modal opened={opened} onClose={onClose} title={t('permitsWeb.close.title', { number: permit.number })} size="lg">
      <Stack gap="sm">
        <Text size="sm">{t('permitsWeb.close.help')}</Text>
        {refusal.message ? (
          <Alert color="red" role="alert">
            {refusal.message}
          </Alert>
        ) : null}
        <PermitFormSections
          sections={permit.sections}
          phase="closure"
          state={state}
          onChange={setState}
          errors={refusal.fields}
          sites={[]}
          masters={null}
          upload={(file, progress) => commands.uploadClosureAttachment(permit.id, file, progress)}
          defaultHours={8}
          otherAnswers={requestAnswers}
        />
        <Textarea
          label={t('permitsWeb.close.remark')}
          autosize
          minRows={2}
          value={comment}
          onChange={(e) => setComment(e.currentTarget.value)}
          error={refusal.fields['comment']}
        />
        <Group justify="flex-end" gap="xs">
          <Button variant="default" onClick={onClose}>
            {t('common.cancel')}
          </Button>
          <Button onClick={() => void send()} loading={busy}>
            {t('permits.commands.close')}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

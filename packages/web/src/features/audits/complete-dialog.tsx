import { AUDIT_REMARK_MAX, type Audit, type AuditForm } from '@bulwark/domain';
import { Alert, Anchor, Button, Checkbox, Group, List, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';
import { useAuditCommands } from './audits-api.js';
import { ScoreText } from './badges.js';
import { orderedSections, type LiveState } from './run-model.js';

/**
 * "Complete" asks before it sends (spec 001: complete is confirmed): every required question shown
 * must be answered (each missing one is named with a link to its section), every answer saved, and the
 * template's declaration accepted. The audit then goes to its review.
 */
export function CompleteDialog(props: {
  audit: Audit;
  form: AuditForm;
  live: LiveState;
  unsaved: number;
  opened: boolean;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const commands = useAuditCommands();
  const submit = useFormSubmit();
  const [accepted, setAccepted] = useState(false);
  const [comment, setComment] = useState('');
  const sections = orderedSections(props.form);
  // What the server still finds unanswered when it refuses (`answers.<question id>`), with what the screen finds.
  const refused = Object.keys(submit.errors).flatMap((k) => (k.startsWith('answers.') ? [k.slice('answers.'.length)] : []));
  const missing = [...new Set([...props.live.progress.missing_required, ...refused])].map((id) => {
    const index = sections.findIndex((s) => s.questions.some((q) => q.id === id));
    return { id, index: index + 1, label: sections[index]?.questions.find((q) => q.id === id)?.label ?? '' };
  });
  const declaration = props.form.declaration;
  /** Closing forgets a refusal: the answers may have changed before the dialog opens again. */
  const close = () => {
    submit.refuse(null);
    props.onClose();
  };
  const blocked = props.live.progress.missing_required.length > 0 || props.unsaved > 0;

  async function send(e: FormEvent) {
    e.preventDefault();
    if (submit.refuse(declaration && !accepted ? { declaration_accepted: t('audits.validation.declarationRequired') } : null)) return;
    await submit.run(async () => {
      await commands.complete(props.audit.id, { comment: comment.trim() || null, declaration_accepted: accepted });
      notifySuccess(t('auditsWeb.complete.done', { serial: props.audit.serial_label }));
      props.onClose();
      navigate(`/audits/${props.audit.id}/summary`);
    });
  }

  return (
    <Modal opened={props.opened} onClose={close} title={t('auditsWeb.complete.title')} centered>
      <form onSubmit={(e) => void send(e)} noValidate>
        <Stack gap="sm">
          <ScoreText {...props.live.score} size="md" />
          {missing.length > 0 ? (
            <Alert color="orange" role="alert" title={t('auditsWeb.complete.missing', { count: missing.length })}>
              <List size="sm" spacing={2}>
                {missing.map((m) => (
                  <List.Item key={m.id}>
                    <Anchor component={Link} to={`/audits/${props.audit.id}/audit/${m.index}`} onClick={close} size="sm">
                      {m.label}
                    </Anchor>
                  </List.Item>
                ))}
              </List>
            </Alert>
          ) : null}
          {props.unsaved > 0 ? (
            <Alert color="orange" role="alert">
              {t('auditsWeb.complete.unsaved', { count: props.unsaved })}
            </Alert>
          ) : null}
          {submit.message ? (
            <Alert color="red" role="alert">
              {submit.message}
            </Alert>
          ) : null}
          {!blocked ? <Text size="sm">{t('auditsWeb.complete.body')}</Text> : null}
          {declaration ? (
            <Checkbox
              label={declaration}
              checked={accepted}
              onChange={(e) => setAccepted(e.currentTarget.checked)}
              error={submit.errors['declaration_accepted']}
              disabled={blocked}
            />
          ) : null}
          <Textarea
            label={t('auditsWeb.complete.comment')}
            autosize
            minRows={2}
            maxLength={AUDIT_REMARK_MAX}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            disabled={blocked}
            error={submit.errors['comment']}
          />
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color="teal" loading={submit.busy} disabled={blocked}>
              {t('auditsWeb.complete.confirm')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

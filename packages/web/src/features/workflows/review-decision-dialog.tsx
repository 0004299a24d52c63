import { REVIEW_COMMENT_MAX, type ReviewDecision } from '@bulwark/domain';
import { Alert, Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { notifySuccess } from '../../app/notify.js';
import { useFormSubmit } from '../../ui/forms/use-form-submit.js';

/**
 * The confirmation of a decision: it says what approving or rejecting does, takes the comment (the
 * reason, required, for a rejection) and sends only when confirmed. A refusal stays in the dialog.
 */
export function ReviewDecisionDialog({
  approve,
  onClose,
  onDecide,
}: {
  /** null: closed. */
  approve: boolean | null;
  onClose: () => void;
  onDecide: (decision: ReviewDecision) => Promise<unknown>;
}) {
  const { t } = useTranslation();
  const form = useFormSubmit();
  const [comment, setComment] = useState('');
  const rejecting = approve === false;

  function close() {
    setComment('');
    form.refuse(null);
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const text = comment.trim();
    if (form.refuse(rejecting && !text ? { comment: t('reviews.validation.reasonRequired') } : null)) return;
    await form.run(async () => {
      await onDecide({ approve: !rejecting, comment: text || null });
      notifySuccess(t(rejecting ? 'reviews.actions.rejected' : 'reviews.actions.approved'));
      close();
    });
  }

  return (
    <Modal
      opened={approve !== null}
      onClose={close}
      title={t(rejecting ? 'reviews.actions.rejectTitle' : 'reviews.actions.approveTitle')}
      centered
    >
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack gap="sm">
          <Text size="sm">{t(rejecting ? 'reviews.actions.rejectBody' : 'reviews.actions.approveBody')}</Text>
          {form.message ? (
            <Alert color="red" role="alert">
              {form.message}
            </Alert>
          ) : null}
          <Textarea
            label={t(rejecting ? 'reviews.actions.reason' : 'reviews.actions.comment')}
            withAsterisk={rejecting}
            autosize
            minRows={3}
            maxLength={REVIEW_COMMENT_MAX}
            value={comment}
            onChange={(e) => setComment(e.currentTarget.value)}
            error={form.errors['comment']}
            data-autofocus
          />
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={close}>
              {t('common.cancel')}
            </Button>
            <Button type="submit" color={rejecting ? 'red' : undefined} loading={form.busy}>
              {t(rejecting ? 'reviews.actions.confirmReject' : 'reviews.actions.confirmApprove')}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

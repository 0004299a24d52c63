import type { Permit } from '@bulwark/domain';
import { Button, Group } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { isApiError } from '../../api/api-error.js';
import { notifyError, notifySuccess } from '../../app/notify.js';
import { useConfirm } from '../../ui/index.js';
import { CloseDialog, CommentDialog, ExtensionDialog } from './command-dialogs.js';
import { usePermitCommands } from './permits-api.js';
import { QrDialog } from './qr-dialog.js';
import { ShareDialog } from './share-dialog.js';

type Open = 'approve' | 'reject' | 'revoke' | 'extend' | 'close' | 'share' | 'qr' | null;

/**
 * Exactly the moves the viewer may make on this permit (the server's `abilities`), each confirmed
 * before anything is sent; a move that needs a reason or a checklist asks for it in its dialog.
 */
export function SummaryActions({ permit: p }: { permit: Permit }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const commands = usePermitCommands();
  const [confirm, confirmDialog] = useConfirm();
  const [open, setOpen] = useState<Open>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const a = p.abilities;
  const extension = a.decision === 'extension';

  async function act(name: string, ask: string, run: () => Promise<unknown>, done: string, danger = false) {
    if (!(await confirm({ message: ask, danger }))) return;
    setBusy(name);
    try {
      await run();
      if (done) notifySuccess(done);
    } catch (error) {
      notifyError(isApiError(error) ? error.message : t('errors.somethingWentWrong'));
    } finally {
      setBusy(null);
    }
  }

  const buttons = [
    a.edit ? (
      <Button key="edit" component={Link} to={`/permit-form-questions/edit/${p.id}`}>
        {t('kit.edit')}
      </Button>
    ) : null,
    a.submit ? (
      <Button
        key="submit"
        loading={busy === 'submit'}
        onClick={() =>
          void act(
            'submit',
            t('permitsWeb.summary.submitConfirm'),
            () => commands.submit(p.id),
            t('permitsWeb.request.submitted', { number: p.number }),
          )
        }
      >
        {t('permits.commands.submit')}
      </Button>
    ) : null,
    a.share ? (
      <Button key="share" variant="default" onClick={() => setOpen('share')}>
        {t('permitsWeb.request.share')}
      </Button>
    ) : null,
    a.approve ? (
      <Button key="approve" color="teal" onClick={() => setOpen('approve')}>
        {t(
          extension
            ? 'permits.commands.approve_extension'
            : a.decision === 'settle'
              ? 'permits.commands.settle_extension'
              : 'permits.commands.approve',
        )}
      </Button>
    ) : null,
    a.reject ? (
      <Button key="reject" color="red" variant="light" onClick={() => setOpen('reject')}>
        {t(extension ? 'permits.commands.reject_extension' : 'permits.commands.reject')}
      </Button>
    ) : null,
    a.request_extension ? (
      <Button key="extend" variant="default" onClick={() => setOpen('extend')}>
        {t('permits.commands.request_extension')}
      </Button>
    ) : null,
    a.close ? (
      <Button key="close" variant="default" onClick={() => setOpen('close')}>
        {t('permits.commands.close')}
      </Button>
    ) : null,
    a.revoke ? (
      <Button key="revoke" color="red" variant="light" onClick={() => setOpen('revoke')}>
        {t('permits.commands.revoke')}
      </Button>
    ) : null,
    a.clone ? (
      <Button
        key="clone"
        variant="default"
        loading={busy === 'clone'}
        onClick={() =>
          void act(
            'clone',
            t('permitsWeb.summary.cloneConfirm', { number: p.number }),
            async () => navigate(`/permit-form-questions/edit/${await commands.clone(p.id)}`),
            t('permitsWeb.summary.cloned'),
          )
        }
      >
        {t('permitsWeb.summary.clone')}
      </Button>
    ) : null,
    a.export_pdf ? (
      <Button
        key="pdf"
        variant="default"
        loading={busy === 'pdf'}
        onClick={() => {
          setBusy('pdf');
          void commands.downloadPdf(p.id).finally(() => setBusy(null));
        }}
      >
        {t('permitsWeb.summary.exportPdf')}
      </Button>
    ) : null,
    p.status_url ? (
      <Button key="qr" variant="default" onClick={() => setOpen('qr')}>
        {t('permitsWeb.summary.qr')}
      </Button>
    ) : null,
    a.delete ? (
      <Button
        key="delete"
        color="red"
        variant="subtle"
        loading={busy === 'delete'}
        onClick={() =>
          void act(
            'delete',
            t('permitsWeb.summary.deleteConfirm', { number: p.number }),
            async () => {
              await commands.remove(p.id);
              navigate('/permits');
            },
            t('kit.deleted'),
            true,
          )
        }
      >
        {t('kit.delete')}
      </Button>
    ) : null,
  ].filter(Boolean);

  return (
    <>
      <Group gap="xs" wrap="wrap" role="toolbar" aria-label={t('permitsWeb.summary.actions')}>
        {buttons}
        <Button component={Link} to="/permits" variant="subtle">
          {t('common.back')}
        </Button>
      </Group>
      {confirmDialog}
      <CommentDialog
        opened={open === 'approve'}
        title={t(extension ? 'permits.commands.approve_extension' : 'permits.commands.approve')}
        text={t(extension ? 'permitsWeb.summary.approveExtensionText' : 'permitsWeb.summary.approveText', { number: p.number })}
        label={t('permitsWeb.summary.comment')}
        confirmLabel={t('permits.commands.approve')}
        required={false}
        onClose={() => setOpen(null)}
        onSend={(c) => commands.approve(p.id, c).then(() => notifySuccess(t('permitsWeb.summary.approved')))}
      />
      <CommentDialog
        opened={open === 'reject'}
        title={t(extension ? 'permits.commands.reject_extension' : 'permits.commands.reject')}
        text={t('permitsWeb.summary.rejectText', { number: p.number })}
        label={t('permitsWeb.summary.reason')}
        confirmLabel={t('permits.commands.reject')}
        required
        danger
        onClose={() => setOpen(null)}
        onSend={(c) => commands.reject(p.id, c).then(() => notifySuccess(t('permitsWeb.summary.rejected')))}
      />
      <CommentDialog
        opened={open === 'revoke'}
        title={t('permits.commands.revoke')}
        text={t('permitsWeb.summary.revokeText', { number: p.number })}
        label={t('permitsWeb.summary.reason')}
        confirmLabel={t('permits.commands.revoke')}
        required
        danger
        onClose={() => setOpen(null)}
        onSend={(c) => commands.revoke(p.id, c).then(() => notifySuccess(t('permitsWeb.summary.revoked')))}
      />
      {open === 'extend' ? <ExtensionDialog permit={p} opened onClose={() => setOpen(null)} /> : null}
      {open === 'close' ? <CloseDialog permit={p} opened onClose={() => setOpen(null)} /> : null}
      {a.share ? <ShareDialog permit={p} opened={open === 'share'} onClose={() => setOpen(null)} /> : null}
      {open === 'qr' ? <QrDialog permit={p} onClose={() => setOpen(null)} /> : null}
    </>
  );
}

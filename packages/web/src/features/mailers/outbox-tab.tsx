import type { MailOutboxItem } from '@bulwark/domain';
import { Alert, Badge, Button, Modal, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DataTable, type Column } from '../../ui/index.js';
import { OUTBOX_STATUS_COLOR, useOutbox } from './mailers-api.js';

const PER_PAGE = 25;

/** The Outbox tab of /mailers: every message of the organisation, newest first, readable without SMTP. */
export function OutboxTab() {
  const { t, i18n } = useTranslation();
  const [page, setPage] = useState(1);
  const [open, setOpen] = useState<MailOutboxItem | null>(null);
  const query = useOutbox(page, PER_PAGE);
  const when = (iso: string | null) => (iso ? new Date(iso).toLocaleString(i18n.language) : '—');
  const status = (m: MailOutboxItem) => (
    <Badge color={OUTBOX_STATUS_COLOR[m.status]} variant="light">
      {t(`mailers.outbox.statuses.${m.status}`)}
    </Badge>
  );

  const columns: Column<MailOutboxItem>[] = [
    { key: 'created', header: t('mailers.outbox.createdAt'), render: (m) => when(m.created_at), width: 170 },
    { key: 'to', header: t('mailers.outbox.to'), render: (m) => m.to },
    {
      key: 'subject',
      header: t('mailers.outbox.subject'),
      render: (m) => (
        <Button
          variant="subtle"
          size="compact-sm"
          px={0}
          onClick={() => setOpen(m)}
          aria-label={`${t('mailers.outbox.show')}: ${m.subject}`}
          styles={{ label: { whiteSpace: 'normal', textAlign: 'left' } }}
        >
          {m.subject}
        </Button>
      ),
    },
    { key: 'status', header: t('mailers.outbox.status'), render: status },
    { key: 'attempts', header: t('mailers.outbox.attempts'), render: (m) => m.attempts, hideOnPhone: true },
    { key: 'sent', header: t('mailers.outbox.sentAt'), render: (m) => when(m.sent_at), hideOnPhone: true },
  ];

  return (
    <Stack>
      {query.data ? (
        <Alert color={query.data.smtp_enabled ? 'blue' : 'yellow'} role="status">
          {t(query.data.smtp_enabled ? 'mailers.outbox.smtpOn' : 'mailers.outbox.smtpOff')}
        </Alert>
      ) : null}
      <DataTable
        columns={columns}
        rows={query.data?.mails}
        rowKey={(m) => m.id}
        loading={query.isFetching}
        error={query.isError}
        emptyText={t('mailers.outbox.empty')}
        pagination={query.data?.pagination}
        onPage={setPage}
        caption={t('mailers.outbox.title')}
      />
      <Modal opened={open !== null} onClose={() => setOpen(null)} title={open?.subject} size="lg">
        {open ? (
          <Stack gap="xs">
            <Text size="sm">
              <b>{t('mailers.outbox.to')}:</b> {open.to}
            </Text>
            <Text size="sm">
              <b>{t('mailers.outbox.status')}:</b> {status(open)} · {t('mailers.outbox.attempts')}: {open.attempts}
            </Text>
            <Text size="sm">
              <b>{t('mailers.outbox.createdAt')}:</b> {when(open.created_at)} · <b>{t('mailers.outbox.sentAt')}:</b> {when(open.sent_at)}
            </Text>
            {open.last_error ? (
              <Alert color="red" title={t('mailers.outbox.lastError')}>
                {open.last_error}
              </Alert>
            ) : null}
            <Text component="pre" size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', fontFamily: 'inherit' }}>
              {open.body}
            </Text>
          </Stack>
        ) : null}
      </Modal>
    </Stack>
  );
}

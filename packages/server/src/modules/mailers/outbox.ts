import type { MailOutboxResponse } from '@bulwark/domain';
import { count, desc } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { mailOutbox } from '../../platform/db/schema.js';
import { pageWindow, pagination } from '../../platform/http/list.js';

/**
 * Sign-in links (password reset, activation: /password-reset/<token>) let whoever holds them take over
 * the account. A message the mail server delivers (or will) is its recipient's alone, so the outbox
 * hides the token. A message kept without SMTP is shown whole (the outbox is then the only way it
 * reaches anyone: the demo case), except another person's password-reset link: an admin may read the
 * invitations they sent, but never take over an existing account.
 */
export function outboxBody(body: string, status: 'pending' | 'sent' | 'failed' | 'kept', forViewer = true): string {
  const hideAll = status !== 'kept';
  return body.replace(
    /(\/password-reset\/)([^\s?#]+)(\?activate=1)?/g,
    (link, prefix: string, _token: string, activate: string | undefined) =>
      hideAll || (!activate && !forViewer) ? `${prefix}••••••${activate ?? ''}` : link,
  );
}

/** GET /api/mail_outbox: the organisation's messages, newest first, as `viewerEmail` may read them. */
export async function listOutbox(
  tx: Tx,
  q: { page: number; per_page: number },
  viewerEmail: string,
  smtpEnabled: boolean,
): Promise<MailOutboxResponse> {
  const { limit, offset } = pageWindow(q);
  const rows = await tx.select().from(mailOutbox).orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id)).limit(limit).offset(offset);
  const [total] = await tx.select({ n: count() }).from(mailOutbox);
  return {
    mails: rows.map((m) => ({
      id: m.id,
      to: m.toAddress,
      subject: m.subject,
      body: outboxBody(m.body, m.status, m.toAddress.toLowerCase() === viewerEmail.toLowerCase()),
      status: m.status,
      attempts: m.attempts,
      last_error: m.lastError,
      created_at: m.createdAt.toISOString(),
      sent_at: m.sentAt?.toISOString() ?? null,
    })),
    pagination: pagination(Number(total?.n ?? 0), q.page, q.per_page),
    smtp_enabled: smtpEnabled,
  };
}

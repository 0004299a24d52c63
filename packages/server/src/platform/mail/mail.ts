import { and, eq, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db, Tx } from '../db/db.js';
import { mailOutbox } from '../db/schema.js';

export const MAIL_QUEUE = 'mail-deliver';

export type Mail = {
  /** Writes the message in the caller's transaction; nothing is sent unless that commits. */
  enqueue: (tx: Tx, message: { to: string; subject: string; body: string }) => Promise<string>;
  /** Job handler: delivers one outbox message over SMTP. */
  deliver: (data: Record<string, unknown>) => Promise<void>;
  smtpEnabled: boolean;
};

/**
 * Every e-mail is first a row in the outbox. With SMTP_URL set a job delivers it (and retries); without
 * it the message stays in the outbox as "kept", readable by an administrator, so nothing is lost in a demo.
 */
export function createMail(deps: { owner: Db; smtpUrl: string | null; from: string; log: (m: string) => void }): Mail {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  return {
    smtpEnabled: transport !== null,
    async enqueue(tx, message) {
      const [row] = await tx
        .insert(mailOutbox)
        .values({ toAddress: message.to, subject: message.subject, body: message.body, status: transport ? 'pending' : 'kept' })
        .returning({ id: mailOutbox.id });
      if (!transport) deps.log(`mail kept in the outbox (no SMTP_URL): to ${message.to}: ${message.subject}\n${message.body}`);
      return row!.id;
    },
    async deliver(data) {
      if (!transport) return;
      const organizationId = String(data['organizationId']);
      const id = String(data['id']);
      // The owner connection: this runs outside any request, for whichever organisation queued it.
      const [row] = await deps.owner
        .select()
        .from(mailOutbox)
        .where(and(eq(mailOutbox.organizationId, organizationId), eq(mailOutbox.id, id)));
      if (!row || row.status === 'sent') return;
      try {
        await transport.sendMail({ from: deps.from, to: row.toAddress, subject: row.subject, text: row.body });
        await deps.owner
          .update(mailOutbox)
          .set({ status: 'sent', sentAt: new Date(), attempts: sql`${mailOutbox.attempts} + 1` })
          .where(and(eq(mailOutbox.organizationId, organizationId), eq(mailOutbox.id, id)));
      } catch (err) {
        await deps.owner
          .update(mailOutbox)
          .set({ status: 'failed', lastError: String(err), attempts: sql`${mailOutbox.attempts} + 1` })
          .where(and(eq(mailOutbox.organizationId, organizationId), eq(mailOutbox.id, id)));
        throw err; // pg-boss retries with back-off
      }
    },
  };
}

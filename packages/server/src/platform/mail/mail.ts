import { and, eq, inArray, sql } from 'drizzle-orm';
import nodemailer from 'nodemailer';
import type { Db, Tx } from '../db/db.js';
import { files, mailOutbox } from '../db/schema.js';

export const MAIL_QUEUE = 'mail-deliver';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

export type MailMessage = { to: string; subject: string; body: string; attachmentFileIds?: readonly string[] };
export type OutboxRow = { toAddress: string; subject: string; body: string; status: 'pending' | 'kept'; attachmentFileIds: string[] };

export type Mail = {
  /**
   * Writes the message in the caller's transaction; nothing is sent unless that commits. Stored files
   * named in `attachmentFileIds` are attached when it is delivered.
   */
  enqueue: (tx: Tx, message: MailMessage) => Promise<string>;
  /**
   * The outbox row `enqueue` writes (and its log line), for a caller that writes it within a statement
   * of its own: mailers/send.ts writes it with the in-app notification.
   */
  outboxRow: (message: MailMessage) => OutboxRow;
  /** Job handler: delivers one outbox message over SMTP. */
  deliver: (data: Record<string, unknown>) => Promise<void>;
  smtpEnabled: boolean;
};

/**
 * Every e-mail is first a row in the outbox. With SMTP_URL set a job delivers it (and retries); without
 * it the message stays in the outbox as "kept", readable by an administrator, so nothing is lost in a demo.
 */
export function createMail(deps: {
  owner: Db;
  smtpUrl: string | null;
  from: string;
  log: (m: string) => void;
  /** Reads a stored file's bytes (storage.open) for attachments; without it attachments are left out. */
  openFile?: (storageKey: string) => NodeJS.ReadableStream;
}): Mail {
  const transport = deps.smtpUrl ? nodemailer.createTransport(deps.smtpUrl) : null;
  const outboxRow = (message: MailMessage): OutboxRow => {
    if (!transport) deps.log(`mail kept in the outbox (no SMTP_URL): to ${message.to}: ${message.subject}\n${message.body}`);
    return {
      toAddress: message.to,
      subject: message.subject,
      body: message.body,
      status: transport ? 'pending' : 'kept',
      attachmentFileIds: [...(message.attachmentFileIds ?? [])],
    };
  };
  return {
    smtpEnabled: transport !== null,
    async enqueue(tx, message) {
      const [row] = await tx.insert(mailOutbox).values(outboxRow(message)).returning({ id: mailOutbox.id });
      return row!.id;
    },
    outboxRow,
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
      // Attachments still stored when the mail goes; one removed meanwhile is left out.
      const attached =
        row.attachmentFileIds.length > 0 && deps.openFile
          ? await deps.owner
              .select({ fileName: files.fileName, mimeType: files.mimeType, storageKey: files.storageKey })
              .from(files)
              .where(and(eq(files.organizationId, organizationId), inArray(files.id, row.attachmentFileIds)))
          : [];
      const open = deps.openFile;
      const attachments = [];
      if (open) {
        for (const f of attached)
          attachments.push({ filename: f.fileName, contentType: f.mimeType, content: await readAll(open(f.storageKey)) });
      }
      try {
        await transport.sendMail({
          from: deps.from,
          to: row.toAddress,
          subject: row.subject,
          text: row.body,
          ...(attachments.length > 0 ? { attachments } : {}),
        });
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

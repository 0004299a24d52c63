import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMail } from '../src/platform/mail/mail.js';
import { createTestApp, type TestApp } from './helpers.js';
import { createIncident, incidentWorld, report, step, type World } from './incidents-support.js';

/** The report mailed with its PDF, delivered by the real nodemailer transport to an SMTP server in this process. */
const received: string[] = [];
const smtp = new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS', 'AUTH'],
  logger: false,
  onData(stream, _session, callback) {
    const chunks: Buffer[] = [];
    stream.on('data', (c: Buffer) => chunks.push(c));
    stream.on('end', () => {
      received.push(Buffer.concat(chunks).toString('latin1'));
      callback();
    });
  },
});

let t: TestApp;
let w: World;

beforeAll(async () => {
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp();
  // As runtime.ts wires it when SMTP_URL is set: delivery reads attachments from the file storage.
  t.deps.mail = createMail({
    owner: t.deps.db.owner,
    smtpUrl: `smtp://127.0.0.1:${port}`,
    from: 'ehs@bulwark.test',
    log: () => {},
    openFile: t.deps.storage.open,
  });
  w = await incidentWorld(t, 'incmail');
}, 120_000);
afterAll(async () => {
  await t?.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('sending the incident report', () => {
  it('attaches the PDF to the delivered mail', async () => {
    const { id, serial_label } = await createIncident(t, w.people.reporter.s, report(w, { investigation_required: false }));
    await step(t, w.people.manager.s, 'POST', `/api/incidents/${id}/send_report`, { emails: ['board@example.com'] });
    const { rows } = await t.deps.db.ownerPool.query<{ id: string; attachment_file_ids: string[] }>(
      `select id, attachment_file_ids from mail_outbox where organization_id = $1 and to_address = 'board@example.com'`,
      [w.org.id],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]!.attachment_file_ids).toHaveLength(1);
    await t.deps.mail.deliver({ organizationId: w.org.id, id: rows[0]!.id });
    const message = received.find((m) => m.includes('board@example.com'))!;
    expect(message).toMatch(/Content-Type: application\/pdf/i);
    expect(message).toContain(`${serial_label}.pdf`);
    const status = await t.deps.db.ownerPool.query<{ status: string }>('select status from mail_outbox where id = $1', [rows[0]!.id]);
    expect(status.rows[0]!.status).toBe('sent');
  });
});

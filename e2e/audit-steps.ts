import pg from 'pg';
import { PgBoss } from 'pg-boss';
import { expect } from 'vitest';
import type { RunningServer } from './support.js';

/** What the audit journey reads and moves outside the browser: the clock of a schedule, and the outbox. */

async function withOwner<T>(server: RunningServer, run: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: server.ownerUrl });
  await c.connect();
  try {
    return await run(c);
  } finally {
    await c.end();
  }
}

/**
 * Time moves forward to the first due date of the template's schedule: its start moves back to
 * yesterday (UTC, so that it is due today or earlier in every site's time zone), then the hourly job
 * is queued on pg-boss, where the server's own worker runs it as it would at five past the hour.
 */
export async function runSchedulesJobOnStartDay(server: RunningServer, templateName: string) {
  await withOwner(server, async (c) => {
    const moved = await c.query(
      `update audit_schedules s set start_date = (now() at time zone 'utc')::date - 1
       from audit_templates t
       where t.id = s.template_id and t.organization_id = s.organization_id and t.name = $1`,
      [templateName],
    );
    expect(moved.rowCount).toBe(1);
  });
  const boss = new PgBoss({ connectionString: server.ownerUrl, supervise: false, schedule: false });
  await boss.start();
  try {
    await boss.send('audits-schedule-sweep', {});
  } finally {
    await boss.stop({ graceful: true, timeout: 5_000 });
  }
}

export type SentMail = { subject: string; body: string; attachments: Array<{ file_name: string; mime_type: string; size_bytes: number }> };

/** The newest mail to `to` with its stored attachments (what an SMTP server would have received). */
export async function latestMailWithAttachments(server: RunningServer, to: string): Promise<SentMail | null> {
  return withOwner(server, async (c) => {
    const { rows } = await c.query<{ subject: string; body: string; attachment_file_ids: string[] }>(
      'select subject, body, attachment_file_ids from mail_outbox where to_address = $1 order by created_at desc limit 1',
      [to],
    );
    const mail = rows[0];
    if (!mail) return null;
    const files = await c.query<{ file_name: string; mime_type: string; size_bytes: string }>(
      'select file_name, mime_type, size_bytes from files where id = any($1::uuid[])',
      [mail.attachment_file_ids],
    );
    return {
      subject: mail.subject,
      body: mail.body,
      attachments: files.rows.map((f) => ({ file_name: f.file_name, mime_type: f.mime_type, size_bytes: Number(f.size_bytes) })),
    };
  });
}

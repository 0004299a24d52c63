import type { PushChannel, WebhookSubject } from '@bulwark/domain';
import { sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';

/**
 * Where webhook events come from (docs/modules.md, "Webhooks"): the push events modules already emit
 * after each commit (`deps.push.toOrganization(org, { channel, change, id })`), heard in one place (the
 * bus hook of platform/push). A channel listed here becomes the events `<subject>.created`, `.updated`
 * and `.status_changed`; no module is edited to be heard.
 *
 * The status that tells "status changed" is read from the channel's own table (`id` and `status`,
 * under row-level security); test/webhooks-sources.test.ts holds each table to that shape and each
 * path to a mounted route, so a rename fails a test rather than the webhooks.
 */
export type WebhookSource = {
  subject: WebhookSubject;
  /** The table of the records (its `status` column is the record's status). */
  table: string;
  /** The API path that reads one record, with `{id}`: what a receiver calls back with its token. */
  path: string;
};

export const WEBHOOK_SOURCES: Partial<Record<PushChannel, WebhookSource>> = {
  observations: { subject: 'observation', table: 'observations', path: '/api/observations/{id}' },
  incidents: { subject: 'incident', table: 'incidents', path: '/api/incidents/{id}' },
  actions: { subject: 'action', table: 'actions', path: '/api/actions/{id}' },
  permits: { subject: 'permit', table: 'permits', path: '/api/permit_requests/{id}' },
  audits: { subject: 'audit', table: 'audits', path: '/api/v2/audits/{id}' },
};

/** The record's status now, or null when it is gone (read in the organisation's transaction). */
export async function currentStatus(tx: Tx, source: WebhookSource, id: string): Promise<string | null> {
  const result = await tx.execute<{ status: string | null }>(
    sql`select status::text as status from ${sql.identifier(source.table)} where id = ${id}`,
  );
  return result.rows[0]?.status ?? null;
}

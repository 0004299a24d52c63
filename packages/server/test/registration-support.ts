/**
 * For tests and the browser journey only: the latest sign-up code e-mailed to an address, read from the
 * outbox (where mail waits when no SMTP server is configured). `client` is any owner connection
 * (pg.Client or pg.Pool): the outbox row belongs to the platform tenant, behind the tenant wall.
 */
export async function latestSignUpCode(
  client: { query: (text: string, values: unknown[]) => Promise<{ rows: Array<Record<string, unknown>> }> },
  email: string,
): Promise<string | null> {
  const { rows } = await client.query(
    `select m.body from mail_outbox m join organizations o on o.id = m.organization_id
     where o.is_platform and lower(m.to_address) = lower($1) order by m.created_at desc, m.id desc limit 1`,
    [email],
  );
  const body = rows[0]?.['body'];
  const match = typeof body === 'string' ? /^\s*(\d{6})\s*$/m.exec(body) : null;
  return match?.[1] ?? null;
}

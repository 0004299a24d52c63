import { createHmac, timingSafeEqual } from 'node:crypto';
import { WEBHOOK_TOLERANCE_SECONDS } from '@bulwark/domain';

/**
 * Deliveries are signed as Stripe's are: `Bulwark-Signature: t=<unix seconds>,v1=<hex>`, where v1 is
 * HMAC-SHA256 of `<t>.<body>` under the endpoint's secret. The timestamp is inside the signed text, so
 * a receiver that refuses an old `t` refuses a replayed delivery; each attempt is signed afresh.
 */
export function signWebhook(secret: string, body: string, timestampSeconds: number): string {
  const mac = createHmac('sha256', secret).update(`${timestampSeconds}.${body}`).digest('hex');
  return `t=${timestampSeconds},v1=${mac}`;
}

/** What a receiver does (the README shows the same in a few lines): the signature matches and is recent. */
export function verifyWebhook(
  secret: string,
  header: string | undefined,
  body: string,
  nowSeconds: number,
  toleranceSeconds = WEBHOOK_TOLERANCE_SECONDS,
): boolean {
  const parts = Object.fromEntries((header ?? '').split(',').map((p) => p.trim().split('=') as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1 || Math.abs(nowSeconds - t) > toleranceSeconds) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

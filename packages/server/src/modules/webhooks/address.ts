import { lookup } from 'node:dns/promises';
import { BlockList, isIP } from 'node:net';
import { AppError } from '../../platform/errors.js';

/**
 * Where a webhook may be sent (SSRF): an https:// address of the public internet. The host is checked
 * when the endpoint is saved and resolved again at every delivery, which then connects to the very
 * address that was checked (no second look-up a DNS change could answer differently). Redirects are
 * never followed. `allowLoopback` (WEBHOOKS_ALLOW_LOOPBACK=1, tests and local development) admits
 * http:// and this machine's loopback, and nothing else private.
 */

const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
for (const [net, prefix] of [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/** `localhost`, and any name under it (RFC 6761), with or without the root's trailing dot. */
function isLoopbackName(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return name === 'localhost' || name.endsWith('.localhost');
}

function isLoopback(address: string): boolean {
  const v4 = mappedV4(address);
  if (v4) return v4.startsWith('127.');
  return address === '::1';
}

/** `::ffff:10.0.0.1` is 10.0.0.1. */
function mappedV4(address: string): string | null {
  if (isIP(address) === 4) return address;
  const m = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  return m ? m[1]! : null;
}

/** Whether an address is outside the public internet (private, loopback, link-local, reserved). */
export function isPrivateAddress(address: string): boolean {
  const v4 = mappedV4(address);
  if (v4) return PRIVATE.check(v4, 'ipv4');
  return isIP(address) === 6 ? PRIVATE.check(address, 'ipv6') : true;
}

function refuse(field: 'httpsOnly' | 'badUrl' | 'privateAddress'): never {
  throw new AppError('validation_failed', { fields: { url: `webhooks.validation.${field}` } });
}

/** The host without IPv6 brackets (or the root's trailing dot, which names the same host). */
function hostOf(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '').replace(/\.$/, '');
}

/** Checks an address an administrator gives (field errors under `url`); the returned form is what is stored. */
export function checkWebhookUrl(raw: string, allowLoopback: boolean): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return refuse('badUrl');
  }
  if (url.username || url.password || !url.hostname) refuse('badUrl');
  const host = hostOf(url);
  const loopback = isLoopbackName(host) || (isIP(host) !== 0 && isLoopback(host));
  if (url.protocol === 'http:') {
    if (!(allowLoopback && loopback)) refuse('httpsOnly');
  } else if (url.protocol !== 'https:') refuse('httpsOnly');
  if (loopback && !allowLoopback) refuse('privateAddress');
  if (!loopback && isIP(host) !== 0 && isPrivateAddress(host)) refuse('privateAddress');
  url.hash = '';
  return url.toString();
}

export class AddressRefused extends Error {}

/**
 * The one address a delivery connects to: every address the host resolves to must be public (or, when
 * allowed, loopback), or nothing is sent.
 */
export async function deliveryAddress(url: URL, allowLoopback: boolean): Promise<{ address: string; family: 4 | 6 }> {
  const host = hostOf(url);
  const found = isIP(host) !== 0 ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  if (found.length === 0) throw new AddressRefused('no address');
  for (const a of found) {
    if (allowLoopback && isLoopback(a.address)) continue;
    if (isPrivateAddress(a.address)) throw new AddressRefused(a.address);
  }
  const first = found[0]!;
  return { address: first.address, family: first.family === 6 ? 6 : 4 };
}

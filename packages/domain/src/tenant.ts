import { PUBLIC_TENANT, RESERVED_SUBDOMAINS } from './constants.js';

/**
 * The tenant is the first label of the host when the host has a label in front of the base domain
 * (`demo.localhost` -> `demo`); the bare domain and IP addresses are the public tenant.
 */
export function tenantFromHost(host: string, baseDomain: string): string {
  const name = (host.split(':')[0] ?? '').toLowerCase();
  if (/^\d+\.\d+\.\d+\.\d+$/.test(name) || name.startsWith('[')) return PUBLIC_TENANT;
  const base = baseDomain.toLowerCase();
  if (name === base || !name.endsWith(`.${base}`)) return PUBLIC_TENANT;
  const label = name.slice(0, -(base.length + 1)).split('.')[0];
  return label || PUBLIC_TENANT;
}

export const SUBDOMAIN_PATTERN = /^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export function subdomainProblem(label: string): 'format' | 'reserved' | null {
  if (!SUBDOMAIN_PATTERN.test(label)) return 'format';
  if ((RESERVED_SUBDOMAINS as readonly string[]).includes(label)) return 'reserved';
  return null;
}

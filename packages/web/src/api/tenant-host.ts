import { tenantFromHost } from '@bulwark/domain';

const IPV4 = /^\d+\.\d+\.\d+\.\d+$/;

function hostName(host: string): string {
  return (host.split(':')[0] ?? '').toLowerCase();
}

/**
 * The domain the app is served on, so the tenant is whatever label stands in front of it.
 * `*.localhost` is the development and test setup; elsewhere the app lives on a registrable domain
 * (two labels), so a third label in front is a tenant.
 */
export function baseDomainOf(host: string): string {
  const name = hostName(host);
  if (name === 'localhost' || name.endsWith('.localhost')) return 'localhost';
  if (IPV4.test(name)) return name;
  const labels = name.split('.');
  return labels.length >= 3 ? labels.slice(1).join('.') : name;
}

export function tenantOfHost(host: string): string {
  return tenantFromHost(host, baseDomainOf(host));
}

/** The sign-in address of an organisation found from the bare domain, keeping protocol and port. */
export function organizationLoginUrl(subDomain: string, location: Pick<Location, 'protocol' | 'host'>): string {
  const port = location.host.includes(':') ? `:${location.host.split(':')[1]}` : '';
  return `${location.protocol}//${subDomain}.${baseDomainOf(location.host)}${port}/login`;
}

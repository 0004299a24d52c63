import { describe, expect, it } from 'vitest';
import { baseDomainOf, organizationLoginUrl, tenantOfHost } from './tenant-host.js';

describe('tenant from the browser host', () => {
  it.each([
    ['demo.localhost:3000', 'localhost', 'demo'],
    ['localhost:3000', 'localhost', 'public'],
    ['acme.bulwark-ehs.example', 'bulwark-ehs.example', 'acme'],
    ['bulwark-ehs.example', 'bulwark-ehs.example', 'public'],
    ['127.0.0.1:3000', '127.0.0.1', 'public'],
  ])('%s has base %s and tenant %s', (host, base, tenant) => {
    expect(baseDomainOf(host)).toBe(base);
    expect(tenantOfHost(host)).toBe(tenant);
  });

  it('builds an organisation sign-in address keeping protocol and port', () => {
    expect(organizationLoginUrl('demo', { protocol: 'http:', host: 'localhost:3000' })).toBe('http://demo.localhost:3000/login');
    expect(organizationLoginUrl('acme', { protocol: 'https:', host: 'bulwark-ehs.example' })).toBe(
      'https://acme.bulwark-ehs.example/login',
    );
  });
});

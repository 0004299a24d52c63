import { describe, expect, it } from 'vitest';
import { PUBLIC_TENANT, RESERVED_SUBDOMAINS } from './constants.js';
import { subdomainProblem, tenantFromHost } from './tenant.js';

describe('tenantFromHost(): the first label of the host is the tenant (spec 000 §1)', () => {
  it('the public tenant is called "public"', () => {
    expect(PUBLIC_TENANT).toBe('public');
  });

  it.each([
    ['demo.localhost', 'localhost', 'demo'],
    ['demo.localhost:5173', 'localhost', 'demo'],
    ['localhost', 'localhost', 'public'],
    ['localhost:3000', 'localhost', 'public'],
    ['127.0.0.1', 'localhost', 'public'],
    ['127.0.0.1:8080', 'localhost', 'public'],
    ['192.168.1.20', 'example.com', 'public'],
    ['acme.example.com', 'example.com', 'acme'],
    ['acme.example.com:443', 'example.com', 'acme'],
    ['a.b.example.com', 'example.com', 'a'],
    ['ACME.Example.COM', 'example.com', 'acme'],
    ['example.com', 'example.com', 'public'],
    ['example.com:8443', 'example.com', 'public'],
    ['acme.other.org', 'example.com', 'public'],
    ['notexample.com', 'example.com', 'public'],
    ['[::1]:3000', 'localhost', 'public'],
  ])('%s with base %s -> %s', (host, base, tenant) => {
    expect(tenantFromHost(host, base)).toBe(tenant);
  });
});

describe('subdomainProblem()', () => {
  it.each(['acme', 'a', 'acme-co', 'ac9', '9acme', 'a'.repeat(63)])('%s is acceptable', (label) => {
    expect(subdomainProblem(label)).toBeNull();
  });

  it.each(['', 'Acme', '-acme', 'acme-', 'a.b', 'a_b', 'ac me', 'açme', 'a'.repeat(64)])('%j has a format problem', (label) => {
    expect(subdomainProblem(label)).toBe('format');
  });

  it.each([...RESERVED_SUBDOMAINS])('%s is reserved', (label) => {
    expect(subdomainProblem(label)).toBe('reserved');
  });

  it('the reserved list covers the public tenant and the app/lvh hosts of spec 000 §2', () => {
    for (const label of ['public', 'app', 'lvh', 'www']) {
      expect(RESERVED_SUBDOMAINS as readonly string[]).toContain(label);
    }
  });
});

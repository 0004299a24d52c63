import { describe, expect, it } from 'vitest';
import { translate } from '../i18n/index.js';
import { issuerUrlProblem, passwordChangeBody, ssoConfigBody, ssoErrorMessageKey, SSO_ERROR_CODES } from './index.js';

const valid = {
  issuer_url: 'https://login.example.com/realm',
  client_id: 'bulwark',
  client_secret: 's3cret',
  allowed_domains: ['Example.com', '@acme.co.uk'],
  enabled: true,
  create_users: false,
  default_role_id: null,
};

describe('sso config schema', () => {
  it('accepts https issuers and normalises domains', () => {
    const parsed = ssoConfigBody.parse(valid);
    expect(parsed.allowed_domains).toEqual(['example.com', 'acme.co.uk']);
  });

  it('refuses plain http except on the loopback', () => {
    expect(issuerUrlProblem('http://login.example.com')).toBe('https');
    expect(issuerUrlProblem('http://127.0.0.1:4000')).toBeNull();
    expect(issuerUrlProblem('http://localhost:4000/oidc')).toBeNull();
    expect(issuerUrlProblem('ftp://x.example.com')).toBe('format');
    expect(issuerUrlProblem('not a url')).toBe('format');
    expect(issuerUrlProblem('https://user:pw@login.example.com')).toBe('format');
  });

  it('names the field of each problem', () => {
    const result = ssoConfigBody.safeParse({
      ...valid,
      issuer_url: 'http://login.example.com',
      allowed_domains: ['not a domain'],
      create_users: true,
    });
    expect(result.success).toBe(false);
    const issues = Object.fromEntries(result.error!.issues.map((i) => [String(i.path[0]), i.message]));
    expect(issues).toMatchObject({
      issuer_url: 'sso.validation.issuerHttps',
      allowed_domains: 'sso.validation.domain',
    });
  });

  it('needs a role when users are created on first sign-in', () => {
    const result = ssoConfigBody.safeParse({ ...valid, create_users: true, default_role_id: null });
    expect(result.error?.issues[0]).toMatchObject({ path: ['default_role_id'], message: 'sso.validation.roleRequired' });
    expect(ssoConfigBody.safeParse({ ...valid, create_users: true, default_role_id: '0190f0f0-0000-7000-8000-000000000000' }).success).toBe(
      true,
    );
  });
});

describe('sso error texts', () => {
  it('gives every code a real text in every language and falls back for unknown codes', () => {
    for (const code of SSO_ERROR_CODES) {
      const key = ssoErrorMessageKey(code);
      for (const lang of ['en', 'es', 'tr', 'zh'] as const) expect(translate(lang, key)).not.toBe(key);
    }
    expect(ssoErrorMessageKey('not_registered')).toBe('errors.not_registered');
    expect(translate('en', ssoErrorMessageKey('not_registered'))).toMatch(/not registered to the application/);
    expect(ssoErrorMessageKey('<script>')).toBe('errors.sso_failed');
    expect(ssoErrorMessageKey(null)).toBe('errors.sso_failed');
  });
});

describe('password change schema', () => {
  it('checks strength and confirmation', () => {
    const ok = { current_password: 'old', password: 'New#pass1', password_confirmation: 'New#pass1' };
    expect(passwordChangeBody.safeParse(ok).success).toBe(true);
    const weak = passwordChangeBody.safeParse({ ...ok, password: 'short', password_confirmation: 'short' });
    expect(weak.error?.issues[0]).toMatchObject({ path: ['password'], message: 'validation.password.tooShort' });
    const plain = passwordChangeBody.safeParse({ ...ok, password: 'longenough1', password_confirmation: 'longenough1' });
    expect(plain.error?.issues[0]).toMatchObject({ path: ['password'], message: 'validation.password.needsSpecial' });
    const differ = passwordChangeBody.safeParse({ ...ok, password_confirmation: 'Other#pass1' });
    expect(differ.error?.issues[0]).toMatchObject({ path: ['password_confirmation'], message: 'auth.passwordsDiffer' });
    const missing = passwordChangeBody.safeParse({ ...ok, current_password: '' });
    expect(missing.error?.issues[0]).toMatchObject({ path: ['current_password'], message: 'validation.required' });
  });
});

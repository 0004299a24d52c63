import { ACCESS_TOKEN_TTL_SECONDS } from '@bulwark/domain';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createTokenSigner } from './tokens.js';

const CLAIMS = { sub: 'user-1', org: 'org-1', sid: 'session-1', csh: 'csrf-hash' };

/** The token with one character of its signature changed (the last is avoided: its low bits are padding). */
function tampered(token: string): string {
  const at = token.length - 5;
  return token.slice(0, at) + (token[at] === 'A' ? 'B' : 'A') + token.slice(at + 1);
}

describe('access tokens', () => {
  afterEach(() => vi.useRealTimers());

  it('a node keeps a token it verified, and answers the same claims without the signature check', async () => {
    const signer = createTokenSigner('secret-of-this-node', { keepVerified: 10 });
    const token = await signer.sign(CLAIMS);
    expect(await signer.verify(token)).toEqual(CLAIMS);
    expect(signer.keptCount()).toBe(1);
    expect(await signer.verify(token)).toEqual(CLAIMS);
    expect(signer.keptCount()).toBe(1);
  });

  it('keeps nothing that failed: an altered token, another secret’s token, garbage', async () => {
    const signer = createTokenSigner('secret-of-this-node', { keepVerified: 10 });
    const token = await signer.sign(CLAIMS);
    const foreign = await createTokenSigner('another-secret').sign(CLAIMS);
    for (const bad of [tampered(token), foreign, 'not.a.token', '']) {
      expect(await signer.verify(bad), bad).toBeNull();
    }
    expect(signer.keptCount()).toBe(0);
    // A valid token kept first does not make its altered copy pass.
    await signer.verify(token);
    expect(await signer.verify(tampered(token))).toBeNull();
  });

  it('refuses a kept token once it has expired, at the same second jose would', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2026-11-27T10:00:00.000Z'));
    const signer = createTokenSigner('secret-of-this-node', { keepVerified: 10 });
    const token = await signer.sign(CLAIMS);
    expect(await signer.verify(token)).toEqual(CLAIMS);
    vi.setSystemTime(new Date(Date.parse('2026-11-27T10:00:00.000Z') + ACCESS_TOKEN_TTL_SECONDS * 1000 - 1));
    expect(await signer.verify(token)).toEqual(CLAIMS);
    vi.setSystemTime(new Date(Date.parse('2026-11-27T10:00:00.000Z') + ACCESS_TOKEN_TTL_SECONDS * 1000));
    expect(await signer.verify(token)).toBeNull();
    expect(signer.keptCount()).toBe(0);
    // Without the cache the signer says the same.
    expect(await createTokenSigner('secret-of-this-node').verify(token)).toBeNull();
  });

  it('keeps at most its limit, dropping the oldest first', async () => {
    const signer = createTokenSigner('secret-of-this-node', { keepVerified: 3 });
    const tokens = [];
    for (let i = 0; i < 5; i++) tokens.push(await signer.sign({ ...CLAIMS, sid: `session-${i}` }));
    for (const t of tokens) await signer.verify(t);
    expect(signer.keptCount()).toBe(3);
    // Dropped ones are verified again, not refused.
    expect((await signer.verify(tokens[0]!))?.sid).toBe('session-0');
  });

  it('without keepVerified, keeps nothing', async () => {
    const signer = createTokenSigner('secret-of-this-node');
    await signer.verify(await signer.sign(CLAIMS));
    expect(signer.keptCount()).toBe(0);
  });
});

import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { ACCESS_TOKEN_TTL_SECONDS } from '@bulwark/domain';
import { jwtVerify, SignJWT } from 'jose';

export type AccessClaims = {
  /** user id */
  sub: string;
  /** organisation id the token was issued for */
  org: string;
  /** session (refresh family) id */
  sid: string;
  /** sha-256 of the CSRF token issued with this access token */
  csh: string;
};

const ISSUER = 'bulwark-ehs';

export function randomToken(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

export function sha256(value: string): string {
  return createHash('sha256').update(value).digest('base64url');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** How many verified tokens a node keeps (about 0.5 KB each): more than the sessions one node serves at once. */
export const VERIFIED_TOKENS_KEPT = 10_000;

/**
 * Signs and verifies access tokens (HS256). With `keepVerified`, a node remembers that many tokens it
 * has verified, with their claims, until each expires: a browser sends the same token with every
 * request for its lifetime, and checking its signature again (HMAC through WebCrypto) was the largest
 * single cost of an authenticated request whose principal is cached, some 45 µs on the 2-core machine.
 * Only a token whose signature and claims were valid is kept, keyed by its whole text, so a forged or
 * altered token never matches one; expiry is checked at every use. Revoking a session is not the
 * token's business: the principal cache refuses a revoked session (platform/auth/principal-cache.ts).
 */
export function createTokenSigner(secret: string, options: { keepVerified?: number } = {}) {
  // Imported once: given the raw bytes, jose imports the key again on every sign and verify, which more
  // than doubled the cost of checking the token every authenticated request carries.
  const imported = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
  const kept = options.keepVerified ? new Map<string, { claims: AccessClaims; expiresAt: number }>() : null;
  const keepLimit = options.keepVerified ?? 0;

  async function verifySignature(token: string): Promise<{ claims: AccessClaims; expiresAt: number } | null> {
    try {
      // jose checks exp only when present: a token without one would never expire.
      const { payload } = await jwtVerify(token, await imported, {
        issuer: ISSUER,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'iat', 'sub'],
      });
      const { sub, org, sid, csh, exp } = payload;
      if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string' || typeof csh !== 'string') {
        return null;
      }
      return { claims: { sub, org, sid, csh }, expiresAt: (exp ?? 0) * 1000 };
    } catch {
      return null;
    }
  }

  return {
    async sign(claims: AccessClaims): Promise<string> {
      return new SignJWT({ org: claims.org, sid: claims.sid, csh: claims.csh })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(claims.sub)
        .setIssuer(ISSUER)
        .setIssuedAt()
        .setExpirationTime(`${ACCESS_TOKEN_TTL_SECONDS}s`)
        .sign(await imported);
    },
    /** The claims of a valid, unexpired token, or null. */
    async verify(token: string): Promise<AccessClaims | null> {
      const known = kept?.get(token);
      if (known) {
        // jose refuses a token at its exp second (exp <= now): the same here.
        if (Math.floor(Date.now() / 1000) * 1000 < known.expiresAt) return known.claims;
        kept!.delete(token);
        return null;
      }
      const verified = await verifySignature(token);
      if (!verified) return null;
      if (kept) {
        // The oldest token verified goes first (a Map keeps insertion order).
        if (kept.size >= keepLimit) kept.delete(kept.keys().next().value!);
        kept.set(token, verified);
      }
      return verified.claims;
    },
    /** How many verified tokens this signer keeps now (for tests). */
    keptCount: (): number => kept?.size ?? 0,
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;

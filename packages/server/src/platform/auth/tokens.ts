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

export function createTokenSigner(secret: string) {
  // Imported once: given the raw bytes, jose imports the key again on every sign and verify, which more
  // than doubled the cost of checking the token every authenticated request carries.
  const imported = crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, [
    'sign',
    'verify',
  ]);
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
      try {
        // jose checks exp only when present: a token without one would never expire.
        const { payload } = await jwtVerify(token, await imported, {
          issuer: ISSUER,
          algorithms: ['HS256'],
          requiredClaims: ['exp', 'iat', 'sub'],
        });
        const { sub, org, sid, csh } = payload;
        if (typeof sub !== 'string' || typeof org !== 'string' || typeof sid !== 'string' || typeof csh !== 'string') {
          return null;
        }
        return { sub, org, sid, csh };
      } catch {
        return null;
      }
    },
  };
}
export type TokenSigner = ReturnType<typeof createTokenSigner>;

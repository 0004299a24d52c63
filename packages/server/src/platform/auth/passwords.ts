import { installCommonPasswordCheck } from '@bulwark/domain';
import { hash, verify } from '@node-rs/argon2';
import { isCommonPassword } from './common-passwords.js';

// Every password the API sets is read with the domain's passwordSchema: from here on it also refuses
// the common and breached ones. This module is loaded by every service that stores a password.
installCommonPasswordCheck(isCommonPassword);

// OWASP's argon2id baseline: 19 MiB memory, 2 iterations, 1 lane. Argon2id is the library's default
// algorithm (its enum is a const enum that isolated modules cannot read).
const OPTIONS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

// Verifying against this when no account matches keeps the reply time the same either way.
let dummyHash: Promise<string> | null = null;

export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  if (!stored) {
    dummyHash ??= hashPassword('dummy-password-for-timing!');
    await verify(await dummyHash, password).catch(() => false);
    return false;
  }
  return verify(stored, password).catch(() => false);
}

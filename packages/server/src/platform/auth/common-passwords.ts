import { readFileSync } from 'node:fs';
import { serverPath } from '../server-root.js';

/**
 * The 10,000 most common passwords of SecLists' "10 million password list" (Daniel Miessler, MIT:
 * common-passwords.LICENSE), shipped with the server: no network call. About 75 kB in memory.
 */
const LIST = new Set(
  readFileSync(serverPath('src', 'platform', 'auth', 'common-passwords.txt'), 'utf8')
    .split('\n')
    .map((line) => line.trim().toLowerCase())
    .filter(Boolean),
);

// The usual disguises of a word: digits and symbols glued to its ends, symbols and digits for letters.
const AFFIX_SYMBOLS = /^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu;
const AFFIX_DIGITS_AND_SYMBOLS = /^[^\p{L}]+|[^\p{L}]+$/gu;
const LEET: Record<string, string> = { '0': 'o', '1': 'i', '3': 'e', '4': 'a', '5': 's', '7': 't', '@': 'a', $: 's', '!': 'i' };
const unleet = (s: string) => s.replace(/[013457@$!]/g, (c) => LEET[c] ?? c);

/**
 * True when the password is on the list, or is a listed password in a thin disguise: other capitals,
 * digits or symbols added at its start or end ("Password123!"), or the common letter swaps ("P@ssw0rd").
 * The spec's rule (8 characters with a special character) alone lets exactly those through.
 */
export function isCommonPassword(password: string): boolean {
  const lower = password.toLowerCase();
  const trimmed = lower.replace(AFFIX_SYMBOLS, '');
  const core = lower.replace(AFFIX_DIGITS_AND_SYMBOLS, '');
  const candidates = [lower, trimmed, core, unleet(trimmed), unleet(core)];
  return candidates.some((c) => c.length > 0 && LIST.has(c));
}

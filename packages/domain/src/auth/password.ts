import { z } from 'zod';

/** Spec 001 §5/§9: at least 8 characters with a special character. */
export const PASSWORD_MIN_LENGTH = 8;
const SPECIAL = /[^A-Za-z0-9\s]/;

export function passwordProblem(password: string): 'tooShort' | 'needsSpecial' | null {
  if (password.length < PASSWORD_MIN_LENGTH) return 'tooShort';
  if (!SPECIAL.test(password)) return 'needsSpecial';
  return null;
}

let isCommon: ((password: string) => boolean) | null = null;

/**
 * The server installs its list of common and breached passwords here (10,000 entries, too heavy for
 * the browser), so that every schema built on `passwordSchema` refuses them on the server; the forms
 * check the rule above and show the server's refusal.
 */
export function installCommonPasswordCheck(check: ((password: string) => boolean) | null): void {
  isCommon = check;
}

/** Message keys are i18n keys; the server and the forms translate them. */
export const passwordSchema = z
  .string()
  .max(256, { message: 'validation.tooLong' })
  .superRefine((value, ctx) => {
    const problem = passwordProblem(value) ?? (isCommon?.(value) ? 'common' : null);
    if (problem) ctx.addIssue({ code: 'custom', message: `validation.password.${problem}` });
  });

export const emailSchema = z
  .string()
  .trim()
  .toLowerCase()
  .max(254, { message: 'validation.tooLong' })
  .pipe(z.email({ message: 'validation.email' }));

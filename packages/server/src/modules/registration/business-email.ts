import { createRequire } from 'node:module';

// Both lists ship as CommonJS/JSON; no hand-written list of providers lives in our code.
const require = createRequire(import.meta.url);
const FREE_MAIL_DOMAINS: ReadonlySet<string> = new Set((require('email-providers/all.json') as string[]).map((d) => d.toLowerCase()));
const mailchecker = require('mailchecker') as { isValid: (email: string) => boolean };

/** The address's domain and every parent domain under the top level (a.b.example.org -> a.b.example.org, b.example.org, example.org). */
function domainsOf(email: string): string[] {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const labels = domain.split('.');
  return labels.slice(0, -1).map((_, i) => labels.slice(i).join('.'));
}

/**
 * Spec 001 §5: only business e-mails at sign-up. Free-mail providers come from the `email-providers`
 * list, throw-away addresses from `mailchecker`'s list.
 */
export function businessEmailProblem(email: string): 'free' | 'disposable' | null {
  if (domainsOf(email).some((d) => FREE_MAIL_DOMAINS.has(d))) return 'free';
  if (!mailchecker.isValid(email)) return 'disposable';
  return null;
}

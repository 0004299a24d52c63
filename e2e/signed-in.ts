import type { Browser, BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';
import type { RunningServer } from './product.js';
import { apiSignIn } from './support.js';

export type SignedInOptions = {
  width?: number;
  /** The person's own language, saved on the server before the page opens (as they would have chosen it). */
  language?: string;
  scheme?: 'light' | 'dark';
  /** Sign in through the sign-in form instead of starting with the session it would have kept. */
  form?: boolean;
  acceptDownloads?: boolean;
  tenant?: string;
};

/**
 * A page of the product signed in as `email`, at a width, in the person's language, light or dark. It
 * starts with the session the sign-in form would have kept in localStorage and opens the home, unless
 * `form` asks for the form itself: a form round and the sign-in page's cold load cost about 2 s, and the
 * first-hour files open some 34 such pages. The language and scheme are set once per tab, before the
 * app starts, so a reload keeps what the test changed since.
 */
export async function openSignedIn(
  browser: Browser,
  server: RunningServer,
  email: string,
  password: string,
  { width = 1280, language = 'en', scheme = 'light', form = false, acceptDownloads = false, tenant = 'demo' }: SignedInOptions = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const session = await apiSignIn(server.port, email, password, tenant);
  const res = await fetch(`http://127.0.0.1:${server.port}/api/users/user_profile`, {
    method: 'PATCH',
    headers: {
      'content-type': 'application/json',
      'x-tenant': tenant,
      authorization: `Bearer ${session.token}`,
      'x-csrf-token': session.csrf,
    },
    body: JSON.stringify({ locale: language }),
  });
  expect(res.status).toBe(200);
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 740 : 900 }, locale: 'en-GB', acceptDownloads });
  await context.addInitScript(
    ([lang, dark, kept]) => {
      if (!sessionStorage.getItem('e2e-init')) {
        localStorage.setItem('bulwark.language', lang as string);
        localStorage.setItem('bulwark.color-scheme', dark as string);
        if (kept && typeof kept === 'object') {
          localStorage.setItem('bulwark.token', kept.token);
          localStorage.setItem('bulwark.csrf', kept.csrf);
          localStorage.setItem('bulwark.refresh', kept.refresh);
        }
        sessionStorage.setItem('e2e-init', '1');
      }
    },
    [language, scheme, form ? null : session] as const,
  );
  const page = await context.newPage();
  const origin = server.origin(tenant);
  if (!form) {
    await page.goto(`${origin}/`);
    return { context, page };
  }
  await page.goto(`${origin}/login`);
  await page.locator('input[type=email], input[name=email]').first().fill(email);
  await page.locator('input[type=password]').first().fill(password);
  await page.locator('button[type=submit]').first().click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { context, page };
}

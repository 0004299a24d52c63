import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type RunningServer, signedInPage, withProduct } from './support.js';

/**
 * The Content Security Policy the server sends (no inline script, no eval) must not break a screen: the
 * sign-in page and, signed in, the main screens run in Chromium without a single reported violation.
 */

const PASSWORD = 'Demo#2026!';
const ADMIN = 'admin@demo.test';

let server: RunningServer;
let browser: Browser;
withProduct((s, b) => {
  server = s;
  browser = b;
});

const origin = () => server.origin('demo');

declare global {
  interface Window {
    cspViolations?: string[];
  }
}

/** Collects what the browser reports: `securitypolicyviolation` events and CSP console messages. */
async function watch(context: BrowserContext, page: Page): Promise<() => Promise<string[]>> {
  await context.addInitScript(() => {
    window.cspViolations = [];
    document.addEventListener('securitypolicyviolation', (e) => {
      window.cspViolations!.push(`${e.violatedDirective} blocked ${e.blockedURI || 'inline'} at ${e.sourceFile}:${e.lineNumber}`);
    });
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (m.text().includes('Content Security Policy')) console.push(m.text());
  });
  return async () => [...console, ...(await page.evaluate(() => window.cspViolations ?? []))];
}

async function visit(page: Page, target: string) {
  const res = await page.goto(`${origin()}${target}`, { waitUntil: 'networkidle' });
  // The app rendered something of its own, not a blank page a blocked script would leave.
  await expect.poll(() => page.evaluate(() => document.getElementById('root')?.childElementCount ?? 0)).toBeGreaterThan(0);
  return res;
}

describe('Content Security Policy in the browser', () => {
  it('the sign-in page runs without a violation', async () => {
    const context = await browser.newContext({ locale: 'en-GB' });
    const page = await context.newPage();
    const violations = await watch(context, page);
    const res = await visit(page, '/login');
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    const csp = res?.headers()['content-security-policy'];
    expect(csp).toMatch(/script-src 'self'/);
    expect(await violations()).toEqual([]);
    await context.close();
  });

  it('signed in, the dashboard, observations, actions and safety interaction screens run without a violation', async () => {
    const { context, page } = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    const violations = await watch(context, page);
    for (const target of ['/', '/observations/new', '/actions/all', '/si-dashboard']) {
      await visit(page, target);
      expect(await violations(), target).toEqual([]);
    }
    await context.close();
  });

  it('a violation would be seen: an inline script injected into the page is blocked and reported', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const violations = await watch(context, page);
    await visit(page, '/login');
    const ran = await page.evaluate(async () => {
      const w = window as Window & { inlineRan?: boolean };
      const s = document.createElement('script');
      s.textContent = 'window.inlineRan = true';
      document.body.append(s);
      await new Promise((r) => setTimeout(r, 100));
      return w.inlineRan === true;
    });
    expect(ran).toBe(false);
    await expect.poll(async () => (await violations()).length).toBeGreaterThan(0);
    await context.close();
  });
});

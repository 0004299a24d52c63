import { mkdirSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, inject } from 'vitest';
import { chromium, type Browser, type BrowserContext, type Locator, type Page } from 'playwright-core';
import { startProduct as startProductOn, type ProductOptions, type ProductTemplate, type RunningServer } from './product.js';

export { freePort, startSecondNode, type ProductOptions, type RunningServer } from './product.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The product the run's globalSetup started once and stopped, which every `startProduct` copies. */
    productTemplate: ProductTemplate | null;
  }
}

/**
 * The real product as `npm start` runs it (web app already built by `npm test`), on a copy of the run's
 * prepared database: embedded PostgreSQL in a temporary DATA_DIR, or a database of its own on the
 * DATABASE_URL server, with the demo seeded.
 */
export function startProduct(options: ProductOptions = {}): Promise<RunningServer> {
  return startProductOn(options, inject('productTemplate') ?? undefined);
}

const ROOT = path.resolve(import.meta.dirname, '..');
export const SCREENSHOTS = path.join(ROOT, 'screenshots');

export async function launchBrowser(): Promise<Browser> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
}

/** Reads the newest e-mail to an address from the outbox (what an SMTP server would have received). */
export async function latestMail(ownerUrl: string, to: string): Promise<string> {
  const c = new pg.Client({ connectionString: ownerUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ body: string }>(
      'select body from mail_outbox where to_address = $1 order by created_at desc limit 1',
      [to],
    );
    if (!rows[0]) throw new Error(`no mail to ${to}`);
    return rows[0].body;
  } finally {
    await c.end();
  }
}

/** A full-page PNG under screenshots/, to look at after the run. */
export function shot(page: Page, name: string) {
  return page.screenshot({ path: path.join(SCREENSHOTS, `${name}.png`), fullPage: true });
}

/** A fresh browser context signed in as `email` at `origin`, past the sign-in page. */
export async function signedInPage(
  browser: Browser,
  origin: string,
  email: string,
  password: string,
  width = 1280,
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width, height: 900 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${origin}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { context, page };
}

/** Picks an option of a Mantine select: opens it, types when it is searchable, clicks the option. */
export async function pickOption(
  page: Page,
  label: string | RegExp,
  option: string | RegExp,
  typed?: string,
  scope: Page | Locator = page,
) {
  const input = scope.getByLabel(label).first();
  await input.click();
  if (typed && (await input.isEditable())) await input.fill(typed);
  await page.getByRole('option', { name: option }).first().click();
}

/** One product and one browser for a test file: started before its tests, stopped after them. */
export function withProduct(ready: (server: RunningServer, browser: Browser) => void) {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startProduct();
    browser = await launchBrowser();
    ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
}

/** The session the web app keeps in localStorage after its sign-in form (packages/web/src/api/session-store.ts). */
export type WebSession = { token: string; csrf: string; refresh: string };

/** Signs in through the API, as the sign-in form does: the session a test page can start with. */
export async function apiSignIn(port: number, email: string, password: string, tenant = 'demo'): Promise<WebSession> {
  const res = await fetch(`http://127.0.0.1:${port}/api/v1/authorize`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-tenant': tenant },
    body: JSON.stringify({ email, password }),
  });
  if (!res.ok) throw new Error(`sign-in of ${email}: ${res.status} ${await res.text()}`);
  const { token, csrf, refresh } = (await res.json()) as WebSession;
  return { token, csrf, refresh };
}

import type { Browser, BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { latestMail, type RunningServer, shot, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
let server: RunningServer;
let browser: Browser;

withProduct((s, b) => {
  server = s;
  browser = b;
});

async function newPage(
  options: { width?: number; height?: number; locale?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({
    viewport: { width: options.width ?? 1280, height: options.height ?? 800 },
    locale: options.locale ?? 'en-GB',
  });
  return { context, page: await context.newPage() };
}

async function signIn(page: Page, email: string, password = PASSWORD) {
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

const pathOf = (page: Page) => new URL(page.url()).pathname;

describe('signing in', () => {
  it('finds the organisation from the bare domain and goes to its sign-in page', async () => {
    const { context, page } = await newPage();
    await page.goto(server.origin());
    await page.getByLabel('Sub-domain').waitFor();
    await shot(page, '01-find-organisation');
    await page.getByLabel('Sub-domain').fill('demo');
    await page.getByRole('button', { name: 'Go' }).click();
    await page.waitForURL(`${server.origin('demo')}/login**`);
    await page.getByLabel('E-mail').waitFor();
    await shot(page, '02-sign-in');
    await context.close();
  });

  it('shows the one sign-in error for a wrong password (DECISIONS.md), and the shell after a good one', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await signIn(page, 'admin@demo.test', 'Wrong#password1');
    await page.getByText('E-mail or password is incorrect.').first().waitFor();
    await shot(page, '03-sign-in-error');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.origin('demo')}/`);
    await expect.poll(() => page.title()).toBe('Home · Bulwark EHS');
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Users' }).waitFor();
    await page.getByRole('button', { name: /Notifications/ }).waitFor();
    await shot(page, '04-dashboard-admin');

    // The notifications bell holds the organisation's welcome message.
    await page.getByRole('button', { name: /Notifications/ }).click();
    await page.getByText('Welcome to Bulwark EHS').first().waitFor();
    await shot(page, '05-notifications');
    await context.close();
  });

  it('returns a signed-out visitor to the page they asked for after signing in', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin('demo')}/users`);
    await page.waitForURL(/\/login\?redirect=%2Fusers/);
    await signIn(page, 'admin@demo.test');
    await page.waitForURL(`${server.origin('demo')}/users`);
    await expect.poll(() => page.title()).toBe('Users · Bulwark EHS');
    await context.close();
  });
});

describe('guards', () => {
  it('keeps a user who reads only observations and incidents to what they may see', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await signIn(page, 'user@demo.test');
    // Incident read passes the general gate: the dashboard is the landing page.
    await page.waitForURL(`${server.origin('demo')}/`);
    const menu = page.getByRole('navigation', { name: 'Menu' });
    await menu.getByRole('link', { name: 'Observations' }).waitFor();
    expect(await menu.getByRole('link', { name: 'Users' }).count()).toBe(0);
    await shot(page, '06-dashboard-user');

    // A screen the rights refuse is named on the no-permission page (issue 15), not a silent trip home.
    for (const target of ['/users', '/reports', '/mailers']) {
      await page.goto(`${server.origin('demo')}${target}`);
      await expect.poll(() => pathOf(page), { message: target }).toBe('/no_permissions');
    }
    await page.goto(`${server.origin('demo')}/organizations`);
    await expect.poll(() => pathOf(page)).toBe('/');
    await page.goto(`${server.origin('demo')}/observations`);
    await expect.poll(() => pathOf(page)).toBe('/observations');
    await page.goto(`${server.origin('demo')}/no/such/page`);
    await expect.poll(() => pathOf(page)).toBe('/not_found');
    await page.getByRole('heading', { name: 'Page not found' }).waitFor();
    await shot(page, '07-not-found');
    await context.close();
  });
});

describe('the shell', () => {
  it('closes the side menu after navigating on a phone-sized screen', async () => {
    const { context, page } = await newPage({ width: 360, height: 740 });
    await page.goto(`${server.origin('demo')}/login`);
    await signIn(page, 'admin@demo.test');
    await page.waitForURL(`${server.origin('demo')}/`);
    await page.getByRole('button', { name: 'Open the menu' }).click();
    const link = page.getByRole('navigation', { name: 'Menu' }).getByRole('link', { name: 'Sites' });
    await link.waitFor({ state: 'visible' });
    await shot(page, '08-phone-menu-open');
    await link.click();
    await page.waitForURL(`${server.origin('demo')}/sites`);
    // Mantine slides the closed menu out of view rather than removing it: check where it is.
    await expect.poll(() => page.getByRole('button', { name: 'Open the menu' }).getAttribute('aria-expanded')).toBe('false');
    await expect
      .poll(async () => {
        const box = await page.locator('#side-menu').boundingBox();
        return box === null || box.x + box.width <= 1;
      })
      .toBe(true);
    await shot(page, '09-phone-after-navigation');
    await context.close();
  });

  it('switches the language, keeps it after a reload, and tells the server', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await signIn(page, 'admin@demo.test');
    await page.waitForURL(`${server.origin('demo')}/`);
    // The first live profile refresh after sign-in re-renders the header and may close an open menu
    // (seen on a loaded machine); open it again until the choice is made.
    await page.waitForLoadState('networkidle');
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: /^Language/ }).click();
          return page
            .getByRole('menuitem', { name: 'Español' })
            .click({ timeout: 3_000 })
            .then(
              () => true,
              () => false,
            );
        },
        { timeout: 20_000 },
      )
      .toBe(true);
    await expect.poll(() => page.title()).not.toBe('Home · Bulwark EHS');
    const spanishTitle = await page.title();
    expect(spanishTitle).toMatch(/· Bulwark EHS$/);
    // A fresh sign-in elsewhere sees the stored choice: it reached the server.
    const storedLocale = async () => {
      const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/authorize`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-tenant': 'demo' },
        body: JSON.stringify({ email: 'admin@demo.test', password: PASSWORD }),
      });
      return ((await res.json()) as { profile: { user: { locale: string } } }).profile.user.locale;
    };
    // The screen switches before the account is saved; a reload at once would cancel that request
    // (seen on a loaded CI machine), so wait until the server has the choice.
    await expect.poll(storedLocale, { interval: 500 }).toBe('es');
    await page.reload();
    await expect.poll(() => page.title()).toBe(spanishTitle);
    await shot(page, '10-dashboard-spanish');

    await page.getByRole('button', { name: /^Idioma|^Language/ }).click();
    await page.getByRole('menuitem', { name: 'English' }).click();
    await expect.poll(() => page.title()).toBe('Home · Bulwark EHS');
    // The screen changes before the server has the choice: closing the page at once may cancel the
    // request, and the next test's admin would sign in in Spanish.
    await expect.poll(storedLocale, { interval: 500 }).toBe('en');
    await context.close();
  });

  it('signs out, after which the app asks for sign-in again', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await signIn(page, 'admin@demo.test');
    await page.waitForURL(`${server.origin('demo')}/`);
    await page.getByRole('button', { name: 'Account menu' }).click();
    await page.getByRole('menuitem', { name: 'Sign out', exact: true }).click();
    await expect.poll(() => pathOf(page)).toBe('/login');
    await page.goto(`${server.origin('demo')}/`);
    await expect.poll(() => pathOf(page)).toBe('/login');
    await context.close();
  });
});

describe('password reset', () => {
  it('sets a new password through the e-mailed link', async () => {
    const { context, page } = await newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The sign-in page has an E-mail field too: wait until the reset form has replaced it.
    await page.getByRole('button', { name: 'Send the link' }).waitFor();
    await page.getByLabel('E-mail').fill('user@demo.test');
    await page.getByRole('button', { name: 'Send the link' }).click();
    await page.getByText(/a link is on its way/).waitFor();
    const body = await latestMail(server.ownerUrl, 'user@demo.test');
    const link = /(http:\/\/\S+\/password-reset\/[\w-]+)/.exec(body)?.[1];
    expect(link).toBeTruthy();
    await page.goto(link!.replace(/:\d+\//, `:${server.port}/`));
    await page.getByLabel(/^New password/).fill('Fresh#Pass2026');
    await page.getByLabel('Repeat the new password').fill('Fresh#Pass2026');
    await shot(page, '11-new-password');
    await page.getByRole('button', { name: 'Set the password' }).click();
    await expect.poll(() => pathOf(page)).toBe('/login');
    await signIn(page, 'user@demo.test', 'Fresh#Pass2026');
    await page.waitForURL(`${server.origin('demo')}/`);
    await context.close();
  });
});

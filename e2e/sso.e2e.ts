import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, type RunningServer, shot, startProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
let server: RunningServer;
let browser: Browser;
let providerServer: http.Server;
let issuer: string;

const ACCOUNTS: Record<string, { email: string; name: string }> = {
  admin: { email: 'admin@demo.test', name: 'Demo admin' },
  stranger: { email: 'stranger@demo.test', name: 'Stranger' },
};

beforeAll(async () => {
  server = await startProduct();
  browser = await launchBrowser();
  let handler: http.RequestListener = (_req, res) => res.end();
  providerServer = http.createServer((req, res) => handler(req, res));
  await new Promise<void>((resolve) => providerServer.listen(0, '127.0.0.1', resolve));
  issuer = `http://127.0.0.1:${(providerServer.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: 'demo-client',
        client_secret: 'demo-secret',
        redirect_uris: [`${server.origin('demo')}/api/sso/callback`],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    findAccount: (_ctx: unknown, id: string) => {
      const a = ACCOUNTS[id];
      return a ? { accountId: id, claims: () => ({ sub: id, email: a.email, email_verified: true, name: a.name }) } : undefined;
    },
    cookies: { keys: ['e2e-cookie-key-0123456789'] },
  });
  handler = provider.callback();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => providerServer?.close(resolve));
  await server?.stop();
});

/** At the provider's development login and consent pages. */
async function throughProvider(page: Page, account: string) {
  await page.waitForURL(`${issuer}/**`);
  await page.locator('input[name=login]').fill(account);
  await page.locator('input[name=password]').fill('anything');
  await page.locator('button[type=submit]').click();
  await page.getByRole('button', { name: 'Continue' }).click();
}

describe('single sign-on', () => {
  it('is set up by the admin, then signs people in through the provider, and refuses strangers with the spec’s text', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await page.getByLabel('E-mail').fill('admin@demo.test');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.origin('demo')}/`);

    await page.goto(`${server.origin('demo')}/sso_configs`);
    await page.getByLabel(/^Issuer URL/).fill(issuer);
    await page.getByLabel(/^Client ID/).fill('demo-client');
    await page.getByLabel(/^Client secret/).fill('demo-secret');
    await expect.poll(() => page.getByText(`${server.origin('demo')}/api/sso/callback`).count()).toBe(1);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.getByText('Single sign-on settings saved.').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText('A secret is stored. Leave this empty to keep it.').count()).toBe(1);
    await shot(page, 'sso-configs');

    // Signed out, the login page offers single sign-on.
    const visitor = await (await browser.newContext({ viewport: { width: 390, height: 800 }, locale: 'en-GB' })).newPage();
    await visitor.goto(`${server.origin('demo')}/login`);
    await visitor.getByRole('link', { name: 'Sign in with single sign-on' }).click();
    await visitor.getByRole('button', { name: 'Continue to the identity provider' }).click();
    await throughProvider(visitor, 'admin');
    await visitor.waitForURL(`${server.origin('demo')}/`);
    expect(await visitor.evaluate(() => location.search)).not.toMatch(/code|token/);

    // Someone the organisation does not know lands on the login page with the spec's message.
    const stranger = await (await browser.newContext({ viewport: { width: 390, height: 800 }, locale: 'en-GB' })).newPage();
    await stranger.goto(`${server.origin('demo')}/sso`);
    await stranger.getByRole('button', { name: 'Continue to the identity provider' }).click();
    await throughProvider(stranger, 'stranger');
    await stranger.waitForURL(`${server.origin('demo')}/login?sso_error=not_registered`);
    await expect
      .poll(() => stranger.getByText('You are not registered to the application. Please contact the administrator.').count())
      .toBe(1);
    await shot(stranger, 'sso-login-error');
    await context.close();
  });

  it('lets a user change their password from My account', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.origin('demo')}/login`);
    await page.getByLabel('E-mail').fill('admin@demo.test');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.origin('demo')}/`);
    await page.goto(`${server.origin('demo')}/myaccount`);
    await page.getByLabel(/^Current password/).fill('Wrong#pass11');
    await page.getByLabel(/^New password/).fill('Fresh#pass22');
    await page.getByLabel(/^Repeat the new password/).fill('Fresh#pass22');
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect.poll(() => page.getByText('Incorrect password.').count()).toBe(1);
    await page.getByLabel(/^Current password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Change the password' }).click();
    await expect.poll(() => page.getByText(/Your password has been changed/).count()).toBeGreaterThan(0);
    expect(new URL(page.url()).pathname).toBe('/myaccount');
    await shot(page, 'myaccount');
    await context.close();
  });
});

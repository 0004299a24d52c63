import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestSignUpCode } from '../packages/server/test/registration-support.js';
import { launchBrowser, type RunningServer, shot, startProduct } from './support.js';

let server: RunningServer;
let browser: Browser;
let db: pg.Client;

beforeAll(async () => {
  server = await startProduct();
  browser = await launchBrowser();
  db = new pg.Client({ connectionString: server.ownerUrl });
  await db.connect();
});
afterAll(async () => {
  await db?.end();
  await browser?.close();
  await server?.stop();
});

const EMAIL = 'maria.lopez@harbor-logistics.test';
const PASSWORD = 'Harbor#Light26!';

describe('signing up for the free trial', () => {
  it('walks from the sign-up form through the e-mailed code to the new organisation’s onboarding', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.origin()}/registration`);

    await page.getByLabel('Company name').fill('Harbor Logistics');
    await page.getByLabel('Your full name').click();
    // The sub-domain is suggested from the company name, then checked live.
    await expect.poll(() => page.getByLabel('Sub-domain').inputValue()).toBe('harbor-logistics');
    await page.getByText('Available', { exact: false }).first().waitFor();
    await page.getByLabel('Your full name').fill('María López');
    await page.getByLabel('Phone number').fill('+44 20 7946 0958');
    await page.getByLabel('Work e-mail').fill('maria@gmail.com');
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await shot(page, 'registration-01-sign-up');

    // A free-mail address is refused by the server under its field.
    await page.getByRole('button', { name: 'Create my workspace' }).click();
    await page.getByText('Use your work e-mail address: free and disposable e-mail addresses are not accepted.').waitFor();
    await shot(page, 'registration-02-business-email-refused');

    await page.getByLabel('Work e-mail').fill(EMAIL);
    await page.getByRole('button', { name: 'Create my workspace' }).click();
    // The code is checked on the app host only (spec 000 §2).
    await page.waitForURL(`${server.origin('app')}/organization_verify?**`);
    await page.getByText(`We sent a 6-digit code to ${EMAIL}.`, { exact: false }).waitFor();
    expect(await page.getByRole('button', { name: /Send a new code in/ }).isDisabled()).toBe(true);

    const code = await latestSignUpCode(db, EMAIL);
    expect(code).toMatch(/^\d{6}$/);
    const wrong = String((Number(code) + 1) % 1_000_000).padStart(6, '0');
    const firstDigit = page.locator('input[inputmode="numeric"]').first();
    await firstDigit.click();
    await page.keyboard.type(wrong);
    await page.getByRole('button', { name: 'Verify and create' }).click();
    await page.getByText('This code is wrong. Attempts left: 4.').waitFor();
    await shot(page, 'registration-03-wrong-code');

    for (let i = 0; i < 6; i += 1) await page.keyboard.press('Backspace');
    await firstDigit.click();
    await page.keyboard.type(code!);
    await page.getByRole('button', { name: 'Verify and create' }).click();
    await page.waitForURL(`${server.origin('app')}/thankyou`);
    await page.getByText('Your workspace is ready').waitFor();
    expect(await page.getByTestId('organization-url').textContent()).toBe(server.origin('harbor-logistics'));
    await shot(page, 'registration-04-thank-you');

    await page.getByRole('link', { name: 'Sign in to Harbor Logistics' }).click();
    await page.waitForURL(`${server.origin('harbor-logistics')}/login`);
    await page.getByLabel('E-mail').fill(EMAIL);
    await page.getByLabel(/^Password/).fill(PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    // Onboarding is pending for a new organisation: its admin is sent there first.
    await page.waitForURL(`${server.origin('harbor-logistics')}/onboarding`);
    await shot(page, 'registration-05-onboarding');
    await context.close();
  });

  it('fits a 360 px wide phone', async () => {
    const context = await browser.newContext({ viewport: { width: 360, height: 800 }, locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.origin()}/get-started`);
    await page.getByRole('heading', { name: 'Start your free trial' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);
    await shot(page, 'registration-06-phone');
    await context.close();
  });
});

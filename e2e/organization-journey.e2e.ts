import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { latestSignUpCode } from '../packages/server/test/registration-support.js';
import { latestMail, launchBrowser, pickOption, shot, startProduct, type RunningServer } from './support.js';

/**
 * The "done means": a person with only an e-mail inbox (the outbox here) creates an
 * organisation through the web, sets it up through the wizard and the settings screens, and the person
 * they invite activates their account and uses it.
 */

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

const snap = (page: Page, name: string) => shot(page, `journey-${name}`);

const FOUNDER = { name: 'Noor Haddad', email: 'noor.haddad@quarry-works.test', password: 'Quarry#2026!' };
const SUPERVISOR = { name: 'Bruno Costa', email: 'bruno.costa@quarry-works.test', password: 'Bruno#Quarry26!' };
const TENANT = 'quarry-works';

const choose = (page: Page, label: string | RegExp, typed: string, option: string | RegExp) => pickOption(page, label, option, typed);

describe('an organisation from sign-up to daily use', () => {
  it('is created, set up and used by the person it invites', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, locale: 'en-GB', timezoneId: 'Europe/Lisbon' });
    const page = await context.newPage();

    // 1. Sign-up with a business e-mail, the code from the inbox, the new organisation.
    await page.goto(`${server.origin()}/registration`);
    await page.getByLabel('Company name').fill('Quarry Works');
    await page.getByLabel('Your full name').fill(FOUNDER.name);
    await expect.poll(() => page.getByLabel('Sub-domain').inputValue()).toBe(TENANT);
    await page.getByLabel('Phone number').fill('+351 21 123 4567');
    await page.getByLabel('Work e-mail').fill(FOUNDER.email);
    await page.getByLabel(/^Password/).fill(FOUNDER.password);
    await page.getByRole('button', { name: 'Create my workspace' }).click();
    await page.waitForURL(`${server.origin('app')}/organization_verify?**`);
    const code = await latestSignUpCode(db, FOUNDER.email);
    await page.locator('input[inputmode="numeric"]').first().click();
    await page.keyboard.type(code!);
    await page.getByRole('button', { name: 'Verify and create' }).click();
    await page.waitForURL(`${server.origin('app')}/thankyou`);
    await page.getByRole('link', { name: 'Sign in to Quarry Works' }).click();

    // 2. The founder signs in and is held in the onboarding wizard.
    await page.waitForURL(`${server.origin(TENANT)}/login`);
    await page.getByLabel('E-mail').fill(FOUNDER.email);
    await page.getByLabel(/^Password/).fill(FOUNDER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(`${server.origin(TENANT)}/onboarding`);
    await page.getByRole('heading', { name: 'Set up Quarry Works' }).waitFor();
    // The guard keeps the founder here until the wizard is done.
    await page.goto(`${server.origin(TENANT)}/sites`);
    await page.waitForURL(`${server.origin(TENANT)}/onboarding`);

    // Time zone: the browser's own is offered.
    await snap(page, '01-onboarding-timezone');
    await expect
      .poll(() =>
        page
          .getByLabel(/Organisation time zone/)
          .first()
          .inputValue(),
      )
      .toBe('Europe/Lisbon');
    await page.getByRole('button', { name: 'Next' }).click();

    // First site, with a wrong phone first: the server's rule shows under the field.
    await page.getByLabel(/^Site name/).waitFor();
    await page.getByLabel(/^Site name/).fill('Lisbon Quarry');
    await page.getByLabel(/^Address/).fill('Estrada da Pedreira 12');
    await page.getByLabel(/^City/).fill('Lisboa');
    await page.getByLabel(/^State/).fill('Lisboa');
    await choose(page, /^Country/, 'Portugal', 'Portugal');
    await page.getByLabel(/^Zip code/).fill('1000-001');
    await page.getByLabel(/^Emergency phone/).fill('12');
    await page.getByRole('button', { name: 'Next' }).click();
    await page.getByText('Invalid phone number.').waitFor();
    await page.getByLabel(/^Emergency phone/).fill('+351 21 765 4321');
    await snap(page, '02-onboarding-site');
    await page.getByRole('button', { name: 'Next' }).click();

    // Head of safety: the founder, as proposed.
    await page
      .getByLabel(/Head of safety of Lisbon Quarry/)
      .first()
      .waitFor();
    await page.getByRole('button', { name: 'Next' }).click();

    // Common roles.
    await page.getByRole('checkbox', { name: /Site supervisor/ }).waitFor();
    await snap(page, '03-onboarding-roles');
    await page.getByRole('button', { name: 'Create the selected roles' }).click();

    // Invite the site supervisor.
    await page.getByLabel('Full name').waitFor();
    await page.getByLabel('Full name').fill(SUPERVISOR.name);
    await page.getByLabel('E-mail').fill(SUPERVISOR.email);
    await choose(page, 'Role', 'Site', 'Site supervisor');
    await snap(page, '04-onboarding-invite');
    await page.getByRole('button', { name: 'Send the invitations' }).click();
    await page.getByText('1 invitations sent.').waitFor();

    await page.getByRole('button', { name: 'Finish and start' }).click();
    await page.waitForURL((url) => !url.pathname.startsWith('/onboarding'));

    // 3. Settings screens: the site is listed, a category and a division are added.
    await page.goto(`${server.origin(TENANT)}/sites`);
    await page.getByRole('cell', { name: 'Lisbon Quarry', exact: true }).waitFor();
    await snap(page, '05-sites');
    // A category for the observations the team will report.
    await page.goto(`${server.origin(TENANT)}/categories/new`);
    await choose(page, 'Module', 'Obs', 'Observations');
    await choose(page, 'Type', 'Unsafe', 'Unsafe condition');
    await page.getByLabel('Name').fill('Loose rock on haul road');
    await page.getByRole('button', { name: 'Create' }).click();
    await page.getByText('Category Loose rock on haul road created.').waitFor();
    await snap(page, '06-categories');
    await page.goto(`${server.origin(TENANT)}/users`);
    await page.getByRole('cell', { name: SUPERVISOR.email }).or(page.getByText(SUPERVISOR.email)).first().waitFor();
    await snap(page, '07-users');

    // Guests (visitors, contractors) may ask for an account once the founder allows it.
    // The switch follows the server: it turns on once the change is saved.
    await page.getByRole('switch', { name: 'Allow guest accounts' }).click();
    await page.getByText('Saved.').waitFor();
    expect(await page.getByRole('switch', { name: 'Allow guest accounts' }).isChecked()).toBe(true);
    const visitor = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: 'en-GB' });
    const gate = await visitor.newPage();
    await gate.goto(`${server.origin(TENANT)}/guest_user_creation`);
    await gate.getByLabel(/^Your full name/).fill('Vera Visitor');
    await gate.getByLabel(/^E-mail/).fill('vera@visitors.test');
    await gate.getByRole('button', { name: 'Create guest account' }).click();
    await gate.getByText('Check your e-mail: we sent vera@visitors.test a link', { exact: false }).waitFor();
    await snap(gate, '08-guest');
    expect(await latestMail(server.ownerUrl, 'vera@visitors.test')).toMatch(/password-reset\/\S+\?activate=1/);
    await visitor.close();

    // 4. The supervisor opens the invitation from their inbox, chooses a password and signs in.
    const mail = await latestMail(server.ownerUrl, SUPERVISOR.email);
    const link = /https?:\/\/\S+\/password-reset\/\S+activate=1/.exec(mail)?.[0];
    expect(link, mail).toBeTruthy();
    const other = await browser.newContext({ viewport: { width: 360, height: 780 }, locale: 'en-GB' });
    const phone = await other.newPage();
    await phone.goto(link!.replace(/^https?:\/\/[^/]+/, server.origin(TENANT)));
    await phone.getByRole('heading', { name: 'Activate your account: choose a password' }).waitFor();
    await phone.getByLabel(/^New password/).fill(SUPERVISOR.password);
    await phone.getByLabel(/^Repeat the new password/).fill(SUPERVISOR.password);
    await phone.getByRole('button', { name: 'Set the password' }).click();
    await phone.waitForURL(`${server.origin(TENANT)}/login`);
    await phone.getByLabel('E-mail').fill(SUPERVISOR.email);
    await phone.getByLabel(/^Password/).fill(SUPERVISOR.password);
    await phone.getByRole('button', { name: 'Sign in' }).click();
    // Onboarding is over, so the supervisor lands on a page their role allows.
    await phone.waitForURL((url) => url.pathname !== '/login' && url.pathname !== '/onboarding');
    await phone.getByRole('button', { name: 'Account menu' }).waitFor();
    await snap(phone, '09-supervisor-signed-in');

    await other.close();
    await context.close();
  });
});

import type { Browser } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { type RunningServer, shot, signedInPage, withProduct } from './support.js';

const PASSWORD = 'Demo#2026!';
let server: RunningServer;
let browser: Browser;

withProduct((s, b) => {
  server = s;
  browser = b;
});

const adminPage = (width = 1280) => signedInPage(browser, server.origin('demo'), 'admin@demo.test', PASSWORD, width);

describe('mail content management', () => {
  it('edits a scenario: the removed variable is refused, a chip puts it back at the cursor, the preview fills it, save and reset', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/mailers`);
    await page.getByRole('heading', { name: 'Mail content', level: 1 }).waitFor();
    await shot(page, 'mailers-01-modules');
    await page.getByRole('link', { name: 'Actions', exact: true }).click();
    await page.waitForURL('**/mailers/actions/3');
    await page.getByRole('link', { name: 'Action assigned', exact: true }).click();
    await page.waitForURL('**/mailers/actions/3/scenario/action_assigned');
    const body = page.getByLabel(/^Body/);
    await body.waitFor();
    expect(await body.inputValue()).toContain('[due_date]');

    await body.fill('Hello [user_name], please act: [action_link]\nDue: ');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('The body must keep [due_date]: put it back before saving.').waitFor();
    await shot(page, 'mailers-02-missing-variable');

    await body.click();
    await page.keyboard.press('Control+End');
    await page.getByRole('button', { name: '[due_date] (required)' }).click();
    expect(await body.inputValue()).toBe('Hello [user_name], please act: [action_link]\nDue: [due_date]');
    await expect.poll(() => page.getByTestId('preview-body').innerText()).toContain('Due: 2026-12-15');
    await page.getByRole('button', { name: 'Save template' }).click();
    await page.getByText('Template saved.').waitFor();
    await page
      .getByRole('tab', { name: /English/ })
      .getByText('Customised')
      .waitFor();
    await shot(page, 'mailers-03-editor-saved');

    // Spanish still has its default text.
    await page.getByRole('tab', { name: /Español/ }).click();
    expect(await page.getByLabel(/^Body/).inputValue()).toContain('Hola [user_name]');

    // Reset English after confirming.
    await page.getByRole('tab', { name: /English/ }).click();
    await page.getByRole('button', { name: 'Reset to default' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Reset to default' }).click();
    await page.getByText('The default texts are back.').waitFor();
    expect(await page.getByLabel(/^Body/).inputValue()).toContain('[assigned_by] assigned you the action');
    await context.close();
  });

  it('fits a phone screen', async () => {
    const { context, page } = await adminPage(360);
    await page.goto(`${server.origin('demo')}/mailers/actions/3/scenario/action_overdue`);
    await page.getByLabel(/^Body/).waitFor();
    await shot(page, 'mailers-04-editor-phone');
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(1);
    await context.close();
  });

  it('shows the outbox without SMTP, with the message body', async () => {
    // Something for the outbox: a password reset e-mail, as the sign-in page asks for one.
    const reset = await fetch(`http://127.0.0.1:${server.port}/api/v1/password_resets`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-tenant': 'demo' },
      body: JSON.stringify({ email: 'admin@demo.test' }),
    });
    expect(reset.status).toBe(200);
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/mailers?tab=outbox`);
    await page.getByText('No mail server is configured').waitFor();
    await page.getByRole('cell', { name: 'admin@demo.test' }).first().waitFor();
    await page.getByText('Kept (no mail server)').first().waitFor();
    await shot(page, 'mailers-05-outbox');
    await page
      .getByRole('button', { name: /^Show the message/ })
      .first()
      .click();
    await page.getByRole('dialog').getByText('/password-reset/').waitFor();
    await page.waitForTimeout(400); // the modal's fade-in
    await shot(page, 'mailers-06-outbox-message');
    await context.close();
  });
});

describe('settings screens', () => {
  it('saves KPI targets after refusing a percentage over 100', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/kpi_settings`);
    await page.getByRole('heading', { name: 'KPI settings', level: 1 }).waitFor();
    const critical = page.getByLabel(/critical potential/);
    await critical.fill('120');
    await page.getByRole('button', { name: 'Save targets' }).click();
    await page.getByText('Enter a percentage between 0 and 100.').waitFor();
    await critical.fill('95');
    await page.getByLabel(/^LTIFR target/).fill('0.8');
    await page.getByRole('button', { name: 'Save targets' }).click();
    await page.getByText('KPI targets saved.').waitFor();
    await shot(page, 'settings-01-kpi');
    await page.reload();
    await page.getByRole('heading', { name: 'KPI settings', level: 1 }).waitFor();
    await page.getByLabel(/^LTIFR target/).waitFor();
    await expect.poll(() => page.getByLabel(/^LTIFR target/).inputValue()).toBe('0.8');
    await context.close();
  });

  it('adds an EHS operational control procedure', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/ehs-ocp`);
    await page.getByRole('heading', { name: 'EHS operational control procedures', level: 1 }).waitFor();
    await page.getByText('No procedures yet.').waitFor();
    await page.getByRole('button', { name: 'New procedure' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.getByText('This field is required.').first().waitFor();
    await dialog.getByLabel(/^Code/).fill('OCP-HW-01');
    await dialog.getByLabel(/^Title/).fill('Hot work control');
    await dialog.getByLabel('Description').fill('Permit, gas test and fire watch for any hot work.');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Procedure added.').waitFor();
    await page.getByRole('cell', { name: 'Hot work control' }).waitFor();
    await shot(page, 'settings-02-ehs-ocp');
    await context.close();
  });

  it('lets a user turn off an optional e-mail, not a mandatory one', async () => {
    const { context, page } = await adminPage();
    await page.goto(`${server.origin('demo')}/emailsubscription`);
    await page.getByRole('heading', { name: 'E-mail subscriptions', level: 1 }).waitFor();
    expect(await page.getByLabel('User invited').isDisabled()).toBe(true);
    await page.getByLabel('Action overdue').uncheck();
    await page.getByRole('button', { name: 'Save subscriptions' }).click();
    await page.getByText('Your e-mail subscriptions are saved.').waitFor();
    await shot(page, 'settings-03-subscriptions');
    await page.reload();
    await page.getByLabel('Action overdue').waitFor();
    expect(await page.getByLabel('Action overdue').isChecked()).toBe(false);
    await context.close();
  });
});

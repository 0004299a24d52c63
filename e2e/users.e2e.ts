import ExcelJS from 'exceljs';
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

async function signedIn(
  email: string,
  options: { width?: number; password?: string } = {},
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: options.width ?? 1280, height: 800 }, locale: 'en-GB' });
  const page = await context.newPage();
  await page.goto(`${server.origin('demo')}/login`);
  await page.getByLabel('E-mail').fill(email);
  await page.getByLabel(/^Password/).fill(options.password ?? PASSWORD);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((u) => !u.pathname.startsWith('/login'));
  return { context, page };
}

async function pick(page: Page, scope: Page | ReturnType<Page['getByRole']>, label: string, option: string) {
  await scope
    .getByRole('textbox', { name: new RegExp(`^${label}`) })
    .or(scope.getByLabel(new RegExp(`^${label}`)))
    .first()
    .click();
  await page.getByRole('option', { name: option }).first().click();
}

describe('users administration', () => {
  it('an admin invites a user, the person activates the account from the e-mail, and shows as verified', async () => {
    const { context, page } = await signedIn('admin@demo.test');
    await page.goto(`${server.origin('demo')}/users`);
    const table = page.getByRole('table', { name: 'Users' });
    await table.getByRole('row', { name: /admin@demo\.test/ }).waitFor();
    await shot(page, 'users-01-list');

    await page.getByRole('button', { name: 'New user' }).click();
    const dialog = page.getByRole('dialog', { name: 'Invite a user' });
    await dialog.getByLabel('E-mail').fill('new.hire@demo.test');
    await dialog.getByLabel('Full name').fill('Nadia 2000');
    await dialog.getByLabel('Phone').fill('+44 12');
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    await dialog.getByText('Use letters only.').waitFor();
    await dialog.getByText('Invalid phone number.').waitFor();
    await dialog.getByText('Select a user role.').waitFor();
    await shot(page, 'users-02-invite-errors');

    await dialog.getByLabel('Full name').fill('Nadia Hassan');
    await dialog.getByLabel('Phone').fill('+44 20 7946 0958');
    await pick(page, dialog, 'Role', 'Safety observer');
    await dialog.getByRole('button', { name: 'Send the invitation' }).click();
    await page.getByText('Invitation sent to new.hire@demo.test.').waitFor();
    const row = table.getByRole('row', { name: /new\.hire@demo\.test/ });
    await row.getByText('Not verified').waitFor();
    await row.getByRole('button', { name: /Resend the activation link/ }).waitFor();
    await shot(page, 'users-03-invited');

    await page.goto(`${server.origin('demo')}/newusers`);
    await page
      .getByRole('table', { name: 'New users' })
      .getByRole('row', { name: /new\.hire@demo\.test/ })
      .waitFor();
    await expect
      .poll(() =>
        page
          .getByRole('table', { name: 'New users' })
          .getByRole('row', { name: /admin@demo\.test/ })
          .count(),
      )
      .toBe(0);
    await shot(page, 'users-04-newusers');

    // The invited person opens the e-mailed link and chooses a password.
    const mail = await latestMail(server.ownerUrl, 'new.hire@demo.test');
    const link = /(http\S+\/password-reset\/\S+)/.exec(mail)?.[1];
    expect(link).toBeTruthy();
    const guest = await browser.newContext({ viewport: { width: 360, height: 740 }, locale: 'en-GB' });
    const guestPage = await guest.newPage();
    await guestPage.goto(link!.replace(/^http:\/\/[^/]+/, server.origin('demo')));
    await guestPage.getByLabel(/^New password/).fill('Welcome#Aboard26');
    await guestPage.getByLabel('Repeat the new password').fill('Welcome#Aboard26');
    await guestPage.getByRole('button', { name: 'Set the password' }).click();
    await guestPage.waitForURL('**/login**');
    await guest.close();

    await page.goto(`${server.origin('demo')}/users`);
    await table
      .getByRole('row', { name: /new\.hire@demo\.test/ })
      .getByText('Verified', { exact: true })
      .waitFor();

    const person = await signedIn('new.hire@demo.test', { password: 'Welcome#Aboard26' });
    await person.context.close();
    await context.close();
  });

  it('shows the profile with licences and the permission matrix, and deactivates after confirming', async () => {
    const { context, page } = await signedIn('admin@demo.test');
    await page.goto(`${server.origin('demo')}/users`);
    await page.getByRole('link', { name: 'Nadia Hassan' }).click();
    await page.waitForURL('**/users/*/profile');
    await page.getByRole('heading', { name: 'Nadia Hassan', level: 1 }).waitFor();
    await page.getByRole('switch', { name: 'Permits' }).click();
    await page.getByText('Licence assigned.').waitFor();
    await expect.poll(() => page.getByRole('switch', { name: 'Permits' }).isChecked()).toBe(true);
    await shot(page, 'users-05-profile');

    await page.getByRole('link', { name: 'Permissions' }).click();
    await page.waitForURL('**/users/*/permission');
    await page.getByRole('heading', { name: 'Permissions of Nadia Hassan' }).waitFor();
    await page.getByRole('row', { name: /Incident/ }).waitFor();
    await shot(page, 'users-06-permission');

    await page.getByRole('main').getByRole('link', { name: 'Profile', exact: true }).click();
    await page.getByRole('button', { name: 'Deactivate' }).click();
    const confirm = page.getByRole('dialog', { name: 'Deactivate Nadia Hassan?' });
    await confirm.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByText('Nadia Hassan is now inactive.').waitFor();
    await page.getByRole('button', { name: 'Reactivate' }).waitFor();
    await expect.poll(() => page.getByRole('switch', { name: 'Permits' }).isChecked()).toBe(false);
    await context.close();
  });

  it('imports nothing from a workbook with a wrong row and lists the row, column and problem', async () => {
    const { context, page } = await signedIn('admin@demo.test', { width: 360 });
    await page.goto(`${server.origin('demo')}/users`);
    await page.getByRole('table', { name: 'Users' }).waitFor();
    await shot(page, 'users-07-list-phone');
    await page.getByRole('button', { name: 'Import from Excel' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import users from Excel' });
    const wb = new ExcelJS.Workbook();
    const ws = wb.addWorksheet('users');
    ws.addRow(['email', 'full_name', 'employee_id', 'phone', 'gender', 'shift', 'role', 'sites']);
    ws.addRow(['ok.person@demo.test', 'Ok Person', '', '', '', '', 'Safety observer', '']);
    ws.addRow(['broken', 'Broken Person', '', '', '', '', 'No such role', '']);
    const buffer = Buffer.from(await wb.xlsx.writeBuffer());
    await dialog
      .locator('input[type=file]')
      .setInputFiles({ name: 'users.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer });
    await dialog.getByRole('button', { name: 'Import' }).click();
    await dialog.getByText('Nothing was imported. Correct these rows and upload the file again.').waitFor();
    await dialog.getByRole('row', { name: /3 email Enter a valid e-mail address\./ }).waitFor();
    await dialog.getByRole('row', { name: /3 role No role has this name\./ }).waitFor();
    await shot(page, 'users-08-import-errors');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Import from Excel' }).waitFor();
    await page.goto(`${server.origin('demo')}/users?x=1`);
    await expect.poll(async () => page.getByText('ok.person@demo.test').count()).toBe(0);
    await context.close();
  });
});

import type { Browser, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { dayFromNow, tinyPng } from './files.js';
import { pickOption, shot, type RunningServer } from './support.js';

/** What the incident journey (incident-journey.e2e.ts) does on each screen, one helper per step. */

export const PASSWORD = 'Demo#2026!';
export const SITE = 'Lakeside Distribution Centre';
export const DESCRIPTION = 'Contractor caught his left hand between the conveyor belt and the return roller at dock 3.';
export const VICTIM = 'Marek Nowak';
export const ACTION_TAKEN = 'Belt stopped with the pull cord, first aid given, area taped off.';
export const ROOT_CAUSES = ['No guard fitted', 'Task never assessed'] as const;
export const CAPA = {
  corrective: 'Fit a fixed guard over the dock 3 return roller.',
  preventive: 'Assess every conveyor cleaning task and add lock-out to the procedure.',
};

/** The answer of the confirmation every submit, approval and close asks first. */
export async function confirm(page: Page, button = 'Confirm') {
  await page.getByRole('dialog').getByRole('button', { name: button, exact: true }).click();
}

/**
 * The incident review workflow of the demo, made a two-reviewer sequential one through the API as an
 * administrator would set it under Settings → Workflows: Dana Admin first, then Aisha Bello.
 */
export async function configureReview(server: RunningServer, email: string) {
  const base = `http://127.0.0.1:${server.port}`;
  const tenant = { 'x-tenant': 'demo', 'content-type': 'application/json' };
  const signIn = await fetch(`${base}/api/v1/authorize`, {
    method: 'POST',
    headers: tenant,
    body: JSON.stringify({ email, password: PASSWORD }),
  });
  expect(signIn.status).toBe(200);
  const session = (await signIn.json()) as { token: string; csrf: string };
  const headers = { ...tenant, authorization: `Bearer ${session.token}`, 'x-csrf-token': session.csrf };
  const list = (await (await fetch(`${base}/api/workflows?module=incidents`, { headers })).json()) as { workflows: { id: string }[] };
  const options = (await (await fetch(`${base}/api/workflows/options`, { headers })).json()) as { users: { id: string; email: string }[] };
  const id = (mail: string) => options.users.find((u) => u.email === mail)!.id;
  const patch = await fetch(`${base}/api/workflows/${list.workflows[0]!.id}`, {
    method: 'PATCH',
    headers,
    body: JSON.stringify({
      type: 'sequential',
      reviewer_ids: [id('admin@demo.test'), id('aisha.bello@demo.test')],
      escalation_user_id: null,
    }),
  });
  expect(patch.status).toBe(200);
}

/** A guest on a phone, signed out, reports an injured contractor; answers the serial the thanks names. */
export async function guestReports(browser: Browser, origin: string): Promise<string> {
  const context = await browser.newContext({ viewport: { width: 360, height: 800 }, locale: 'en-GB' });
  const guest = await context.newPage();
  await guest.goto(`${origin}/incident`);
  await guest.getByRole('heading', { name: /^Report an incident to / }).waitFor();
  await pickOption(guest, /^Type/, 'Injury');
  await guest.getByLabel(/^Description/).fill(DESCRIPTION);
  await pickOption(guest, /^Site/, SITE, 'Lakeside');
  await guest.getByLabel(/^Action taken/).fill(ACTION_TAKEN);
  await guest.locator('input[type=file]:not([capture])').setInputFiles({ name: 'roller.png', mimeType: 'image/png', buffer: tinyPng() });
  await guest
    .getByRole('listitem')
    .filter({ hasText: 'roller.png' })
    .getByText(/^\d+ B$/)
    .waitFor();

  const victim = guest.getByRole('group', { name: 'Victim 1' });
  await pickOption(guest, /^Victim type/, 'Contractor', undefined, victim);
  await victim.getByLabel(/^Name/).fill(VICTIM);
  await pickOption(guest, /^Gender/, 'Male', undefined, victim);
  await pickOption(guest, /^Age range/, '25–34', undefined, victim);
  // The body diagram by touch, then by keyboard: the arrow keys move, Space marks.
  await victim.getByRole('checkbox', { name: 'Left hand (Front)', exact: true }).click();
  await victim.getByRole('checkbox', { name: 'Left hand (Front)', exact: true }).press('ArrowDown');
  await guest.keyboard.press('Space');
  await expect
    .poll(() => victim.getByRole('checkbox', { name: 'Left fingers (Front)', exact: true }).getAttribute('aria-checked'), {
      timeout: 10_000,
    })
    .toBe('true');
  await victim.getByLabel(/^Injury details/).fill('Crushed left hand, two fingers cut.');
  await victim.getByRole('switch', { name: 'Taken to hospital' }).check();
  await guest.getByLabel(/^Your name/).fill('Sam Okafor');
  await shot(guest, 'incident-01-guest-form-phone');
  await guest.getByRole('button', { name: 'Submit report' }).click();
  await confirm(guest);
  const thanks = guest.getByRole('status').filter({ hasText: 'Thank you.' });
  await thanks.waitFor();
  const serial = /INC-\d{6}/.exec((await thanks.textContent()) ?? '')?.[0] ?? '';
  expect(serial).not.toBe('');
  await shot(guest, 'incident-02-guest-sent-phone');
  await context.close();
  return serial;
}

/** Step 1: the manager rates the report, says it is work-related and keeps the contractor's OSHA case. */
export async function rateReport(page: Page) {
  await page.getByRole('button', { name: 'Rate and complete the report' }).click();
  await pickOption(page, /^Severity/, /^Serious/);
  await pickOption(page, /^Likelihood/, 'Possible');
  await page
    .getByRole('radiogroup', { name: /^Work-related/ })
    .getByRole('radio', { name: 'Yes' })
    .check();
  const victim = page.getByRole('group', { name: 'Victim 1' });
  await victim.getByRole('switch', { name: /^Keep an OSHA case for this person/ }).check();
  const osha = victim.getByRole('group', { name: 'OSHA case' });
  await osha.getByLabel(/^Job title/).fill('Conveyor fitter');
  await osha.getByLabel(/^Days away from work/).fill('3');
  await osha.getByRole('checkbox', { name: 'Medical treatment beyond first aid' }).check();
  await osha.getByRole('checkbox', { name: 'Supervised by us day to day (contractor)' }).check();
  await osha.getByText('Outcome on the log: Days away from work').waitFor();
  await shot(page, 'incident-04-rating-and-osha');
  await page.getByRole('button', { name: 'Save report' }).click();
  await confirm(page);
  await page.getByText('Report saved.').waitFor();
}

/** Step 2: the manager leads, the supervisor is a member, the target date two weeks out. */
export async function formTeam(page: Page) {
  await pickOption(page, /^Team lead/, /Priya Nair/, 'Priya');
  await pickOption(page, /^Team members/, /Tomasz Kowalski/, 'Tomasz');
  await page.keyboard.press('Escape');
  await page.getByLabel(/^Target date/).fill(dayFromNow(14));
  await shot(page, 'incident-05-step2-team');
  await page.getByRole('button', { name: 'Form the team' }).click();
  await page.waitForURL(/\/steps\/step3$/);
}

export async function recordFacts(page: Page) {
  await page
    .getByRole('group', { name: 'Event 1' })
    .getByLabel(/^What happened/)
    .fill('Fitter reached under the running belt to clear spillage.');
  await page.getByRole('button', { name: 'Add a witness' }).click();
  const witness = page.getByRole('group', { name: 'Witness 1' });
  await witness.getByLabel(/^Witness/).fill('Jon Price');
  await witness.getByLabel(/^Statement/).fill('I heard a shout and pulled the stop cord.');
  await page.locator('input[type=file]:not([capture])').setInputFiles({ name: 'scene.png', mimeType: 'image/png', buffer: tinyPng() });
  await page
    .getByRole('listitem')
    .filter({ hasText: 'scene.png' })
    .getByText(/^\d+ B$/)
    .waitFor();
  await shot(page, 'incident-06-step3-facts');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.waitForURL(/\/steps\/step4$/);
}

export async function keyFactors(page: Page) {
  const first = page.getByRole('group', { name: 'Key factor 1' });
  await pickOption(page, /^Factor/, 'Machine', undefined, first);
  await first.getByLabel(/^What contributed/).fill('No guard over the return roller.');
  await page.getByRole('button', { name: 'Add a key factor' }).click();
  const second = page.getByRole('group', { name: 'Key factor 2' });
  await pickOption(page, /^Factor/, 'Method', undefined, second);
  await second.getByLabel(/^What contributed/).fill('Belt cleaned while running.');
  await shot(page, 'incident-07-step4-factors');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.waitForURL(/\/steps\/step5$/);
}

async function analyse(page: Page, group: Locator, whys: string[], cause: string) {
  for (const [i, why] of whys.entries()) {
    if (i > 0) await group.getByRole('button', { name: 'Ask why again' }).click();
    await group.getByLabel(new RegExp(`^Why\\? \\(${i + 1}\\)`)).fill(why);
  }
  await pickOption(page, /^Root causes/, new RegExp(cause), cause.slice(0, 10), group);
  await page.keyboard.press('Escape');
}

export async function whyWhy(page: Page) {
  await analyse(
    page,
    page.getByRole('group', { name: 'Analysis of key factor 1' }),
    ['The roller was never guarded.', 'The conveyor was bought without a guard kit.'],
    ROOT_CAUSES[0],
  );
  await analyse(page, page.getByRole('group', { name: 'Analysis of key factor 2' }), ['Nobody assessed belt cleaning.'], ROOT_CAUSES[1]);
  await shot(page, 'incident-08-step5-why');
  await page.getByRole('button', { name: 'Save and continue' }).click();
  await page.waitForURL(/\/steps\/step6$/);
}

export async function raiseCapa(page: Page) {
  for (const [kind, text, control] of [
    ['Corrective', CAPA.corrective, 'Engineering controls'],
    ['Preventive', CAPA.preventive, 'Administrative controls'],
  ] as const) {
    await page.getByRole('button', { name: `Add a ${kind} action` }).click();
    const row = page.getByRole('group', { name: `${kind} action 1` });
    await row.getByLabel(/^Description/).fill(text);
    await pickOption(page, /^Control type/, control, undefined, row);
    // What each field shows once picked: the next pick starts only after the previous one has settled.
    await expect.poll(() => row.getByRole('combobox', { name: /^Control type/ }).inputValue(), { timeout: 10_000 }).toBe(control);
    // The whole row in view first, as one looks at it: a picker opened at the very bottom of the window
    // makes the click on its option scroll the page while the list is still being placed. Then typed,
    // and picked from this field's own list once it shows filtered (the other pickers' lists stay in
    // the page, hidden).
    await row.scrollIntoViewIfNeeded();
    const person = row.getByRole('combobox', { name: /^Responsible person/ });
    await person.click();
    await person.fill('Tomasz');
    const people = page.getByRole('listbox', { name: /^Responsible person/ });
    await expect.poll(() => people.getByRole('option').count(), { timeout: 10_000 }).toBe(1);
    await people.getByRole('option', { name: /Tomasz Kowalski/ }).click();
    await expect
      .poll(() => row.getByRole('combobox', { name: /^Responsible person/ }).inputValue(), { timeout: 10_000 })
      .toContain('Tomasz Kowalski');
    await row.getByLabel(/^Due date/).fill(dayFromNow(10));
  }
  await shot(page, 'incident-09-step6-capa');
  await page.getByRole('button', { name: 'Raise the actions (2)' }).click();
  await page.getByText('Actions raised: 2.').waitFor();
}

/** The supervisor, in a browser of his own, starts and completes one CAPA action from the actions list. */
export async function completeAction(page: Page, description: string) {
  const open = page
    .locator('tr, li')
    .filter({ hasText: description })
    .getByRole('link', { name: /^Open action #\d+$/ });
  await open.waitFor({ timeout: 15_000 });
  await open.click();
  const work = page.getByRole('dialog').first();
  await work.getByText(description).waitFor();
  await work.getByRole('button', { name: 'Start' }).click();
  // A toast of the previous action may still show: the panel's own status tells this one was started.
  await page.getByText('The action was started.').last().waitFor();
  await work.getByText('In progress', { exact: true }).first().waitFor();
  await work.getByRole('button', { name: 'Mark completed' }).click();
  const complete = page.getByRole('dialog', { name: /^Complete action #\d+$/ });
  await complete.getByLabel('Remarks').fill(`Done: ${description}`);
  await complete.getByRole('button', { name: 'Mark completed' }).click();
  await page.getByText('The action was marked completed.').last().waitFor();
  // The dialog closes once the panel has refetched; Escape before that would only close the dialog.
  await complete.waitFor({ state: 'hidden' });
  await work.getByText('Completed', { exact: true }).first().waitFor();
  await page.keyboard.press('Escape');
  await work.waitFor({ state: 'hidden' });
}

/** A reviewer opens step 7 in a browser of their own and decides; a rejection gives its reason. */
export async function decide(page: Page, path: string, approve: boolean, reason?: string) {
  await page.goto(path);
  const panel = page.getByRole('region', { name: 'Review' });
  await panel.getByRole('button', { name: approve ? 'Approve' : 'Reject', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: approve ? 'Approve this record?' : 'Reject this record?' });
  if (reason) await dialog.getByLabel(approve ? /^Comment/ : /^Reason for the rejection/).fill(reason);
  await dialog.getByRole('button', { name: approve ? 'Approve' : 'Reject', exact: true }).click();
  await page
    .getByText(approve ? 'Approved.' : 'Rejected.', { exact: true })
    .first()
    .waitFor();
}

import type { Browser, Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { latestMailWithAttachments, runSchedulesJobOnStartDay } from './audit-steps.js';
import { dayFromNow, expectNoOverflow, markDocument, sameDocument, tinyPng } from './files.js';
import { pathOf, PASSWORD } from './permit-steps.js';
import { pickOption, shot, signedInPage, withProduct, type RunningServer } from './support.js';

/**
 * Issue 17, "done means": an admin builds a scored template with a conditional child question and a
 * critical question; schedules it monthly for a site with an auditor; time moves forward and the job
 * makes the audit; the auditor runs it on a phone, answers with a photo, fails the critical question
 * (the site's head of safety is told), records a key finding that becomes an action and completes it;
 * the approver rejects it with a reason, the auditor corrects it and completes it again, the approver
 * approves; the report's scorecard shows the answers, and the e-mailed report arrives with its PDF.
 */

/** The administrator: head of safety of every demo site, and the audits' approver. */
const ADMIN = 'admin@demo.test';
const AUDITOR = 'priya.nair@demo.test';
const SITE = 'Riverside Manufacturing Plant';
const TEMPLATE = 'Loading bay audit';
const SECTION = 'Dock and vehicles';
const GUARDS = 'Are the dock leveller guards in place?';
const MISSING = 'Which guard is missing?';
const CHOCKS = 'Are wheel chocks used on every trailer?';
const PHOTO = 'Photo of the loading bay';
const FINDING = 'Refit the guard of dock leveller 3 before the next delivery.';
const REASON = 'The guards were refitted this morning: check them again and correct the answer.';
const OUTSIDE = 'logistics.contractor@example.test';

let server: RunningServer;
let browser: Browser;
withProduct((s, b) => {
  server = s;
  browser = b;
});
const origin = () => server.origin('demo');

/** Shared between the steps: they run in order, each one the next part of the journey. */
const journey = { auditId: '', serial: '' };

const question = (page: Page, label: string) => page.locator(`section[data-question="${label}"]`);
/** Chooses an answer as a finger does: on the chip's label (its radio button is visually hidden). */
async function choose(scope: Locator, label: string, choice: string) {
  const group = scope.getByRole('radiogroup', { name: label });
  await group.getByText(choice, { exact: true }).click();
  await expect.poll(() => group.getByRole('radio', { name: choice, exact: true }).isChecked()).toBe(true);
}
const answer = (page: Page, label: string, choice: string) => choose(question(page, label), label, choice);

async function openRecord(page: Page) {
  await page.goto(`${origin()}/audits/${journey.auditId}/summary`);
  await page.getByRole('heading', { name: `${journey.serial} · ${TEMPLATE}`, level: 1 }).waitFor();
}

/** Completes the audit from its last section, behind its confirmation. */
async function complete(page: Page) {
  await page.getByRole('status').filter({ hasText: 'Every answer is saved' }).waitFor();
  await page.getByRole('button', { name: 'Complete', exact: true }).click();
  const dialog = page.getByRole('dialog', { name: 'Complete the audit' });
  await dialog.getByText('Once completed, the audit goes to review and its answers can no longer be changed.').waitFor();
  await dialog.getByRole('button', { name: 'Complete', exact: true }).click();
  await page.getByText(`Audit ${journey.serial} completed and sent for review.`).waitFor();
}

async function decide(page: Page, verdict: 'Approve' | 'Reject', text: string) {
  const review = page.getByRole('region', { name: 'Review' });
  await review.getByRole('button', { name: verdict, exact: true }).click();
  const dialog = page.getByRole('dialog', { name: verdict === 'Approve' ? 'Approve this record?' : 'Reject this record?' });
  await dialog.getByLabel(verdict === 'Approve' ? 'Comment (optional)' : /^Reason for the rejection/).fill(text);
  await dialog.getByRole('button', { name: verdict, exact: true }).click();
  await page
    .getByText(verdict === 'Approve' ? 'Approved.' : 'Rejected.', { exact: true })
    .first()
    .waitFor();
}

describe('the audit journey of issue 17', () => {
  it('an admin builds a scored template with a critical question, a conditional child question and a photo', async () => {
    const { context, page } = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    await page.goto(`${origin()}/audit-forms`);
    await page.getByRole('heading', { name: 'Audit templates', level: 1 }).waitFor();
    // The demo's own templates are there already.
    await page.getByRole('link', { name: 'Monthly site safety inspection' }).waitFor();
    await page.getByRole('button', { name: 'New template' }).click();
    const create = page.getByRole('dialog', { name: 'New template' });
    await create.getByLabel(/^Name/).fill(TEMPLATE);
    await create.getByLabel(/^Description/).fill('Docks, levellers and vehicles at the loading bay.');
    expect(await create.getByRole('switch', { name: /^Scoring/ }).isChecked()).toBe(true);
    await create.getByRole('button', { name: 'Create' }).click();
    await page.waitForURL(/\/audit-forms\/[0-9a-f-]{36}$/);
    await page.getByRole('heading', { name: TEMPLATE, level: 1 }).waitFor();

    // A new template starts with one section named after it: the admin renames it.
    await page.getByRole('button', { name: `Section ${TEMPLATE}: more` }).click();
    await page.getByRole('menuitem', { name: 'Rename' }).click();
    const rename = page.getByRole('textbox', { name: 'Section name' });
    await rename.fill(SECTION);
    await rename.press('Enter');
    const section = page.locator(`[data-section="${SECTION}"]`);
    await section.waitFor();

    const addQuestion = async (type: string, label: string, fill: (dialog: Locator) => Promise<void>) => {
      await section.getByRole('button', { name: 'Add a question' }).click();
      const dialog = page.getByRole('dialog', { name: 'New question' });
      await pickOption(page, 'Answered with', type, undefined, dialog);
      await dialog.getByLabel(/^Question/).fill(label);
      await fill(dialog);
      await dialog.getByRole('button', { name: 'Save', exact: true }).click();
      await dialog.waitFor({ state: 'detached' });
      // The label, with the asterisk of a required question after it.
      await section.getByRole('listitem').filter({ hasText: label }).first().waitFor();
    };
    // Worth 2 points, compliant when "Yes"; critical: a "No" tells the site's head of safety at once.
    await addQuestion('Yes / No / NA', GUARDS, async (d) => {
      await d.getByLabel(/^Points/).fill('2');
      await d.getByRole('switch', { name: /^Critical/ }).check();
    });
    // Asked only when the guards are not in place.
    await addQuestion('Text', MISSING, async (d) => {
      await pickOption(page, 'Only after the answer to', new RegExp(GUARDS.replace('?', '\\?')), undefined, d);
      await pickOption(page, /^Is$/, 'No', undefined, d);
    });
    await addQuestion('Yes / No / NA', CHOCKS, async () => {});
    await addQuestion('Photo', PHOTO, async () => {});
    await section.getByText(`Shown when “${GUARDS}” is answered No`).waitFor();
    await page.getByText('Up to 3 points').first().waitFor();

    // The preview asks the child question only once "No" is chosen.
    const preview = page.getByRole('region', { name: 'Preview' });
    await preview.getByText(GUARDS).waitFor();
    expect(await preview.getByText(MISSING).count()).toBe(0);
    await choose(preview, GUARDS, 'No');
    await preview.getByText(MISSING).waitFor();
    await shot(page, 'audits-01-builder');
    await context.close();
  });

  it('the admin schedules it monthly at a site with an auditor; when its day comes the job makes the audit', async () => {
    const admin = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    const page = admin.page;
    await page.goto(`${origin()}/audit-schedules`);
    await page.getByRole('heading', { name: 'Audit schedules', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Schedule audits' }).first().click();
    const dialog = page.getByRole('dialog', { name: 'Schedule audits' });
    await pickOption(page, /^Template/, TEMPLATE, 'Loading bay', dialog);
    await pickOption(page, /^Sites/, SITE, 'Riverside', dialog);
    await page.keyboard.press('Escape');
    await pickOption(page, /^Auditor/, /^Priya Nair/, 'Priya', dialog);
    await pickOption(page, /^Frequency/, 'Monthly', undefined, dialog);
    // It starts in three days: nothing is due yet.
    await dialog.getByLabel(/^Start date/).fill(dayFromNow(3));
    await shot(page, 'audits-02-schedule');
    await dialog.getByRole('button', { name: 'Schedule', exact: true }).click();
    await page.getByText('Schedule saved; its audits due today are made.').waitFor();
    const row = page.getByRole('row').filter({ hasText: TEMPLATE });
    await row.getByText('0 audits made').waitFor();
    await admin.context.close();

    // The auditor keeps the list of her audits to start open, on her phone.
    const auditor = await signedInPage(browser, origin(), AUDITOR, PASSWORD, 360);
    const phone = auditor.page;
    await phone.goto(`${origin()}/audits/scheduled`);
    await phone.getByRole('heading', { name: 'Audits', level: 1 }).waitFor();
    expect(await phone.getByRole('row').filter({ hasText: TEMPLATE }).count()).toBe(0);
    await markDocument(phone);
    await runSchedulesJobOnStartDay(server, TEMPLATE);
    const made = phone.getByRole('row').filter({ hasText: TEMPLATE });
    await made.waitFor({ timeout: 30_000 });
    expect(await sameDocument(phone)).toBe(true);
    await made.getByText(SITE).first().waitFor();
    await expectNoOverflow(phone);
    await shot(phone, 'audits-03-made-by-the-job-phone');
    const link = made.getByRole('link', { name: /^AUD-\d+$/ });
    journey.serial = (await link.textContent()) ?? '';
    await link.click();
    await phone.waitForURL(/\/audits\/[0-9a-f-]{36}\/summary$/);
    journey.auditId = pathOf(phone).split('/')[2]!;
    await auditor.context.close();
  });

  it('the auditor runs it on a phone: a photo, the critical question failed, a key finding, completed', async () => {
    const { context, page } = await signedInPage(browser, origin(), AUDITOR, PASSWORD, 360);
    await openRecord(page);
    await page.getByRole('toolbar', { name: 'What you can do' }).getByRole('button', { name: 'Start the audit' }).click();
    await page.waitForURL(`**/audits/${journey.auditId}/audit/1`);
    await page.getByRole('heading', { name: SECTION, level: 2 }).waitFor();

    // The guards are missing: the critical question fails, the child question appears.
    expect(await question(page, MISSING).count()).toBe(0);
    await answer(page, GUARDS, 'No');
    await page.getByText('Critical failure: the site’s head of safety has been told.').waitFor();
    await question(page, GUARDS).getByText('Critical question failed').waitFor();
    await question(page, MISSING).getByRole('textbox', { name: MISSING }).fill('The side guard of leveller 3.');
    await answer(page, CHOCKS, 'Yes');
    await question(page, PHOTO)
      .getByLabel(`Photo for: ${PHOTO}`)
      .setInputFiles({ name: 'loading-bay.png', mimeType: 'image/png', buffer: tinyPng() });
    await question(page, PHOTO).getByRole('img', { name: 'loading-bay.png' }).waitFor();
    await page.getByText('4 of 4 questions answered').first().waitFor();

    // A key finding from the failed question: it becomes an action of the audit.
    await question(page, GUARDS).getByRole('button', { name: 'Raise a key finding' }).click();
    const finding = page.getByRole('dialog', { name: 'Add key findings' });
    await finding.getByLabel(/^Description/).fill(FINDING);
    await pickOption(page, /^Control type/, 'Engineering controls', undefined, finding);
    await pickOption(page, /^Responsible/, 'Tomasz Kowalski', 'Tomasz', finding);
    await finding.getByLabel(/^Due date/).fill(dayFromNow(7));
    await expectNoOverflow(page);
    await shot(page, 'audits-04-finding-phone');
    await finding.getByRole('button', { name: 'Record the findings' }).click();
    await page.getByText('Key findings recorded; each is now an action.').waitFor();
    await page.getByRole('link', { name: '1 key finding recorded' }).waitFor();
    await expectNoOverflow(page);
    await shot(page, 'audits-05-run-phone');

    await complete(page);
    await context.close();
  });

  it('the head of safety was told of the critical failure, and the key finding is an audit action', async () => {
    const { context, page } = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    await page.getByRole('button', { name: /^Notifications/ }).click();
    const note = page.getByRole('dialog').getByRole('listitem').filter({ hasText: 'Critical question failed' }).first();
    await note.waitFor();
    await shot(page, 'audits-06-critical-notification');
    await note.getByRole('link', { name: /^Open:/ }).click();
    await expect.poll(() => pathOf(page)).toContain(`/audits/${journey.auditId}`);
    await page.getByRole('heading', { name: `${journey.serial} · ${TEMPLATE}`, level: 1 }).waitFor();

    await page.goto(`${origin()}/actions/audits`);
    await page.getByText(FINDING).first().waitFor();
    await openRecord(page);
    await page
      .getByRole('navigation', { name: 'Pages of this audit' })
      .getByRole('link', { name: /^Action items/ })
      .click();
    await page.getByRole('region', { name: 'Action items' }).getByText(FINDING).waitFor();
    await context.close();
  });

  it('the approver rejects it with a reason; the auditor corrects it and completes it again; the approver approves', async () => {
    const approver = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    await openRecord(approver.page);
    await decide(approver.page, 'Reject', REASON);
    await shot(approver.page, 'audits-07-rejected');
    await approver.context.close();

    const auditor = await signedInPage(browser, origin(), AUDITOR, PASSWORD, 360);
    const page = auditor.page;
    await openRecord(page);
    // She sees why, in the review of her audit.
    const review = page.getByRole('region', { name: 'Review' });
    await review.getByText('Rejected', { exact: true }).first().waitFor();
    await review.getByRole('list', { name: 'Reviewers' }).getByText(REASON).waitFor();
    await page.getByRole('toolbar', { name: 'What you can do' }).getByRole('button', { name: 'Take it up again' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Take it up again' }).click();
    await page.waitForURL(`**/audits/${journey.auditId}/audit/1`);
    await answer(page, GUARDS, 'Yes');
    await question(page, MISSING).waitFor({ state: 'detached' });
    await page.getByText('3 of 3 questions answered').first().waitFor();
    await expectNoOverflow(page);
    await complete(page);
    await auditor.context.close();

    const again = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    await openRecord(again.page);
    await decide(again.page, 'Approve', 'Guards in place.');
    await again.page.getByText('Approved', { exact: true }).first().waitFor();
    await again.context.close();
  });

  it('the report’s scorecard shows the answers, and the report e-mailed from it arrives with its PDF', async () => {
    const { context, page } = await signedInPage(browser, origin(), ADMIN, PASSWORD);
    await page.goto(`${origin()}/audits/${journey.auditId}/report`);
    const scorecard = page.getByRole('region', { name: 'Scorecard' });
    await scorecard.getByText('3 of 3 points').first().waitFor();
    const responses = page.getByRole('region', { name: 'Responses' });
    await responses.getByText(GUARDS).waitFor();
    await responses.getByText(CHOCKS).waitFor();
    // The corrected answer, not the first one; the child question is no longer asked.
    expect((await responses.textContent())?.replace(/\s+/g, ' ')).toMatch(
      /1\.1 Are the dock leveller guards in place\?.*Yes.*1\.2 Are wheel chocks/,
    );
    expect(await responses.getByText(MISSING).count()).toBe(0);
    await responses.getByRole('img', { name: 'loading-bay.png' }).waitFor();
    await shot(page, 'audits-08-report');

    await page.getByRole('button', { name: 'E-mail the report' }).click();
    const dialog = page.getByRole('dialog', { name: `E-mail the report of ${journey.serial}` });
    const emails = dialog.getByLabel(/^Other e-mail addresses/);
    await emails.fill(OUTSIDE);
    await emails.press('Enter');
    await dialog.getByRole('button', { name: 'Send the report' }).click();
    // Sending is confirmed first.
    const confirm = page.getByRole('dialog').filter({ hasText: `Send the report of ${journey.serial} to 1 recipient?` });
    await confirm.getByRole('button', { name: 'Send the report' }).click();
    await page.getByText('Report sent to 1 recipient.').waitFor();
    await context.close();

    const mail = await latestMailWithAttachments(server, OUTSIDE);
    expect(mail?.body).toContain(journey.serial);
    expect(mail?.attachments).toEqual([expect.objectContaining({ file_name: `${journey.serial}.pdf`, mime_type: 'application/pdf' })]);
    expect(mail!.attachments[0]!.size_bytes).toBeGreaterThan(1000);
  });
});

import type { Browser, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { downloaded, expectNoOverflow, fold, markDocument, pdfText, sameDocument, sheetRows } from './files.js';
import {
  ACTION_TAKEN,
  CAPA,
  completeAction,
  configureReview,
  confirm,
  decide,
  DESCRIPTION,
  formTeam,
  guestReports,
  keyFactors,
  PASSWORD,
  raiseCapa,
  rateReport,
  recordFacts,
  ROOT_CAUSES,
  SITE,
  VICTIM,
  whyWhy,
} from './incident-steps.js';
import { latestMail, type RunningServer, shot, signedInPage, withProduct } from './support.js';

const MANAGER = 'priya.nair@demo.test';
const SUPERVISOR = 'tomasz.kowalski@demo.test';
const FIRST_REVIEWER = 'admin@demo.test';
const SECOND_REVIEWER = 'aisha.bello@demo.test';
const CONCLUSION = 'An unguarded return roller and an unassessed cleaning task let a hand reach the nip point.';
const REJECTION = 'Say who approved cleaning the belt while it ran.';
const CLOSING = 'Guard fitted, procedure rewritten, every fitter briefed.';
const OUTSIDE = 'insurer@broker.test';

let server: RunningServer;
let browser: Browser;
withProduct((s, b) => {
  server = s;
  browser = b;
});

const origin = () => server.origin('demo');
const stepLink = (page: Page, name: string) =>
  page.getByRole('navigation', { name: 'Investigation steps' }).getByRole('link', { name: new RegExp(`^${name}`) });

describe('the incident journey of issue 14', () => {
  // Five people and some forty screens: far beyond the e2e project's two minutes per test.
  it('guest report on a phone → live → rated → investigated in seven steps → CAPA done elsewhere → two-reviewer review with a rejection → closed → PDF and OSHA 300', async () => {
    await configureReview(server, FIRST_REVIEWER);
    const manager = await signedInPage(browser, origin(), MANAGER, PASSWORD);
    const mgr = manager.page;
    await mgr.goto(`${origin()}/incidents`);
    await mgr.getByRole('table', { name: 'Incidents' }).waitFor();
    await markDocument(mgr);
    const supervisor = await signedInPage(browser, origin(), SUPERVISOR, PASSWORD);
    const sup = supervisor.page;
    await sup.goto(`${origin()}/actions/all`);
    await sup.getByRole('heading', { name: 'All actions', level: 1 }).waitFor();

    // 1. A guest reports an injured contractor from a phone, signed out.
    const serial = await guestReports(browser, origin());

    // 2. It arrives on the manager's list without a reload, still to be rated.
    const row = mgr.getByRole('row').filter({ hasText: serial });
    await row.waitFor({ timeout: 15_000 });
    expect(await sameDocument(mgr)).toBe(true);
    await row.getByText('Rating pending').waitFor();
    await shot(mgr, 'incident-03-list-arrived');
    await row.getByRole('link', { name: serial }).click();
    await mgr.waitForURL(/\/incidents\/[0-9a-f-]{36}\/steps\/step2$/);
    const id = /incidents\/([0-9a-f-]{36})\//.exec(mgr.url())![1]!;
    const step = (n: number) => `${origin()}/incidents/${id}/steps/step${n}`;
    await stepLink(mgr, 'Team formation').waitFor();

    // 3. Step 1: rated, work-related, the contractor's OSHA case kept.
    await stepLink(mgr, 'Initial response and report').click();
    await mgr.getByText(DESCRIPTION).waitFor();
    await rateReport(mgr);
    await mgr.getByText('Serious', { exact: true }).first().waitFor();
    expect(await mgr.getByText('Rating pending').count()).toBe(0);

    // 4–8. Steps 2 to 6, each saved moves on to the next.
    await stepLink(mgr, 'Team formation').click();
    await formTeam(mgr);
    await recordFacts(mgr);
    await keyFactors(mgr);
    await whyWhy(mgr);
    await raiseCapa(mgr);
    const capa = (text: string) => mgr.getByRole('listitem').filter({ hasText: text });
    await capa(CAPA.corrective).getByText('Open', { exact: true }).waitFor();

    // 9. The supervisor finds both on his home among his work, completes them from the actions list;
    // the manager's open step follows live.
    await sup.goto(`${origin()}/`);
    // The home lists only his five most pressing actions (overdue first, then by due date): the seeded ones
    // due sooner come first, so of the two new ones, due the same day, the first raised is the one shown.
    const mine = sup.getByRole('region', { name: 'My actions' });
    await mine.getByRole('link', { name: CAPA.corrective }).waitFor();
    await shot(sup, 'incident-09b-supervisor-home');
    await sup.goto(`${origin()}/actions/all`);
    await completeAction(sup, CAPA.corrective);
    await completeAction(sup, CAPA.preventive);
    await capa(CAPA.corrective).getByText('Completed', { exact: true }).waitFor({ timeout: 15_000 });
    await capa(CAPA.preventive).getByText('Completed', { exact: true }).waitFor({ timeout: 15_000 });
    expect(await sameDocument(mgr)).toBe(true);

    // 10. Step 7: the conclusion, then submitted to the two-reviewer sequential workflow.
    await stepLink(mgr, 'Record and communicate').click();
    await mgr.getByLabel(/^Conclusion/).fill(CONCLUSION);
    await mgr.getByRole('button', { name: 'Save the conclusion' }).click();
    await mgr.getByText('Saved.').first().waitFor();
    await mgr.getByRole('button', { name: 'Submit for review' }).click();
    await confirm(mgr, 'Submit for review');
    await mgr.getByText('The investigation was submitted for review.').waitFor();
    const review = mgr.getByRole('region', { name: 'Review' });
    await review.getByText('Dana Admin').waitFor();
    await review.getByText('Aisha Bello').waitFor();
    await shot(mgr, 'incident-10-step7-submitted');

    // 11. The first reviewer sends it back with a reason; the lead resubmits; both approve in order.
    const first = await signedInPage(browser, origin(), FIRST_REVIEWER, PASSWORD);
    await decide(first.page, step(7), false, REJECTION);
    // The reason shows on the reviewer's line and in the timeline: the line says who gave it.
    await review
      .getByRole('list', { name: 'Reviewers' })
      .getByRole('listitem')
      .filter({ hasText: 'Dana Admin' })
      .getByText(REJECTION)
      .waitFor({ timeout: 15_000 });
    await review.getByText(REJECTION).nth(1).waitFor();
    await mgr.getByText('Returned', { exact: true }).first().waitFor();
    await mgr.getByLabel(/^Conclusion/).fill(`${CONCLUSION} The shift lead allowed running cleaning.`);
    await mgr.getByRole('button', { name: 'Save the conclusion' }).click();
    await mgr.getByRole('button', { name: 'Submit for review' }).click();
    await confirm(mgr, 'Submit for review');
    await mgr.getByText('The investigation was submitted for review.').waitFor();
    await decide(first.page, step(7), true);
    await shot(first.page, 'incident-11-first-reviewer-approved');
    await first.context.close();
    const second = await signedInPage(browser, origin(), SECOND_REVIEWER, PASSWORD);
    await decide(second.page, step(7), true);
    await second.context.close();
    await mgr.getByText('Approved', { exact: true }).first().waitFor({ timeout: 15_000 });

    // 12. Closed after confirming, and the report sent to a member and an outside address.
    await mgr.getByRole('button', { name: 'Close incident' }).click();
    const closing = mgr.getByRole('dialog', { name: 'Close incident' });
    await closing.getByText('Close this incident? It can no longer be changed afterwards.').waitFor();
    await closing.getByLabel(/^Closing remarks/).fill(CLOSING);
    await closing.getByRole('button', { name: 'Close incident' }).click();
    await mgr.getByText(`Incident ${serial} closed.`).waitFor();
    await mgr.getByRole('combobox', { name: /^Other e-mail addresses/ }).fill(OUTSIDE);
    await mgr.keyboard.press('Enter');
    await mgr.getByRole('button', { name: 'Send the report' }).click();
    await confirm(mgr, 'Send the report');
    await mgr.getByText('Report sent to 1 recipient(s).').waitFor();
    expect(await latestMail(server.ownerUrl, OUTSIDE)).toContain(serial);
    await shot(mgr, 'incident-12-closed-and-sent');

    // 13. The PDF holds what was entered.
    const pdf = await downloaded(mgr, () => mgr.getByRole('button', { name: 'Download PDF' }).click());
    expect(pdf.bytes.subarray(0, 5).toString('latin1')).toBe('%PDF-');
    const text = await pdfText(pdf.bytes);
    for (const expected of [
      serial,
      DESCRIPTION,
      ACTION_TAKEN,
      VICTIM,
      ...ROOT_CAUSES,
      CAPA.corrective,
      CAPA.preventive,
      CLOSING,
      REJECTION,
      'Priya Nair',
    ])
      expect(text).toContain(fold(expected));

    // 14. The printable report, then the OSHA 300 log of the site and year: the case, named, with its days.
    await mgr.goto(`${origin()}/incidents/${id}/report`);
    await mgr.getByRole('heading', { name: `Incident report ${serial}` }).waitFor();
    await shot(mgr, 'incident-13-printable-report');
    await mgr.goto(`${origin()}/incidents/osha`);
    await mgr.getByRole('heading', { name: 'OSHA injury and illness records', level: 1 }).waitFor();
    const log = mgr.getByRole('table', { name: 'OSHA Form 300' });
    const caseRow = log.getByRole('row').filter({ hasText: VICTIM });
    if ((await mgr.getByRole('combobox', { name: 'Establishment' }).inputValue()) !== SITE) {
      await mgr.getByRole('combobox', { name: 'Establishment' }).click();
      await mgr.getByRole('option', { name: SITE }).click();
    }
    await caseRow.waitFor();
    await caseRow.getByText('Conveyor fitter').waitFor();
    expect(await caseRow.getByRole('cell', { name: 'Days away from work' }).count()).toBe(1);
    await shot(mgr, 'incident-14-osha-300');
    const sheet = await downloaded(mgr, () => mgr.getByRole('button', { name: 'Export to Excel' }).click());
    expect((await sheetRows(sheet.bytes)).some((r) => r.includes(VICTIM))).toBe(true);
    const log300 = await downloaded(mgr, () => mgr.getByRole('button', { name: 'Download PDF' }).click());
    expect(await pdfText(log300.bytes)).toContain(VICTIM);
    await mgr.getByRole('tab', { name: /^Form 300A/ }).click();
    await mgr.getByText('Total number of cases with days away from work').waitFor();
    await shot(mgr, 'incident-15-osha-300a');
    await mgr.getByRole('tab', { name: /^Form 301/ }).click();
    await mgr.getByText('Information about the employee').waitFor();
    await mgr.getByText(VICTIM).first().waitFor();
    await shot(mgr, 'incident-16-osha-301');

    // 15. The list's export holds exactly the filtered rows.
    await mgr.goto(`${origin()}/incidents`);
    await mgr.getByRole('searchbox', { name: 'Search incidents' }).fill(serial);
    await expect.poll(() => mgr.getByRole('table', { name: 'Incidents' }).getByRole('row').count(), { timeout: 15_000 }).toBe(2);
    const rows = await sheetRows((await downloaded(mgr, () => mgr.getByRole('button', { name: 'Export to Excel' }).click())).bytes);
    expect(rows).toHaveLength(2);
    const [header, only] = rows as [string[], string[]];
    expect(only[header.indexOf('ID')]).toBe(serial);
    expect(only[header.indexOf('Status')]).toBe('Closed');
    expect(only[header.indexOf('Site')]).toBe(SITE);

    await supervisor.context.close();
    await manager.context.close();
  }, 900_000);

  it('the report form and the seven steps fit a 360 px phone, with the guided tour once', async () => {
    const { context, page } = await signedInPage(browser, origin(), MANAGER, PASSWORD, 360);
    await page.goto(`${origin()}/incidents/new`);
    const tour = page.getByRole('dialog', { name: 'What happened' });
    await tour.waitFor();
    await shot(page, 'incident-20-tour-phone');
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Where and when' }).waitFor();
    await page.keyboard.press('Escape');
    await page.getByRole('dialog', { name: 'Where and when' }).waitFor({ state: 'hidden' });
    await expectNoOverflow(page);
    await shot(page, 'incident-21-report-form-phone');
    // Seen once: not offered again.
    await page.reload();
    await page.getByRole('heading', { name: 'Report an incident', level: 2 }).waitFor();
    expect(await page.getByRole('dialog', { name: 'What happened' }).count()).toBe(0);

    await page.goto(`${origin()}/incidents`);
    await page.getByRole('table', { name: 'Incidents' }).waitFor();
    await expectNoOverflow(page);
    await shot(page, 'incident-22-list-phone');
    const first = page.getByRole('table', { name: 'Incidents' }).getByRole('link').first();
    await first.click();
    await page.waitForURL(/\/steps\/step\d$/);
    const base = page.url().replace(/step\d$/, '');
    for (let n = 1; n <= 7; n += 1) {
      await page.goto(`${base}step${n}`);
      await page.getByText(`Step ${n} of 7`).waitFor();
      await expectNoOverflow(page);
      await shot(page, `incident-23-step${n}-phone`);
    }
    await context.close();
  }, 300_000);
});

import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dayFromNow, markDocument, sameDocument, tinyPng } from './files.js';
import { freePort, launchBrowser, pickOption, type RunningServer, shot, signedInPage, startProduct, startSecondNode } from './support.js';

/**
 * Issue 18's last "done means": the browser journey of issue 4 with the manager's browser on node B
 * while the guest and the supervisor work through node A. Two real app processes (the compiled server) on one
 * PostgreSQL (DATABASE_URL's, or the first node's embedded one), one Redis (REDIS_URL: push between
 * the nodes goes through it) and one S3-compatible file store (s3rver, in this process); the same
 * APP_SECRET, each node with a DATA_DIR of its own. Nothing is shared by a disk.
 */
const PASSWORD = 'Demo#2026!';
const MANAGER = 'priya.nair@demo.test';
const SUPERVISOR = 'tomasz.kowalski@demo.test';
const SITE = 'Lakeside Distribution Centre';
const DESCRIPTION = 'Eyewash station at dock 4 has an empty bottle and a broken seal.';
const ACTION = 'Replace the dock 4 eyewash bottle and add the station to the weekly check.';
const DONE = 'New sealed bottle fitted, station added to the weekly check.';
const CLOSING = 'Eyewash station restocked; weekly check updated.';
const BUCKET = 'bulwark-files';

const redisUrl = process.env.REDIS_URL;
if (!redisUrl) {
  console.log(
    '[two-nodes] SKIPPED: REDIS_URL is not set. Push from one node to a browser on the other goes through Redis; set REDIS_URL (e.g. redis://127.0.0.1:6379) to run this file.',
  );
}

let s3: { dir: string; server: S3rver } | undefined;
let a: RunningServer | undefined;
let b: RunningServer | undefined;
let browser: Browser | undefined;

/** Whether s3rver's disk holds the object under `key` (it keeps `<bucket>/<key>._S3rver_object`). */
const s3Holds = (key: string) => existsSync(path.join(s3!.dir, BUCKET, `${key}._S3rver_object`));

async function storageKeyOf(fileName: string): Promise<string> {
  const c = new pg.Client({ connectionString: a!.ownerUrl });
  await c.connect();
  try {
    const { rows } = await c.query<{ storage_key: string }>('select storage_key from files where file_name = $1', [fileName]);
    expect(rows).toHaveLength(1);
    return rows[0]!.storage_key;
  } finally {
    await c.end();
  }
}

describe.skipIf(!redisUrl)('two app nodes, one product (issue 18)', () => {
  beforeAll(async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'bulwark-e2e-s3-'));
    const server = new S3rver({
      port: await freePort(),
      address: '127.0.0.1',
      silent: true,
      directory: dir,
      configureBuckets: [{ name: BUCKET, configs: [] }],
    });
    s3 = { dir, server };
    const { port } = await server.run();
    const env = {
      REDIS_URL: redisUrl!,
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      // s3rver's own fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: '1',
      // No load balancer to drain from: stop at once.
      DRAIN_SECONDS: '0',
      // The AWS SDK's note about its future Node versions is not this test's business.
      NODE_NO_WARNINGS: '1',
    };
    a = await startProduct({ env });
    // Side by side; whatever started is stopped below, even when the other failed.
    const [second, launched] = await Promise.allSettled([startSecondNode(a), launchBrowser()]);
    if (second.status === 'fulfilled') b = second.value;
    if (launched.status === 'fulfilled') browser = launched.value;
    for (const r of [second, launched]) if (r.status === 'rejected') throw r.reason;
  });

  afterAll(async () => {
    await browser?.close();
    // The second node first: with embedded PostgreSQL, the first node's process holds the database.
    await b?.stop();
    await a?.stop();
    if (s3) {
      await s3.server.close();
      rmSync(s3.dir, { recursive: true, force: true });
    }
  });

  it("guest and supervisor on node A, the manager's browser on node B: live list, action, photo, closing", async () => {
    const onA = a!.origin('demo');
    const onB = b!.origin('demo');
    expect(onA).not.toBe(onB);

    // The manager watches the list through node B; the supervisor watches the actions through node A.
    const manager = await signedInPage(browser!, onB, MANAGER, PASSWORD);
    const mgr = manager.page;
    await mgr.goto(`${onB}/observations`);
    await mgr.getByRole('table', { name: 'Observations' }).waitFor();
    await markDocument(mgr);

    const supervisor = await signedInPage(browser!, onA, SUPERVISOR, PASSWORD);
    const sup = supervisor.page;
    await sup.goto(`${onA}/actions/all`);
    await sup.getByRole('heading', { name: 'All actions', level: 1 }).waitFor();
    await markDocument(sup);

    // 1. A guest reports from a phone through node A.
    const guestContext = await browser!.newContext({ viewport: { width: 360, height: 800 }, locale: 'en-GB' });
    const guest = await guestContext.newPage();
    await guest.goto(`${onA}/observation`);
    await guest.getByRole('heading', { name: /^Report an observation to / }).waitFor();
    await pickOption(guest, /^Type/, 'Unsafe condition');
    await guest.getByLabel(/^Description/).fill(DESCRIPTION);
    await pickOption(guest, /^Site/, SITE, 'Lakeside');
    await pickOption(guest, /^Risk potential/, /^High/);
    await guest.getByLabel(/^Comment/).fill('Found it during the morning walk-round.');
    await guest.getByRole('button', { name: 'Submit' }).click();
    const thanks = guest.getByRole('status').filter({ hasText: 'Thank you.' });
    await thanks.waitFor();
    const serial = /OBS-\d{6}/.exec((await thanks.textContent()) ?? '')?.[0] ?? '';
    expect(serial).not.toBe('');
    await guestContext.close();

    // 2. It appears on node B's list without a reload (A → Redis → B); the manager raises an action there.
    const link = mgr.getByRole('link', { name: serial, exact: true });
    await link.waitFor({ timeout: 15_000 });
    expect(await sameDocument(mgr)).toBe(true);
    await shot(mgr, 'two-nodes-01-list-on-b');
    await link.click();
    await mgr.waitForURL(/\/observations\/summary\/[0-9a-f-]{36}$/);
    const observationId = mgr.url().split('/').pop()!;
    await mgr.getByText(DESCRIPTION).first().waitFor();
    await mgr.getByRole('link', { name: 'Edit', exact: true }).click();
    await mgr.getByRole('heading', { name: `Edit observation ${serial}` }).waitFor();
    await mgr.getByRole('radio', { name: 'Yes' }).check();
    const row = mgr.getByRole('group', { name: 'Action 1' });
    await row.getByLabel(/^Description/).fill(ACTION);
    await pickOption(mgr, /^Control type/, 'Engineering controls', undefined, row);
    await pickOption(mgr, /^Responsible person/, /Tomasz Kowalski/, 'Tomasz', row);
    await row.getByLabel(/^Due date/).fill(dayFromNow(10));
    await mgr.getByRole('button', { name: 'Save' }).click();
    await mgr.getByText('Observation saved.').waitFor();
    await mgr.waitForURL(`**/observations/summary/${observationId}`);
    await mgr.getByRole('listitem').filter({ hasText: ACTION }).getByText('Tomasz Kowalski').waitFor();

    // 3. The action raised on B reaches the supervisor's list on A live; it is completed there with a photo.
    const open = sup
      .locator('tr, li')
      .filter({ hasText: ACTION })
      .getByRole('link', { name: /^Open action #\d+$/ });
    await open.waitFor({ timeout: 15_000 });
    expect(await sameDocument(sup)).toBe(true);
    await shot(sup, 'two-nodes-02-action-on-a');
    await open.click();
    await sup.waitForURL(/\/actions\/all\/summary\/[0-9a-f-]{36}$/);
    const actionId = sup.url().split('/').pop()!;
    const work = sup.getByRole('dialog').first();
    await work.getByText(ACTION).waitFor();
    await work.getByRole('button', { name: 'Start' }).click();
    await sup.getByText('The action was started.').waitFor();
    await work.getByRole('button', { name: 'Mark completed' }).click();
    const complete = sup.getByRole('dialog', { name: /^Complete action #\d+$/ });
    await complete.getByLabel('Remarks').fill(DONE);
    await complete.locator('input[type="file"]').setInputFiles({ name: 'eyewash.png', mimeType: 'image/png', buffer: tinyPng() });
    await complete.getByRole('img', { name: 'Preview of eyewash.png' }).waitFor();
    await complete.getByRole('button', { name: 'Mark completed' }).click();
    await sup.getByText('The action was marked completed.').waitFor();
    await work.getByText('Completed', { exact: true }).first().waitFor();
    // The photo went to the shared store, not to node A's disk.
    expect(s3Holds(await storageKeyOf('eyewash.png'))).toBe(true);

    // 4. Node B's open record follows live, and node B serves the photo node A stored (a second tab,
    // so that the record's page is never reloaded).
    const actionRow = mgr.getByRole('listitem').filter({ hasText: ACTION });
    await actionRow.getByText('Completed', { exact: true }).waitFor({ timeout: 15_000 });
    await mgr.getByText('In progress → Completed').waitFor();
    const photoTab = await manager.context.newPage();
    await photoTab.goto(`${onB}/actions/all/summary/${actionId}`);
    const panel = photoTab.getByRole('dialog').first();
    await panel.getByText(ACTION).waitFor();
    await panel.getByRole('tab', { name: 'Attachments (1)' }).click();
    const photo = panel.getByRole('img', { name: 'eyewash.png' });
    await photo.waitFor();
    // Decoded: the 2×2 PNG's bytes came back whole through node B.
    await expect.poll(() => photo.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBe(2);
    await shot(photoTab, 'two-nodes-03-photo-on-b');
    await photoTab.close();

    // 5. The supervisor opens the observation on A; the manager closes it on B; A's page shows it closed.
    const supRecord = await supervisor.context.newPage();
    await supRecord.goto(`${onA}/observations/summary/${observationId}`);
    await supRecord.getByText(DESCRIPTION).first().waitFor();
    await markDocument(supRecord);
    expect(await supRecord.getByText(CLOSING).count()).toBe(0);

    await mgr.getByRole('button', { name: 'Close observation' }).click();
    const closeDialog = mgr.getByRole('dialog', { name: 'Close observation' });
    await closeDialog.getByLabel(/^Closing remarks/).fill(CLOSING);
    await closeDialog.getByRole('button', { name: 'Close observation' }).click();
    await mgr.getByText('Observation closed.').waitFor();
    await closeDialog.waitFor({ state: 'hidden' });
    expect(await sameDocument(mgr)).toBe(true);

    await supRecord.getByText(CLOSING, { exact: false }).first().waitFor({ timeout: 15_000 });
    expect(await sameDocument(supRecord)).toBe(true);
    await shot(supRecord, 'two-nodes-04-closed-on-a');

    await supervisor.context.close();
    await manager.context.close();
  });
});

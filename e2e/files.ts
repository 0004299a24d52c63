import { readFile } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import ExcelJS from 'exceljs';
import type { Download, Page } from 'playwright-core';
import { expect } from 'vitest';

/** What browser tests upload (real images), and what they read out of downloads (PDF text, workbook rows). */

/** A 2×2 red PNG, built byte by byte so the server's content sniffing sees a real image. */
export function tinyPng(): Buffer {
  const crcTable = Array.from({ length: 256 }, (_, n) => {
    let c = n;
    for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    return c >>> 0;
  });
  const crc32 = (buf: Buffer) => {
    let c = 0xffffffff;
    for (const b of buf) c = crcTable[(c ^ b) & 0xff]! ^ (c >>> 8);
    return (c ^ 0xffffffff) >>> 0;
  };
  const chunk = (type: string, data: Buffer) => {
    const len = Buffer.alloc(4);
    len.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([len, body, crc]);
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(2, 0);
  ihdr.writeUInt32BE(2, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 2; // truecolour RGB
  // Each scanline: filter byte 0, then two red pixels.
  const raw = Buffer.from([0, 255, 0, 0, 255, 0, 0, 0, 255, 0, 0, 255, 0, 0]);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** The text of a PDF as a reader sees it (pdfjs, the engine browsers use), whitespace folded. */
export async function pdfText(bytes: Buffer): Promise<string> {
  const pdfjs = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const doc = await pdfjs.getDocument({ data: new Uint8Array(bytes), useSystemFonts: false, isEvalSupported: false }).promise;
  const out: string[] = [];
  for (let i = 1; i <= doc.numPages; i += 1) {
    const content = await (await doc.getPage(i)).getTextContent();
    out.push(content.items.map((it) => ('str' in it ? it.str : '')).join(' '));
  }
  await doc.destroy();
  return fold(out.join(' '));
}

export const fold = (s: string) => s.replace(/\s+/g, ' ').trim();

/** Clicks what starts a download and answers the downloaded bytes. */
export async function downloaded(page: Page, click: () => Promise<void>): Promise<{ download: Download; bytes: Buffer }> {
  const [download] = await Promise.all([page.waitForEvent('download'), click()]);
  const file = await download.path();
  return { download, bytes: await readFile(file) };
}

/** Every row of a workbook's first sheet as text cells (row 1 is the header). */
export async function sheetRows(bytes: Buffer): Promise<string[][]> {
  const wb = new ExcelJS.Workbook();
  // exceljs declares its own `Buffer` type that Node's no longer matches.
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const ws = wb.worksheets[0]!;
  const rows: string[][] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    const cells: string[] = [];
    row.eachCell({ includeEmpty: true }, (cell, col) => {
      cells[col - 1] = cell.text;
    });
    rows.push(cells);
  });
  return rows;
}

/** 'YYYY-MM-DD' `days` from today (UTC): far enough from the present to be on the right side in any zone. */
export function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

declare global {
  interface Window {
    /** Set by a test on a page; still there later only if the page never reloaded. */
    __sameDocument?: boolean;
  }
}

/** Marks the page, so `sameDocument` can later prove that what changed arrived without a reload. */
export const markDocument = (page: Page) =>
  page.evaluate(() => {
    window.__sameDocument = true;
  });
export const sameDocument = (page: Page) => page.evaluate(() => window.__sameDocument === true);

/** No horizontal scrolling on a phone: what does not fit must wrap. */
export async function expectNoOverflow(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(1);
}

import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import PDFDocument from 'pdfkit';

/**
 * What the incident PDFs (the report and the OSHA forms) share: the fonts, a document, text that picks
 * its font by what it holds, a table that breaks across pages, and page footers. DejaVu covers Latin,
 * Turkish and Spanish letters; Noto Sans SC covers Chinese (resolved from node_modules, never copied).
 */
const pkgDir = (name: string) => path.dirname(createRequire(import.meta.url).resolve(`${name}/package.json`));
const dejavu = path.join(pkgDir('dejavu-fonts-ttf'), 'ttf');
const noto = pkgDir('@expo-google-fonts/noto-sans-sc');
const FONTS = {
  body: path.join(dejavu, 'DejaVuSans.ttf'),
  bold: path.join(dejavu, 'DejaVuSans-Bold.ttf'),
  cjkBody: path.join(noto, '400Regular', 'NotoSansSC_400Regular.ttf'),
  cjkBold: path.join(noto, '700Bold', 'NotoSansSC_700Bold.ttf'),
};
type FontName = keyof typeof FONTS;

let loaded: Promise<Record<FontName, Buffer>> | null = null;
function fontFiles(): Promise<Record<FontName, Buffer>> {
  loaded ??= Promise.all(Object.entries(FONTS).map(async ([name, file]) => [name, await readFile(file)] as const))
    .then((pairs) => Object.fromEntries(pairs) as Record<FontName, Buffer>)
    .catch((err: unknown) => {
      loaded = null; // a failed read is tried again by the next document
      throw err;
    });
  return loaded;
}

const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/u;
function fontFor(text: string, weight: 'body' | 'bold'): FontName {
  if (!CJK.test(text)) return weight;
  return weight === 'bold' ? 'cjkBold' : 'cjkBody';
}

/** PDF_UNCOMPRESSED=1 keeps the text greppable for people debugging a report. */
const compress = process.env['PDF_UNCOMPRESSED'] !== '1';

export type Column = { label: string; width: number; align?: 'left' | 'center' | 'right' };

export type Pdf = {
  doc: PDFKit.PDFDocument;
  /** The width between the margins. */
  width: number;
  margin: number;
  write: (weight: 'body' | 'bold', size: number, text: string, options?: PDFKit.Mixins.TextOptions) => void;
  heading: (text: string) => void;
  /** A label and its value, one under the other. */
  field: (label: string, value: string) => void;
  /** A table: the header row, then each row (widths are fractions of the page width); repeats the header on a new page. */
  table: (columns: Column[], rows: string[][], size?: number) => void;
  /** Footers ("page n of m"), then the bytes. */
  finish: (footer: (page: number, pages: number) => string) => Promise<Buffer>;
};

export async function newPdf(title: string, layout: 'portrait' | 'landscape' = 'portrait'): Promise<Pdf> {
  const margin = 40;
  const doc = new PDFDocument({ size: 'A4', layout, margin, compress, bufferPages: true, info: { Title: title } });
  for (const [name, bytes] of Object.entries(await fontFiles())) doc.registerFont(name, bytes);
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 2 * margin;
  const write: Pdf['write'] = (weight, size, text, options) => {
    doc.font(fontFor(text, weight)).fontSize(size).text(text, options);
  };
  const row = (columns: Column[], cells: string[], bold: boolean, size: number) => {
    const weight = bold ? 'bold' : 'body';
    doc.fontSize(size);
    const heights = cells.map((c, i) => doc.font(fontFor(c, weight)).heightOfString(c, { width: columns[i]!.width * width - 4 }));
    const h = Math.max(...heights, size) + 6;
    if (doc.y + h > doc.page.height - 50) {
      doc.addPage();
      if (!bold)
        row(
          columns,
          columns.map((c) => c.label),
          true,
          size,
        );
    }
    const y = doc.y;
    let x = margin;
    cells.forEach((c, i) => {
      const col = columns[i]!;
      doc.font(fontFor(c, weight)).text(c, x + 2, y + 3, { width: col.width * width - 4, align: col.align ?? 'left' });
      x += col.width * width;
    });
    doc
      .moveTo(margin, y + h)
      .lineTo(margin + width, y + h)
      .strokeColor('#999')
      .lineWidth(0.5)
      .stroke();
    doc.x = margin;
    doc.y = y + h;
  };
  return {
    doc,
    width,
    margin,
    write,
    heading: (text) => {
      doc.x = margin;
      doc.moveDown(0.6);
      write('bold', 13, text);
      doc.moveDown(0.3);
    },
    field: (label, value) => {
      write('bold', 9.5, label);
      write('body', 9.5, value || '—', { width });
      doc.moveDown(0.3);
    },
    table: (columns, rows, size = 8.5) => {
      row(
        columns,
        columns.map((c) => c.label),
        true,
        size,
      );
      for (const r of rows) row(columns, r, false, size);
    },
    finish: async (footer) => {
      const range = doc.bufferedPageRange();
      for (let i = range.start; i < range.start + range.count; i += 1) {
        doc.switchToPage(i);
        // The footer sits in the bottom margin; without this pdfkit would start a new page for it.
        doc.page.margins.bottom = 0;
        const text = footer(i + 1, range.count);
        doc
          .font(fontFor(text, 'body'))
          .fontSize(8)
          .fillColor('#777')
          .text(text, margin, doc.page.height - 28, { width, align: 'right', lineBreak: false });
      }
      doc.end();
      return done;
    },
  };
}

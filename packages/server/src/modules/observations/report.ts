import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { translate, type Language, type Observation } from '@bulwark/domain';
import PDFDocument from 'pdfkit';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { attachmentsOf } from './view.js';

/**
 * Fonts, resolved from node_modules (never copied): DejaVu covers Latin, Turkish and Spanish letters
 * (ğ, ş, İ, ñ…); Noto Sans SC covers Chinese. pdfkit embeds only the glyphs a report uses.
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

let loaded: Promise<Record<keyof typeof FONTS, Buffer>> | null = null;

/** The font files, read once per process (the Chinese ones are 10 MB each). */
function fontFiles(): Promise<Record<keyof typeof FONTS, Buffer>> {
  loaded ??= Promise.all(Object.entries(FONTS).map(async ([name, file]) => [name, await readFile(file)] as const))
    .then((pairs) => Object.fromEntries(pairs) as Record<keyof typeof FONTS, Buffer>)
    .catch((err: unknown) => {
      loaded = null; // a failed read is tried again by the next report
      throw err;
    });
  return loaded;
}

/** Han, kana, CJK punctuation and full-width forms: text holding any of them is set in the CJK font. */
const CJK = /[\u2e80-\u9fff\uf900-\ufaff\uff00-\uffef]/u;

/** The registered font for a piece of text: DejaVu, unless the text needs Chinese glyphs. */
export function fontFor(text: string, weight: 'body' | 'bold'): keyof typeof FONTS {
  if (!CJK.test(text)) return weight;
  return weight === 'bold' ? 'cjkBold' : 'cjkBody';
}

/** Photos larger than this are listed but not embedded (a report is for reading, not for archiving). */
const EMBED_MAX_BYTES = 5 * 1024 * 1024;

/**
 * Uncompressed content streams when PDF_UNCOMPRESSED=1: the text stays greppable for people debugging
 * a report. Tests read the text through pdfjs instead, so they check what readers see.
 */
const compress = process.env['PDF_UNCOMPRESSED'] !== '1';

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The observation as a printable A4 report in `lang`: every field, the actions table, the attachments with photos. */
export async function renderObservationPdf(
  tx: Tx,
  deps: Pick<AppDeps, 'storage'>,
  o: Observation,
  lang: Language,
): Promise<{ bytes: Buffer; fileName: string }> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const files = await attachmentsOf(tx, [o.id]);
  const photos: Array<{ name: string; bytes: Buffer }> = [];
  for (const f of files) {
    if ((f.mimeType === 'image/jpeg' || f.mimeType === 'image/png') && f.sizeBytes <= EMBED_MAX_BYTES) {
      photos.push({ name: f.fileName, bytes: await readAll(deps.storage.open(f.storageKey)) });
    }
  }

  const doc = new PDFDocument({
    size: 'A4',
    margin: 48,
    compress,
    bufferPages: true,
    info: { Title: `${t('observations.report.title')} ${o.serial_label}` },
  });
  for (const [name, bytes] of Object.entries(await fontFiles())) doc.registerFont(name, bytes);
  // Every piece of text picks its font by what it holds (a Chinese label, a Turkish description…).
  const write = (weight: 'body' | 'bold', size: number, text: string, options?: PDFKit.Mixins.TextOptions) =>
    doc.font(fontFor(text, weight)).fontSize(size).text(text, options);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 96;

  write('bold', 18, `${t('observations.report.title')} ${o.serial_label}`);
  doc.fillColor('#555');
  write('body', 9, t('observations.report.generated', { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' }));
  doc.fillColor('#000').moveDown();

  const field = (label: string, value: string) => {
    write('bold', 10, label, { continued: false });
    write('body', 10, value || '—', { width });
    doc.moveDown(0.4);
  };
  const yes = (b: boolean) => t(b ? 'observations.fields.yes' : 'observations.fields.no');
  field(t('observations.fields.serial'), o.serial_label);
  field(t('observations.fields.status'), t(`observations.statuses.${o.status}`));
  field(t('observations.fields.type'), t(`categories.types.${o.type}`));
  field(t('observations.fields.category'), [o.category?.name, o.sub_category?.name].filter(Boolean).join(' / '));
  field(t('observations.fields.site'), o.site.name);
  field(t('observations.fields.area'), o.site_node?.full_name ?? '');
  field(t('observations.fields.observedAt'), `${o.observed_at.replace('T', ' ')} (${o.site.time_zone})`);
  field(
    t('observations.fields.riskLevel'),
    `${t(`observations.riskLevels.${o.risk_level}`)} — ${t(`observations.riskHints.${o.risk_level}`)}`,
  );
  field(t('observations.fields.description'), o.description);
  field(t('observations.fields.comment'), o.comment);
  field(
    t('observations.fields.reporter'),
    o.reporter
      ? [o.reporter.full_name || t('observations.guestReporter'), o.reporter.email].filter(Boolean).join(' · ')
      : t('observations.anonymous'),
  );
  field(t('observations.fields.source'), t(`observations.sources.${o.source}`));
  field(t('observations.fields.createdAt'), o.created_at.slice(0, 16).replace('T', ' ') + ' UTC');
  field(t('observations.fields.actionRequired'), yes(o.action_required));
  if (o.status === 'closed') {
    field(t('observations.fields.closedBy'), o.closed_by?.full_name ?? '');
    field(t('observations.fields.closedAt'), (o.closed_at ?? '').slice(0, 16).replace('T', ' ') + ' UTC');
    field(t('observations.fields.closingRemarks'), o.closing_remarks ?? '');
  }

  // Actions table.
  doc.moveDown(0.5);
  write('bold', 13, t('observations.fields.actions'));
  doc.moveDown(0.3);
  if (o.actions.length === 0) {
    write('body', 10, t('observations.report.noActions'));
  } else {
    const cols = [
      { label: t('observations.actionColumns.serial'), w: 0.08 },
      { label: t('observations.actionColumns.description'), w: 0.34 },
      { label: t('observations.actionColumns.controlType'), w: 0.16 },
      { label: t('observations.actionColumns.responsible'), w: 0.16 },
      { label: t('observations.actionColumns.dueDate'), w: 0.12 },
      { label: t('observations.actionColumns.status'), w: 0.14 },
    ];
    const row = (cells: string[], bold: boolean) => {
      const weight = bold ? 'bold' : 'body';
      doc.fontSize(9);
      const heights = cells.map((c, i) => doc.font(fontFor(c, weight)).heightOfString(c, { width: cols[i]!.w * width - 4 }));
      const h = Math.max(...heights) + 6;
      if (doc.y + h > doc.page.height - 60) doc.addPage();
      const y = doc.y;
      let x = 48;
      cells.forEach((c, i) => {
        doc.font(fontFor(c, weight)).text(c, x + 2, y + 3, { width: cols[i]!.w * width - 4 });
        x += cols[i]!.w * width;
      });
      doc
        .moveTo(48, y + h)
        .lineTo(48 + width, y + h)
        .strokeColor('#bbb')
        .lineWidth(0.5)
        .stroke();
      doc.x = 48;
      doc.y = y + h;
    };
    row(
      cols.map((c) => c.label),
      true,
    );
    for (const a of o.actions) {
      row(
        [
          `#${a.serial}`,
          a.description,
          t(`actions.controlType.${a.control_type}`),
          a.responsible?.full_name ?? '—',
          a.due_date,
          t(`actions.status.${a.status}`),
        ],
        false,
      );
    }
  }

  // Attachments: the list, then the photos.
  doc.moveDown();
  doc.x = 48;
  write('bold', 13, t('observations.fields.attachments'));
  doc.moveDown(0.3);
  if (o.attachments.length === 0) write('body', 10, t('observations.report.noAttachments'));
  for (const a of o.attachments) write('body', 10, `• ${a.file_name} (${Math.max(1, Math.round(a.size_bytes / 1024))} KB)`);
  for (const p of photos) {
    if (doc.y + 260 > doc.page.height - 60) doc.addPage();
    doc.moveDown(0.5);
    write('body', 9, p.name);
    try {
      doc.image(p.bytes, { fit: [width, 240] });
    } catch {
      // A photo pdfkit cannot read (e.g. an unusual PNG variant) stays in the list above.
    }
    doc.moveDown(0.5);
  }

  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    // The footer sits in the bottom margin; without this pdfkit would start a new page for it.
    doc.page.margins.bottom = 0;
    const footer = t('observations.report.page', { page: i + 1, pages: range.count });
    doc
      .font(fontFor(footer, 'body'))
      .fontSize(8)
      .fillColor('#777')
      .text(footer, 48, doc.page.height - 36, { width, align: 'right', lineBreak: false });
  }
  doc.end();
  return { bytes: await done, fileName: `${o.serial_label}.pdf` };
}

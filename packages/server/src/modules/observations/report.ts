import { createRequire } from 'node:module';
import path from 'node:path';
import { translate, type Language, type Observation } from '@bulwark/domain';
import PDFDocument from 'pdfkit';
import type { Tx } from '../../platform/db/db.js';
import type { AppDeps } from '../../platform/deps.js';
import { attachmentsOf } from './view.js';

/** DejaVu covers Latin, Turkish and Spanish letters (ğ, ş, İ, ñ…); resolved from node_modules, never copied. */
const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');
const FONT = path.join(fontDir, 'DejaVuSans.ttf');
const FONT_BOLD = path.join(fontDir, 'DejaVuSans-Bold.ttf');

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
export async function renderObservationPdf(tx: Tx, deps: Pick<AppDeps, 'storage'>, o: Observation, lang: Language): Promise<{ bytes: Buffer; fileName: string }> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const files = await attachmentsOf(tx, [o.id]);
  const photos: Array<{ name: string; bytes: Buffer }> = [];
  for (const f of files) {
    if ((f.mimeType === 'image/jpeg' || f.mimeType === 'image/png') && f.sizeBytes <= EMBED_MAX_BYTES) {
      photos.push({ name: f.fileName, bytes: await readAll(deps.storage.open(f.storageKey)) });
    }
  }

  const doc = new PDFDocument({ size: 'A4', margin: 48, compress, bufferPages: true, info: { Title: `${t('observations.report.title')} ${o.serial_label}` } });
  doc.registerFont('body', FONT);
  doc.registerFont('bold', FONT_BOLD);
  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = doc.page.width - 96;

  doc.font('bold').fontSize(18).text(`${t('observations.report.title')} ${o.serial_label}`);
  doc.font('body').fontSize(9).fillColor('#555').text(t('observations.report.generated', { date: new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC' }));
  doc.fillColor('#000').moveDown();

  const field = (label: string, value: string) => {
    doc.font('bold').fontSize(10).text(label, { continued: false });
    doc.font('body').fontSize(10).text(value || '—', { width });
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
  field(t('observations.fields.riskLevel'), `${t(`observations.riskLevels.${o.risk_level}`)} — ${t(`observations.riskHints.${o.risk_level}`)}`);
  field(t('observations.fields.description'), o.description);
  field(t('observations.fields.comment'), o.comment);
  field(t('observations.fields.reporter'), o.reporter ? [o.reporter.full_name || t('observations.guestReporter'), o.reporter.email].filter(Boolean).join(' · ') : t('observations.anonymous'));
  field(t('observations.fields.source'), t(`observations.sources.${o.source}`));
  field(t('observations.fields.createdAt'), o.created_at.slice(0, 16).replace('T', ' ') + ' UTC');
  field(t('observations.fields.actionRequired'), yes(o.action_required));
  if (o.status === 'closed') {
    field(t('observations.fields.closedBy'), o.closed_by?.full_name ?? '');
    field(t('observations.fields.closedAt'), (o.closed_at ?? '').slice(0, 16).replace('T', ' ') + ' UTC');
    field(t('observations.fields.closingRemarks'), o.closing_remarks ?? '');
  }

  // Actions table.
  doc.moveDown(0.5).font('bold').fontSize(13).text(t('observations.fields.actions'));
  doc.moveDown(0.3);
  if (o.actions.length === 0) {
    doc.font('body').fontSize(10).text(t('observations.report.noActions'));
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
      doc.font(bold ? 'bold' : 'body').fontSize(9);
      const heights = cells.map((c, i) => doc.heightOfString(c, { width: cols[i]!.w * width - 4 }));
      const h = Math.max(...heights) + 6;
      if (doc.y + h > doc.page.height - 60) doc.addPage();
      const y = doc.y;
      let x = 48;
      cells.forEach((c, i) => {
        doc.text(c, x + 2, y + 3, { width: cols[i]!.w * width - 4 });
        x += cols[i]!.w * width;
      });
      doc.moveTo(48, y + h).lineTo(48 + width, y + h).strokeColor('#bbb').lineWidth(0.5).stroke();
      doc.x = 48;
      doc.y = y + h;
    };
    row(cols.map((c) => c.label), true);
    for (const a of o.actions) {
      row([`#${a.serial}`, a.description, t(`actions.controlType.${a.control_type}`), a.responsible?.full_name ?? '—', a.due_date, t(`actions.status.${a.status}`)], false);
    }
  }

  // Attachments: the list, then the photos.
  doc.moveDown().font('bold').fontSize(13).text(t('observations.fields.attachments'), 48);
  doc.moveDown(0.3).font('body').fontSize(10);
  if (o.attachments.length === 0) doc.text(t('observations.report.noAttachments'));
  for (const a of o.attachments) doc.text(`• ${a.file_name} (${Math.max(1, Math.round(a.size_bytes / 1024))} KB)`);
  for (const p of photos) {
    if (doc.y + 260 > doc.page.height - 60) doc.addPage();
    doc.moveDown(0.5).font('body').fontSize(9).text(p.name);
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
    doc.font('body').fontSize(8).fillColor('#777')
      .text(t('observations.report.page', { page: i + 1, pages: range.count }), 48, doc.page.height - 36, { width, align: 'right', lineBreak: false });
  }
  doc.end();
  return { bytes: await done, fileName: `${o.serial_label}.pdf` };
}

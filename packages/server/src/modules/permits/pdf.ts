import { translate, type AnswerValue, type Language, type Permit, type PermitQuestion } from '@bulwark/domain';
import QRCode from 'qrcode';
import { newPdf } from '../incidents/pdf-kit.js';

const utc = (iso: string) => `${iso.slice(0, 16).replace('T', ' ')} UTC`;
const at = (local: string | null) => (local ? local.replace('T', ' ') : '');

/** The QR code of the permit's public status page, as a PNG for the PDF and as SVG for the printable page. */
export function qrPng(url: string): Promise<Buffer> {
  return QRCode.toBuffer(url, { type: 'png', errorCorrectionLevel: 'M', margin: 1, width: 240 });
}
export function qrSvg(url: string): Promise<string> {
  return QRCode.toString(url, { type: 'svg', errorCorrectionLevel: 'M', margin: 1 });
}

function answerText(q: PermitQuestion, a: AnswerValue | undefined, fallback: string): string {
  if (!a) return fallback;
  if (a.items.length > 0) return a.items.map((i) => i.name).join(', ');
  return a.value ?? fallback;
}

/**
 * The permit as a printable A4 page in `lang`: number, type, status, place and validity, requester,
 * workers, issuing officers, the answers of its form section by section, extensions, revocation or
 * closure, the timeline, and the QR code of its public status page (anyone on site scans it to see
 * whether the paper is still valid).
 */
export async function renderPermitPdf(p: Permit, lang: Language, now = new Date()): Promise<{ bytes: Buffer; fileName: string }> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const title = `${t('permits.report.title')} ${p.number}`;
  const pdf = await newPdf(title);
  const { doc, write, heading, field, table, width, margin } = pdf;

  if (p.status_url) {
    const size = 96;
    doc.image(await qrPng(p.status_url), margin + width - size, margin, { width: size });
    doc.fontSize(7).fillColor('#555');
    doc.text(t('permits.report.scan'), margin + width - size - 20, margin + size + 2, { width: size + 20, align: 'center' });
    doc.fillColor('#000');
    doc.x = margin;
    doc.y = margin;
  }
  write('bold', 18, title, { width: width - 130 });
  doc.fillColor('#555');
  write('body', 9, t('permits.report.generated', { date: utc(now.toISOString()) }), { width: width - 130 });
  doc.fillColor('#000');
  write('bold', 12, `${p.template.name} · ${t(`permits.statuses.${p.status}`)}`, { width: width - 130 });
  doc.moveDown(2);

  field(t('permits.fields.site'), [p.site?.name, p.area?.full_name].filter(Boolean).join(' — '));
  field(
    t('permits.fields.timeOfWork'),
    p.start_at ? t('permits.report.validity', { from: at(p.start_at), until: at(p.end_at), zone: p.site?.time_zone ?? '' }) : '',
  );
  field(t('permits.fields.requester'), p.requester.full_name);
  field(t('permits.fields.issuingOfficers'), p.issuing_officers.map((o) => o.full_name).join(', '));
  field(t('permits.fields.description'), p.description ?? '');

  heading(t('permits.fields.workers'));
  if (p.workers.length === 0) write('body', 9.5, t('permits.report.noWorkers'));
  else
    table(
      [
        { label: t('permits.fields.name'), width: 0.4 },
        { label: t('permits.fields.idNumber'), width: 0.2 },
        { label: t('permits.fields.phone'), width: 0.25 },
        { label: t('permits.fields.age'), width: 0.15 },
      ],
      p.workers.map((w) => [w.name, w.id_number ?? '', w.phone ?? '', w.age === null ? '' : String(w.age)]),
    );

  const notAnswered = t('permits.report.notAnswered');
  for (const s of p.sections) {
    if (s.kind === 'location' || s.kind === 'duration' || !s.active) continue;
    const closure = s.kind === 'closure';
    const answers = closure ? (p.closure?.answers ?? null) : p.answers;
    if (closure && !answers) continue;
    const rows = s.questions
      .filter((q) => q.type !== 'hidden_field' && (answers?.[q.id] || !q.condition))
      .map((q) => [q.label, answerText(q, answers?.[q.id], notAnswered)]);
    if (rows.length === 0) continue;
    heading(s.name);
    table(
      [
        { label: t('permits.report.question'), width: 0.6 },
        { label: t('permits.report.answer'), width: 0.4 },
      ],
      rows,
    );
  }

  if (p.extensions.length > 0) {
    heading(t('permits.fields.extensions'));
    table(
      [
        { label: t('permits.fields.status'), width: 0.25 },
        { label: t('permits.fields.endAt'), width: 0.3 },
        { label: t('permits.fields.requester'), width: 0.45 },
      ],
      p.extensions.map((e) => [t(`permits.extensionStates.${e.state}`), at(e.end_after ?? e.end_before), e.requested_by?.full_name ?? '']),
    );
  }
  if (p.revocation) {
    heading(t('permits.statuses.revoked'));
    write(
      'body',
      9.5,
      t('permits.report.revokedBy', { name: p.revocation.by?.full_name ?? '', date: utc(p.revocation.at), comment: p.revocation.comment }),
    );
  }
  if (p.closure) {
    heading(t('permits.report.closure'));
    field(t('permits.statuses.closed'), `${p.closure.by?.full_name ?? ''} · ${utc(p.closure.at)}`);
    if (p.closure.comment) field(t('permits.defaults.questions.remarks'), p.closure.comment);
  }

  heading(t('permits.report.timeline'));
  table(
    [
      { label: t('permits.report.at'), width: 0.25 },
      { label: t('permits.report.event'), width: 0.3 },
      { label: t('permits.report.by'), width: 0.45 },
    ],
    p.timeline.map((e) => [utc(e.at), t(`permits.events.${e.kind}`), [e.actor?.full_name, e.comment].filter(Boolean).join(' — ')]),
  );

  const bytes = await pdf.finish((page, pages) => `${p.number} · ${t('permits.report.page', { page, pages })}`);
  return { bytes, fileName: `${p.number}.pdf` };
}

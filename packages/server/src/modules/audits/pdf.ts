import { translate, type AuditReport, type Language } from '@bulwark/domain';
import { inArray } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import type { AppDeps } from '../../platform/deps.js';
import { newPdf } from '../incidents/pdf-kit.js';

/** Larger pictures stay in the lists only (a report of many photos must stay mailable). */
const EMBED_MAX_BYTES = 1024 * 1024;
const utc = (iso: string | null) => (iso ? `${iso.slice(0, 16).replace('T', ' ')} UTC` : '');

async function readAll(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
  return Buffer.concat(chunks);
}

/** The bytes of the JPEG and PNG files among `ids` (what pdfkit can draw), by id. */
async function pictures(tx: Tx, deps: Pick<AppDeps, 'storage'>, ids: readonly string[]): Promise<Map<string, Buffer>> {
  const out = new Map<string, Buffer>();
  if (ids.length === 0) return out;
  const rows = await tx
    .select()
    .from(files)
    .where(inArray(files.id, [...new Set(ids)]));
  for (const f of rows)
    if ((f.mimeType === 'image/jpeg' || f.mimeType === 'image/png') && Number(f.sizeBytes) <= EMBED_MAX_BYTES)
      out.set(f.id, await readAll(deps.storage.open(f.storageKey)));
  return out;
}

/**
 * The audit report as an A4 PDF in `lang` (issue 17, as observations' and incidents' reports): the
 * organisation's logo and header line, the audit's facts, the scorecard by section, the responses with
 * their pictures, key findings, action items with their status, the timeline, attachments and notes,
 * as the report settings include them.
 */
export async function renderAuditPdf(
  tx: Tx,
  deps: Pick<AppDeps, 'storage'>,
  r: AuditReport,
  lang: Language,
): Promise<{ bytes: Buffer; fileName: string }> {
  const t = (key: string, vars?: Record<string, string | number>) => translate(lang, key, vars);
  const a = r.audit;
  const pdf = await newPdf(`${t('audits.report.title')} ${a.serial_label}`);
  const { doc, write, heading, field, table, width } = pdf;
  const images = await pictures(tx, deps, [
    ...(r.settings.logo ? [r.settings.logo.id] : []),
    ...r.responses.flatMap((s) => s.questions.flatMap((q) => q.files.map((f) => f.id))),
    ...r.key_findings.flatMap((k) => k.pictures.map((p) => p.id)),
  ]);
  const draw = (id: string, fit: [number, number]) => {
    const bytes = images.get(id);
    if (!bytes) return;
    if (doc.y + fit[1] + 10 > doc.page.height - 50) doc.addPage();
    try {
      doc.image(bytes, doc.x, doc.y, { fit });
      doc.y += fit[1] + 4;
    } catch {
      // A picture pdfkit cannot read stays named in the lists.
    }
  };

  if (r.settings.logo) draw(r.settings.logo.id, [160, 60]);
  write('bold', 18, `${t('audits.report.title')} ${a.serial_label}`);
  if (r.settings.header_text) write('body', 10, r.settings.header_text);
  doc.fillColor('#555');
  write('body', 9, t('audits.report.generated', { date: utc(r.generated_at) }));
  doc.fillColor('#000');

  heading(a.template.name);
  field(t('audits.fields.status'), `${t(`audits.statuses.${a.status}`)}${a.late ? ` · ${t('audits.fields.late')}` : ''}`);
  field(t('audits.fields.type'), t(`audits.types.${a.template.type}`));
  field(t('audits.fields.site'), [a.site.name, a.site_node?.full_name].filter(Boolean).join(' — '));
  field(t('audits.fields.auditor'), a.auditor.full_name);
  field(t('audits.fields.auditee'), a.auditee?.full_name ?? '');
  field(
    `${t('audits.fields.frequency')} · ${t('audits.fields.dueDate')}`,
    `${t(`audits.frequencies.${a.frequency}`)} · ${a.due_date} – ${a.window_end}`,
  );
  field(`${t('audits.fields.startedAt')} · ${t('audits.fields.completedAt')}`, `${utc(a.started_at)} · ${utc(a.completed_at)}`);
  if (a.decided_at)
    field(`${t('audits.fields.decidedAt')} · ${t('audits.fields.decidedBy')}`, `${utc(a.decided_at)} · ${r.decided_by?.full_name ?? ''}`);
  if (a.decision_comment) field(t('audits.fields.remarks'), a.decision_comment);

  const on = r.settings.include;
  if (on.scorecard) {
    heading(t('audits.report.scorecard'));
    const s = r.scorecard;
    write(
      'bold',
      12,
      s.percent === null
        ? t('audits.report.scoreNone')
        : t('audits.fields.scoreOf', { obtained: s.obtained, assigned: s.assigned, percent: s.percent }),
    );
  }
  if ((on.scorecard || on.section_summary) && r.scorecard.sections.length) {
    if (on.section_summary) heading(t('audits.report.sectionSummary'));
    table(
      [
        { label: t('audits.fields.section'), width: 0.3 },
        { label: t('audits.report.questions'), width: 0.1, align: 'right' },
        { label: t('audits.report.answered'), width: 0.1, align: 'right' },
        { label: t('audits.fields.yes'), width: 0.08, align: 'right' },
        { label: t('audits.fields.no'), width: 0.08, align: 'right' },
        { label: t('audits.answers.na'), width: 0.1, align: 'right' },
        { label: t('audits.answers.failed'), width: 0.1, align: 'right' },
        { label: t('audits.fields.points'), width: 0.14, align: 'right' },
      ],
      r.scorecard.sections.map((s) => [
        s.name,
        String(s.shown),
        String(s.answered),
        String(s.yes),
        String(s.no),
        String(s.na),
        String(s.failed),
        s.percent === null ? '—' : `${s.obtained}/${s.assigned} (${s.percent}%)`,
      ]),
    );
  }
  if (on.responses) {
    heading(t('audits.report.responses'));
    for (const s of r.responses) {
      write('bold', 11, s.section);
      for (const q of s.questions) {
        const flags = [q.critical ? t('audits.answers.critical') : '', q.failed ? t('audits.answers.failed') : '']
          .filter(Boolean)
          .join(' · ');
        write('bold', 9.5, `${q.label}${flags ? `  [${flags}]` : ''}`);
        write('body', 9.5, q.answer.length ? q.answer.join('\n') : t('audits.report.unanswered'), { width });
        if (q.assigned !== null) write('body', 8.5, `${t('audits.fields.points')}: ${q.obtained}/${q.assigned}`);
        if (q.remark) write('body', 8.5, `${t('audits.fields.remark')}: ${q.remark}`);
        for (const f of q.files) draw(f.id, [200, 130]);
        doc.moveDown(0.3);
      }
    }
  }
  if (on.key_findings) {
    heading(t('audits.report.keyFindings'));
    if (r.key_findings.length === 0) write('body', 9.5, t('audits.report.none'));
    for (const k of r.key_findings) {
      write('body', 9.5, `• ${k.description}${k.action ? ` (#${k.action.serial})` : ''}`);
      for (const p of k.pictures) draw(p.id, [200, 130]);
    }
  }
  if (on.action_items) {
    heading(t('audits.report.actionItems'));
    if (r.action_items.length === 0) write('body', 9.5, t('audits.report.none'));
    else
      table(
        [
          { label: '#', width: 0.08 },
          { label: t('audits.fields.description'), width: 0.42 },
          { label: t('actions.fields.responsible'), width: 0.2 },
          { label: t('audits.fields.dueDate'), width: 0.14 },
          { label: t('audits.fields.status'), width: 0.16 },
        ],
        r.action_items.map((x) => [
          String(x.serial),
          x.description,
          x.responsible?.full_name ?? '',
          x.due_date,
          t(`actions.statuses.${x.status}`),
        ]),
      );
  }
  if (on.timeline) {
    heading(t('audits.report.timeline'));
    table(
      [
        { label: t('audits.fields.completedAt'), width: 0.22 },
        { label: t('audits.fields.status'), width: 0.28 },
        { label: t('audits.fields.auditor'), width: 0.2 },
        { label: t('audits.fields.remarks'), width: 0.3 },
      ],
      r.timeline.map((e) => [utc(e.at), t(`audits.events.${e.event}`), e.actor?.full_name ?? '', e.comment ?? '']),
    );
  }
  if (on.attachments) {
    heading(t('audits.report.attachments'));
    if (r.attachments.length === 0) write('body', 9.5, t('audits.report.none'));
    for (const f of r.attachments) write('body', 9.5, `• ${f.file_name} (${Math.max(1, Math.round(f.size_bytes / 1024))} KB)`);
  }
  if (on.notes) {
    heading(t('audits.report.notes'));
    write('body', 9.5, r.notes ?? t('audits.report.none'), { width });
  }
  const bytes = await pdf.finish((page, pages) => t('audits.report.page', { page, pages }));
  return { bytes, fileName: `${a.serial_label}.pdf` };
}

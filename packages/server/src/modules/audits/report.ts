import {
  AUDIT_DEFAULT_REPORT_PARTS,
  AUDIT_REPORT_PARTS,
  type AuditReport,
  type AuditReportPart,
  type AuditReportSettings,
  type Language,
} from '@bulwark/domain';
import { eq } from 'drizzle-orm';
import type { Principal } from '../../platform/auth/principal.js';
import { recordAudit } from '../../platform/audit.js';
import type { Tx } from '../../platform/db/db.js';
import { files } from '../../platform/db/schema.js';
import { refuse } from './common.js';
import { answerLines } from './answer-text.js';
import { fileViews } from './files.js';
import { sectionSummary } from './summaries.js';
import { auditReportSettings } from './tables.js';
import { auditView } from './view.js';

/** The organisation's report settings: every part included unless switched off. */
export async function reportSettings(tx: Tx): Promise<AuditReportSettings> {
  const [row] = await tx.select().from(auditReportSettings);
  const include = Object.fromEntries(AUDIT_REPORT_PARTS.map((p) => [p, row?.include[p] ?? AUDIT_DEFAULT_REPORT_PARTS[p]])) as Record<
    AuditReportPart,
    boolean
  >;
  const logo = row?.logoFileId ? ((await fileViews(tx, [row.logoFileId])).get(row.logoFileId) ?? null) : null;
  return { logo, include, header_text: row?.headerText ?? null, updated_at: row?.updatedAt.toISOString() ?? null };
}

/** PUT /api/audit_report_settings: the logo must be an uploaded logo of this organisation. */
export async function saveReportSettings(
  tx: Tx,
  actor: Principal,
  body: { logo_file_id: string | null; include: Partial<Record<AuditReportPart, boolean>>; header_text: string | null },
): Promise<void> {
  if (body.logo_file_id) {
    const [f] = await tx.select({ purpose: files.purpose }).from(files).where(eq(files.id, body.logo_file_id));
    if (f?.purpose !== 'logo') refuse({ logo_file_id: 'audits.validation.logoUnknown' });
  }
  const before = await reportSettings(tx);
  const include = { ...before.include, ...body.include };
  const values = { logoFileId: body.logo_file_id, include, headerText: body.header_text, updatedBy: actor.userId, updatedAt: new Date() };
  await tx.insert(auditReportSettings).values(values).onConflictDoUpdate({ target: auditReportSettings.organizationId, set: values });
  await recordAudit(tx, {
    actorUserId: actor.userId,
    action: 'audit_report_settings_updated',
    entity: 'AuditReportSettings',
    changes: { ...body, include },
  });
}

/**
 * GET /api/v2/audits/{id}/report: the report's parts, each as the settings include it (a part left out
 * comes back empty), answers in words in `lang`.
 */
export async function auditReport(tx: Tx, viewer: Principal, id: string, lang: Language, now = new Date()): Promise<AuditReport> {
  const a = await auditView(tx, viewer, id);
  const settings = await reportSettings(tx);
  const on = settings.include;
  const answers = new Map(a.answers.map((x) => [x.question_id, x]));
  const shown = new Set(a.shown_question_ids);
  const responses = on.responses
    ? [...a.form.sections]
        .sort((x, y) => x.position - y.position)
        .map((s) => ({
          section: s.name,
          questions: s.questions
            .filter((q) => shown.has(q.id))
            .map((q) => {
              const x = answers.get(q.id);
              return {
                question_id: q.id,
                label: q.label,
                type: q.type,
                critical: q.critical,
                answer: x ? answerLines(q, x.cells, lang) : [],
                remark: x?.remark ?? null,
                failed: x?.failed ?? false,
                obtained: x?.obtained ?? null,
                assigned: x?.assigned ?? null,
                files: x ? [...x.cell_files, ...x.attachments] : [],
              };
            }),
        }))
    : [];
  return {
    audit: {
      id: a.id,
      serial_label: a.serial_label,
      template: a.template,
      site: a.site,
      site_node: a.site_node,
      auditor: a.auditor,
      auditee: a.auditee,
      frequency: a.frequency,
      due_date: a.due_date,
      window_end: a.window_end,
      status: a.status,
      late: a.late,
      started_at: a.started_at,
      completed_at: a.completed_at,
      decided_at: a.decided_at,
      decision_comment: a.decision_comment,
    },
    decided_by: a.decided_by,
    settings: { logo: settings.logo, header_text: settings.header_text, include: on },
    scorecard: { ...a.score, sections: on.scorecard || on.section_summary ? await sectionSummary(tx, a.id) : [] },
    responses,
    key_findings: on.key_findings ? a.key_findings : [],
    action_items: on.action_items ? a.actions : [],
    timeline: on.timeline ? a.timeline : [],
    attachments: on.attachments ? a.attachments : [],
    notes: on.notes ? a.notes : null,
    generated_at: now.toISOString(),
  };
}

import {
  ATTACHMENT_KIND_TYPES,
  MASTER_OF_QUESTION,
  PERMIT_MAX_HOURS,
  answeredFileIds,
  checkAnswers,
  isMasterQuestion,
  localDateTimeIn,
  localDateTimeToInstant,
  type Answers,
  type FormSection,
  type PermitSection,
} from '@bulwark/domain';
import { and, eq, inArray, or, sql } from 'drizzle-orm';
import type { Tx } from '../../platform/db/db.js';
import { files, organizations } from '../../platform/db/schema.js';
import { AppError } from '../../platform/errors.js';
import { isUnlinked } from '../../platform/storage/links.js';
import { siteNodes, sites } from '../sites/read.js';
import { storedAnswers, type StoredAnswers } from './form-snapshot.js';
import { activeEntries } from './masters.js';
import { permitFiles } from './tables.js';
import { activeWorkers } from './workers.js';

/** The request's own fields, as the form and the stored draft give them. */
export type RequestValues = {
  site_id: string | null;
  site_node_id: string | null;
  start_at: string | null;
  end_at: string | null;
  description: string | null;
  worker_ids: string[];
  answers: Answers;
  attachment_ids: string[];
};

/** What a checked request writes. */
export type CheckedRequest = {
  site: { id: string; name: string; timeZone: string; headOfSafetyId: string | null } | null;
  siteNodeId: string | null;
  start: { at: Date; local: string } | null;
  end: { at: Date; local: string } | null;
  answers: StoredAnswers;
  /** Every file the permit links: its own attachments (question null) and the attachment answers. */
  files: Array<{ fileId: string; questionId: string | null }>;
};

const HOUR = 3_600_000;
export const toPgTimestamp = (local: string) => `${local.replace('T', ' ')}:00`;
export const fromPgTimestamp = (pg: string | null) => (pg ? pg.slice(0, 16).replace(' ', 'T') : null);

async function organizationZone(tx: Tx): Promise<string> {
  const [o] = await tx
    .select({ zone: organizations.timezone })
    .from(organizations)
    .where(eq(organizations.id, sql`app_current_org()`));
  return o?.zone ?? 'UTC';
}

/**
 * Files a request may link: its uploader's attachments nothing links yet, or files this permit links
 * already (a draft saved again). Each attachment answer's files must be of its question's kinds and
 * sizes. Returns the file names for the stored answers.
 */
async function checkFiles(
  tx: Tx,
  permitId: string | null,
  uploader: string,
  ids: string[],
  sections: readonly FormSection[],
  values: Record<string, string | string[]>,
  fields: Record<string, string>,
): Promise<Map<string, { name: string; mime: string; size: number }>> {
  if (ids.length === 0) return new Map();
  const own = permitId
    ? sql`exists (select 1 from ${permitFiles} pf where pf.organization_id = ${files.organizationId} and pf.file_id = ${files.id} and pf.permit_id = ${permitId})`
    : sql`false`;
  const rows = await tx
    .select({ id: files.id, name: files.fileName, mime: files.mimeType, size: files.sizeBytes })
    .from(files)
    .where(
      and(
        inArray(files.id, [...new Set(ids)]),
        eq(files.purpose, 'attachment'),
        or(own, and(eq(files.uploadedBy, uploader), isUnlinked())),
      ),
    );
  const found = new Map(rows.map((r) => [r.id, { name: r.name, mime: r.mime, size: r.size }]));
  for (const s of sections)
    for (const q of s.questions) {
      const picked = values[q.id];
      if (q.type !== 'attachment' || !Array.isArray(picked)) continue;
      const kinds = new Set((q.attachment?.kinds ?? []).flatMap((k) => ATTACHMENT_KIND_TYPES[k]));
      for (const id of picked) {
        const f = found.get(id);
        if (!f) fields[`answers.${q.id}`] = 'permits.validation.attachmentUnknown';
        else if (!kinds.has(f.mime)) fields[`answers.${q.id}`] = 'permits.validation.fileKind';
        else if (f.size > (q.attachment?.max_file_kb ?? 10240) * 1024) fields[`answers.${q.id}`] = 'permits.validation.fileSize';
      }
    }
  return found;
}

/**
 * Checks a request against its form: the site and area, the time of work (the template's default
 * hours after the start when no end is given), the workers, the answers (./form.ts rules, then the
 * files and master entries they name) and the permit's own files. `complete` (submitting) asks for
 * everything the permit needs: site, start, end, at least one worker, every required answer.
 * Refuses with every field error at once; nothing is written.
 */
export async function checkRequest(
  tx: Tx,
  input: { permitId: string | null; uploader: string; sections: PermitSection[]; defaultHours: number; complete: boolean },
  v: RequestValues,
): Promise<CheckedRequest> {
  const fields: Record<string, string> = {};
  const sections: FormSection[] = input.sections;
  let site: CheckedRequest['site'] = null;
  if (v.site_id) {
    const [row] = await tx
      .select({ id: sites.id, name: sites.name, timeZone: sites.timeZone, headOfSafetyId: sites.headOfSafetyId })
      .from(sites)
      .where(and(eq(sites.id, v.site_id), eq(sites.isActive, true)));
    if (!row) fields['site_id'] = 'permits.validation.siteUnknown';
    site = row ?? null;
  } else if (input.complete) fields['site_id'] = 'permits.validation.siteRequired';
  if (v.site_node_id) {
    const [node] = site
      ? await tx
          .select({ id: siteNodes.id })
          .from(siteNodes)
          .where(and(eq(siteNodes.id, v.site_node_id), eq(siteNodes.siteId, site.id)))
      : [];
    if (!node) fields['site_node_id'] = 'permits.validation.nodeUnknown';
  } else if (input.complete && areaRequired(input.sections)) fields['site_node_id'] = 'validation.required';

  // Times are the site's wall clock; before a site is chosen, the organisation's.
  const zone = site?.timeZone ?? (await organizationZone(tx));
  const start = v.start_at ? { at: localDateTimeToInstant(v.start_at, zone), local: v.start_at } : null;
  let end = v.end_at ? { at: localDateTimeToInstant(v.end_at, zone), local: v.end_at } : null;
  if (start && !end) {
    const at = new Date(start.at.getTime() + input.defaultHours * HOUR);
    end = { at, local: localDateTimeIn(zone, at) };
  }
  if (!start && input.complete) fields['start_at'] = 'permits.validation.startRequired';
  if (!end && input.complete) fields['end_at'] = 'permits.validation.endRequired';
  if (start && end && end.at <= start.at) fields['end_at'] = 'permits.validation.endBeforeStart';
  else if (start && end && end.at.getTime() - start.at.getTime() > PERMIT_MAX_HOURS * HOUR)
    fields['end_at'] = 'permits.validation.tooLongPermit';

  if (v.worker_ids.length === 0 && input.complete) fields['worker_ids'] = 'permits.validation.workersRequired';
  const workers = await activeWorkers(tx, v.worker_ids);
  if (workers.size !== v.worker_ids.length) fields['worker_ids'] = 'permits.validation.workerUnknown';

  const checked = checkAnswers(sections, v.answers, { phase: 'request', complete: input.complete });
  Object.assign(fields, checked.errors);
  const names = await checkMasters(tx, sections, checked.values, fields);
  const answerFiles = answeredFileIds(sections, checked.values);
  const found = await checkFiles(
    tx,
    input.permitId,
    input.uploader,
    [...answerFiles, ...v.attachment_ids],
    sections,
    checked.values,
    fields,
  );
  for (const id of v.attachment_ids) if (!found.has(id)) fields['attachment_ids'] = 'permits.validation.attachmentUnknown';
  if (Object.keys(fields).length > 0) throw new AppError('validation_failed', { fields });

  for (const [id, f] of found) names.set(id, f.name);
  const fileRows: CheckedRequest['files'] = v.attachment_ids.map((fileId) => ({ fileId, questionId: null }));
  for (const s of sections)
    for (const q of s.questions) {
      const picked = checked.values[q.id];
      if (q.type === 'attachment' && Array.isArray(picked)) for (const fileId of picked) fileRows.push({ fileId, questionId: q.id });
    }
  return { site, siteNodeId: v.site_node_id, start, end, answers: storedAnswers(checked.values, names), files: dedupe(fileRows) };
}

/** A file answers one place of a permit: the first place that names it keeps it. */
function dedupe(rows: CheckedRequest['files']): CheckedRequest['files'] {
  const seen = new Set<string>();
  return rows.filter((r) => !seen.has(r.fileId) && seen.add(r.fileId));
}

/** Whether the template asks for an area (any of its division, department or unit questions is required). */
function areaRequired(sections: readonly PermitSection[]): boolean {
  return sections.some((s) =>
    s.questions.some((q) => (q.binding === 'division' || q.binding === 'department' || q.binding === 'unit') && q.required),
  );
}

/** Master answers name active entries of their question's master; returns their names by id. */
export async function checkMasters(
  tx: Tx,
  sections: readonly FormSection[],
  values: Record<string, string | string[]>,
  fields: Record<string, string>,
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  for (const s of sections)
    for (const q of s.questions) {
      const picked = values[q.id];
      if (!isMasterQuestion(q.type) || !Array.isArray(picked)) continue;
      const found = await activeEntries(tx, MASTER_OF_QUESTION[q.type], picked);
      if (found.size !== picked.length) fields[`answers.${q.id}`] = 'permits.validation.masterUnknown';
      for (const [id, name] of found) names.set(id, name);
    }
  return names;
}

/** Files of closing answers: the closer's own unlinked attachments, of the question's kinds and sizes. */
export async function checkClosureFiles(
  tx: Tx,
  closer: string,
  sections: readonly FormSection[],
  values: Record<string, string | string[]>,
  fields: Record<string, string>,
): Promise<Map<string, string>> {
  const ids = answeredFileIds(
    sections.filter((s) => s.kind === 'closure'),
    values,
  );
  const found = await checkFiles(tx, null, closer, ids, sections, values, fields);
  return new Map([...found].map(([id, f]) => [id, f.name]));
}

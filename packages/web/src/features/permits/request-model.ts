import {
  checkAnswers,
  takesIds,
  type AnswerValue,
  type FormPhase,
  type PermitForm,
  type PermitSection,
  type SiteLevel,
} from '@bulwark/domain';

/**
 * The request form's state and its pure rules: the area pickers of the location section, the times of
 * the duration section, the answers as the form holds them and as the server takes them, and the checks
 * made before anything is sent (the server checks the same again).
 */

/** One file of an attachment question: uploading, uploaded (`fileId`) or refused (`error`). */
export type FileItem = { key: string; name: string; progress: number; fileId?: string; error?: string };

/** An answer as the form holds it: text, picked ids (master lists), or files. */
export type FormAnswer = string | string[] | FileItem[];
export type FormAnswers = Record<string, FormAnswer>;

export type RequestState = {
  site_id: string | null;
  /** The picked area of each level; the deepest one is the permit's area. */
  areas: Partial<Record<SiteLevel, string | null>>;
  start_date: string;
  start_time: string;
  end_date: string;
  end_time: string;
  description: string;
  worker_ids: string[];
  answers: FormAnswers;
  /** Files of the permit itself (beside the attachment questions). */
  attachments: FileItem[];
};

export const EMPTY_REQUEST: RequestState = {
  site_id: null,
  areas: {},
  start_date: '',
  start_time: '',
  end_date: '',
  end_time: '',
  description: '',
  worker_ids: [],
  answers: {},
  attachments: [],
};

type Site = PermitForm['sites'][number];
type Area = Site['areas'][number];

const LEVELS: readonly SiteLevel[] = ['division', 'department', 'unit'];

/** The areas offered at a level: those of the site under the area picked one level up (any at the top). */
export function areaOptions(site: Site | undefined, level: SiteLevel, areas: RequestState['areas']): Area[] {
  if (!site) return [];
  const up = LEVELS[LEVELS.indexOf(level) - 1];
  const parent = up ? (areas[up] ?? null) : null;
  if (up && !parent) return [];
  return site.areas.filter((a) => a.level === level && (up ? a.parent_id === parent : true));
}

/** Picking an area clears the levels below it, which belonged to the old one. */
export function pickArea(areas: RequestState['areas'], level: SiteLevel, id: string | null): RequestState['areas'] {
  const next: RequestState['areas'] = {};
  for (const l of LEVELS) {
    if (LEVELS.indexOf(l) < LEVELS.indexOf(level)) next[l] = areas[l] ?? null;
    else if (l === level) next[l] = id;
  }
  return next;
}

/** The deepest picked area. */
export function deepestArea(areas: RequestState['areas']): string | null {
  for (const l of [...LEVELS].reverse()) if (areas[l]) return areas[l]!;
  return null;
}

/** The chain of picks that leads to an area (its parents up to the division). */
export function areasOf(site: Site | undefined, areaId: string | null): RequestState['areas'] {
  const out: RequestState['areas'] = {};
  let current = site?.areas.find((a) => a.id === areaId);
  while (current) {
    out[current.level] = current.id;
    current = site?.areas.find((a) => a.id === current!.parent_id);
  }
  return out;
}

/** 'YYYY-MM-DD' and 'HH:mm' as the site's local time, or null while either is missing. */
export function joinLocal(date: string, time: string): string | null {
  return /^\d{4}-\d{2}-\d{2}$/.test(date) && /^\d{2}:\d{2}$/.test(time) ? `${date}T${time}` : null;
}

export function splitLocal(local: string | null): { date: string; time: string } {
  if (!local) return { date: '', time: '' };
  const [date = '', time = ''] = local.replace(' ', 'T').split('T');
  return { date, time: time.slice(0, 5) };
}

/** A local time plus whole hours (wall-clock arithmetic, as the site's clock reads it). */
export function addHours(local: string, hours: number): string {
  const at = new Date(`${local}:00Z`);
  at.setUTCHours(at.getUTCHours() + hours);
  return at.toISOString().slice(0, 16);
}

/** A new request starts at the next full hour of the reader's clock. */
export function nextFullHour(now: Date): { date: string; time: string } {
  const at = new Date(now.getTime());
  at.setMinutes(0, 0, 0);
  at.setHours(at.getHours() + 1);
  const pad = (n: number) => String(n).padStart(2, '0');
  return { date: `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`, time: `${pad(at.getHours())}:00` };
}

/** The answers a saved permit holds, as the form holds them (ids for lists, files for attachments). */
export function answersFromPermit(sections: readonly PermitSection[], saved: Record<string, AnswerValue>): FormAnswers {
  const out: FormAnswers = {};
  for (const s of sections)
    for (const q of s.questions) {
      const a = saved[q.id];
      if (!a) continue;
      if (q.type === 'attachment') out[q.id] = a.items.map((f) => ({ key: `s-${f.id}`, name: f.name, progress: 1, fileId: f.id }));
      else if (takesIds(q.type)) out[q.id] = a.items.map((i) => i.id);
      else if (a.value !== null) out[q.id] = a.value;
    }
  return out;
}

function isFiles(v: FormAnswer): v is FileItem[] {
  return Array.isArray(v) && v.length > 0 && typeof v[0] === 'object';
}

/** The answers as the server takes them: text, or ids (uploaded files only). */
export function answersToSend(answers: FormAnswers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  for (const [id, v] of Object.entries(answers)) {
    if (isFiles(v)) out[id] = v.flatMap((f) => (f.fileId ? [f.fileId] : []));
    else if (Array.isArray(v)) out[id] = v as string[];
    else out[id] = v;
  }
  return out;
}

/** Whether a file is still on its way: the form waits for it before it sends. */
export function uploadsPending(answers: FormAnswers, attachments: FileItem[] = []): boolean {
  return [...Object.values(answers), attachments].some((v) => isFiles(v) && v.some((f) => !f.fileId && !f.error));
}

/** The body of a create or an update. */
export function requestBody(state: RequestState) {
  return {
    site_id: state.site_id,
    site_node_id: deepestArea(state.areas),
    start_at: joinLocal(state.start_date, state.start_time),
    end_at: joinLocal(state.end_date, state.end_time),
    description: state.description.trim() === '' ? null : state.description.trim(),
    worker_ids: state.worker_ids,
    answers: answersToSend(state.answers),
    attachment_ids: state.attachments.flatMap((f) => (f.fileId ? [f.fileId] : [])),
  };
}

/** The state of a saved draft. */
export function stateFromPermit(
  p: {
    site: { id: string } | null;
    area: { id: string } | null;
    start_at: string | null;
    end_at: string | null;
    description: string | null;
    workers: { id: string }[];
    answers: Record<string, AnswerValue>;
    attachments: { id: string; file_name: string }[];
  },
  sections: readonly PermitSection[],
  site: Site | undefined,
): RequestState {
  const start = splitLocal(p.start_at);
  const end = splitLocal(p.end_at);
  return {
    site_id: p.site?.id ?? null,
    areas: areasOf(site, p.area?.id ?? null),
    start_date: start.date,
    start_time: start.time,
    end_date: end.date,
    end_time: end.time,
    description: p.description ?? '',
    worker_ids: p.workers.map((w) => w.id),
    answers: answersFromPermit(sections, p.answers),
    attachments: p.attachments.map((f) => ({ key: `s-${f.id}`, name: f.file_name, progress: 1, fileId: f.id })),
  };
}

export type RequestStep = 'workers' | 'form' | 'submit';

/**
 * What must be put right before a request can be submitted, as field keys of the server's refusals
 * (`worker_ids`, `site_id`, `start_at`, `end_at`, `answers.<id>`) with i18n keys.
 */
export function submitProblems(
  state: RequestState,
  sections: readonly PermitSection[],
  phase: FormPhase = 'request',
): Record<string, string> {
  const out: Record<string, string> = {};
  if (state.worker_ids.length === 0) out['worker_ids'] = 'permits.validation.workersRequired';
  if (!state.site_id) out['site_id'] = 'permits.validation.siteRequired';
  const start = joinLocal(state.start_date, state.start_time);
  const end = joinLocal(state.end_date, state.end_time);
  if (!start) out['start_at'] = 'permits.validation.startRequired';
  if (!end) out['end_at'] = 'permits.validation.endRequired';
  if (start && end && end <= start) out['end_at'] = 'permits.validation.endBeforeStart';
  const { errors } = checkAnswers(sections, answersToSend(state.answers), { phase, complete: true });
  return { ...out, ...errors };
}

/** Which step of the flow shows a field key. */
export function stepOf(field: string): RequestStep {
  return field === 'worker_ids' ? 'workers' : 'form';
}

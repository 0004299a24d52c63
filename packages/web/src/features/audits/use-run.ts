import {
  auditFormQuestions,
  type Audit,
  type AuditAnswerInput,
  type AuditAnswerResult,
  type AuditForm,
  type AuditQuestion,
} from '@bulwark/domain';
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isApiError } from '../../api/api-error.js';
import { notifySuccess } from '../../app/notify.js';
import { useAuditCommands } from './audits-api.js';
import { answerBody, blankDraft, draftsOf, liveState, type AnswerDraft, type Drafts } from './run-model.js';
import { createSaveQueue, localPendingStore, type SaveQueue, type SaveStatus } from './save-queue.js';

/** Text and numbers are saved once the auditor pauses typing (or leaves the field); choices at once. */
const TYPING_PAUSE_MS = 1200;

const browserStorage = () => (typeof window === 'undefined' ? null : window.localStorage);

/** Options added on site, until the server has given them their keys: the label stands in for the key. */
type AddedOptions = Record<string, string[]>;

function withAdded(form: AuditForm, added: AddedOptions): AuditForm {
  if (Object.keys(added).length === 0) return form;
  return {
    ...form,
    sections: form.sections.map((s) => ({
      ...s,
      questions: s.questions.map((q) => {
        const extra = (added[q.id] ?? []).filter((label) => !q.options.some((o) => o.label.toLowerCase() === label.toLowerCase()));
        return extra.length
          ? { ...q, options: [...q.options, ...extra.map((label) => ({ key: label, label, score: 0, failure: false, added: true }))] }
          : q;
      }),
    })),
  };
}

/** The saved answer's cells, with a stand-in key (an added option's label) replaced by its real key. */
function rekey(d: AnswerDraft, options: Array<{ key: string; label: string }> | null): AnswerDraft {
  if (!options) return d;
  const byLabel = new Map(options.map((o) => [o.label.toLowerCase(), o.key]));
  return {
    ...d,
    cells: d.cells.map((c) => ({
      ...c,
      choice: c.choice.map((k) => (options.some((o) => o.key === k) ? k : (byLabel.get(k.toLowerCase()) ?? k))),
    })),
  };
}

/**
 * The running audit's state on the screen: the drafts of every answer, the live score and conditions,
 * and each answer's save status. Every change is queued for the server at once (createSaveQueue), kept
 * in the browser until saved.
 */
export function useRun(audit: Audit) {
  const { t } = useTranslation();
  const commands = useAuditCommands();
  const [added, setAdded] = useState<AddedOptions>({});
  const form = useMemo(() => withAdded(audit.form, added), [audit.form, added]);
  const questions = useMemo(() => new Map(auditFormQuestions(form).map((q) => [q.id, q])), [form]);
  const [drafts, setDrafts] = useState<Drafts>(() => {
    const stored = localPendingStore(audit.id, browserStorage()).load();
    const out = draftsOf(audit);
    // What a previous visit left unsaved is newer than what the server holds.
    for (const b of stored)
      if (b.cells)
        out[b.question_id] = {
          ...(out[b.question_id] ?? blankDraft({ row_headers: [] })),
          cells: b.cells.map((c) => ({
            na: false,
            choice: [],
            text: null,
            number: null,
            date: null,
            file_ids: [],
            ...c,
          })) as AnswerDraft['cells'],
        };
    return out;
  });
  const [statuses, setStatuses] = useState<Record<string, SaveStatus>>({});
  const queue = useRef<SaveQueue | null>(null);
  const timers = useRef(new Map<string, ReturnType<typeof setTimeout>>());
  const latest = useRef(drafts);
  useLayoutEffect(() => {
    latest.current = drafts;
  }, [drafts]);
  /**
   * Every change is made to `latest` at once, then shown: a save reads `latest` right after the change,
   * and React may run a state updater only at the next render (when another update is pending, e.g. the
   * blur of a text answer in the same tap), which sent the previous answer, or none.
   */
  const update = useCallback((change: (ds: Drafts) => Drafts) => {
    latest.current = change(latest.current);
    setDrafts(latest.current);
  }, []);

  const onSaved = useCallback(
    (body: AuditAnswerInput, r: AuditAnswerResult) => {
      if (body.add_option)
        setAdded((a) => ({ ...a, [body.question_id]: (a[body.question_id] ?? []).filter((l) => l !== body.add_option) }));
      if (r.question_options)
        update((ds) => (ds[body.question_id] ? { ...ds, [body.question_id]: rekey(ds[body.question_id]!, r.question_options) } : ds));
      if (r.answer) {
        const files = { attachments: r.answer.attachments, cellFiles: r.answer.cell_files };
        update((ds) => (ds[body.question_id] ? { ...ds, [body.question_id]: { ...ds[body.question_id]!, ...files } } : ds));
      }
      if (r.critical_failure) notifySuccess(t('auditsWeb.run.criticalTold'));
      commands.patchCached(audit.id, (a) => ({
        ...a,
        form: r.question_options
          ? {
              ...a.form,
              sections: a.form.sections.map((s) => ({
                ...s,
                questions: s.questions.map((q) =>
                  q.id === body.question_id ? { ...q, options: mergeOptions(q, r.question_options!) } : q,
                ),
              })),
            }
          : a.form,
        answers: [...a.answers.filter((x) => x.question_id !== body.question_id), ...(r.answer ? [r.answer] : [])],
        shown_question_ids: r.shown_question_ids,
        progress: r.progress,
        score: r.score,
      }));
    },
    [audit.id, commands, t, update],
  );
  const savedRef = useRef(onSaved);
  useLayoutEffect(() => {
    savedRef.current = onSaved;
  }, [onSaved]);

  useEffect(() => {
    const q = createSaveQueue<AuditAnswerResult>({
      send: (body) => commands.answer(audit.id, body),
      store: localPendingStore(audit.id, browserStorage()),
      online: () => (typeof navigator === 'undefined' ? true : navigator.onLine),
      later: (fn, ms) => {
        const h = setTimeout(fn, ms);
        return () => clearTimeout(h);
      },
      onStatus: (id, s) => setStatuses((x) => ({ ...x, [id]: s })),
      onSaved: (b, r) => savedRef.current(b, r),
      retryable: (e) => !isApiError(e) || e.status === 0 || e.status >= 500,
      describe: (e) => (isApiError(e) ? { message: e.message, fields: e.fields } : { message: t('errors.somethingWentWrong') }),
    });
    queue.current = q;
    const wake = () => q.wake();
    window.addEventListener('online', wake);
    return () => {
      window.removeEventListener('online', wake);
      q.dispose();
      queue.current = null;
    };
    // One queue per audit for the life of the screen.
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the queue must not be rebuilt when translations or commands change
  }, [audit.id]);

  const live = useMemo(() => liveState(form, drafts), [form, drafts]);

  /** Queues the draft's save now (when it is whole, or empty to clear it). */
  const save = useCallback(
    (q: AuditQuestion, extra: Partial<AuditAnswerInput> = {}) => {
      const pending = timers.current.get(q.id);
      if (pending) clearTimeout(pending);
      timers.current.delete(q.id);
      const d = latest.current[q.id];
      if (!d) return;
      const body = answerBody(q, d);
      if (body === undefined) {
        setStatuses((x) => ({ ...x, [q.id]: { state: 'refused', message: t('auditsWeb.run.incomplete') } }));
        return;
      }
      queue.current?.put({ ...body, ...extra });
    },
    [t],
  );

  /** Changes a draft; `when` says whether to save now, after a pause in typing, or not yet (a remark). */
  const change = useCallback(
    (q: AuditQuestion, next: (d: AnswerDraft) => AnswerDraft, when: 'now' | 'pause' | 'later' = 'now') => {
      update((ds) => ({ ...ds, [q.id]: next(ds[q.id] ?? blankDraft(q)) }));
      if (when === 'now') save(q);
      else if (when === 'pause') {
        // Not saved yet, from the first key: the line says so at once (and "Complete" waits for it), rather
        // than appearing when the auditor leaves the field, moving what they were about to tap.
        setStatuses((x) => (x[q.id]?.state === 'waiting' ? x : { ...x, [q.id]: { state: 'waiting' } }));
        const pending = timers.current.get(q.id);
        if (pending) clearTimeout(pending);
        timers.current.set(
          q.id,
          setTimeout(() => save(q), TYPING_PAUSE_MS),
        );
      }
    },
    [save, update],
  );

  /** "Add options" while answering: the option is chosen at once and the server keeps it in this audit. */
  const addOption = useCallback(
    (q: AuditQuestion, label: string, cell: number) => {
      setAdded((a) => ({ ...a, [q.id]: [...(a[q.id] ?? []), label] }));
      const d = latest.current[q.id] ?? blankDraft(q);
      const cells = d.cells.map((c, i) => (i === cell ? { ...c, na: false, choice: q.multiple ? [...c.choice, label] : [label] } : c));
      update((ds) => ({ ...ds, [q.id]: { ...d, cells } }));
      queue.current?.put({
        question_id: q.id,
        cells: cells.map((c) => ({ na: c.na, choice: c.choice, text: c.text, number: c.number, date: c.date, file_ids: c.file_ids })),
        remark: d.remark,
        attachment_ids: d.attachments.map((f) => f.id),
        add_option: label,
      });
    },
    [update],
  );

  const unsaved = Object.entries(statuses).filter(([, s]) => s.state !== 'saved' && s.state !== 'refused').length;
  return { form, questions, drafts, live, statuses, change, save, addOption, unsaved, wake: () => queue.current?.wake() };
}

function mergeOptions(q: AuditQuestion, options: Array<{ key: string; label: string }>) {
  return options.map(
    (o) => q.options.find((x) => x.key === o.key) ?? { key: o.key, label: o.label, score: 0, failure: false, added: true },
  );
}

export type Run = ReturnType<typeof useRun>;

import type { Audit, AuditReport, AuditSummary, AuditTrends } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, upload, type TestApp } from './helpers.js';
import {
  answered,
  auditWorld,
  fireTemplate,
  getAudit,
  no,
  ok,
  outbox,
  pdfText,
  PNG,
  scheduleOnce,
  yes,
  type World,
} from './audits-support.js';

/**
 * Issue 17, lists and reports: the list by audit and by site with its tabs, totals and export; the
 * section and total summaries; the report data and its PDF text; report settings; the e-mailed report
 * with the PDF attached; the summary across audits; the trends per template.
 */

let t: TestApp;
let w: World;
let fire: Awaited<ReturnType<typeof fireTemplate>>;
let done: string;
let running: string;

beforeAll(async () => {
  t = await createTestApp();
  w = await auditWorld(t, 'auditrep');
  fire = await fireTemplate(t, w.people.manager.s);
  const s = w.people.auditor.s;
  done = (await scheduleOnce(t, w.people.manager.s, w, fire.id)).auditId;
  await ok(await call(t, s, 'POST', `/api/v2/audits/${done}/start`, {}));
  await answered(t, s, done, fire.placed.id, [no], { remark: 'Two missing' });
  await answered(t, s, done, fire.why.id, [{ choice: ['Missing'] }]);
  await answered(t, s, done, fire.exits.id, [yes]);
  await answered(t, s, done, fire.notes.id, [{ text: 'Stairs B checked' }]);
  await ok(
    await call(t, s, 'POST', `/api/v2/audits/${done}/key_findings`, {
      findings: [
        {
          description: 'Replace the missing extinguishers',
          control_type: 'engineering',
          responsible_id: w.people.manager.id,
          due_date: '2999-01-01',
        },
      ],
    }),
    201,
  );
  await ok(await call(t, s, 'PUT', `/api/v2/audits/${done}/notes`, { notes: 'Night shift present' }));
  await ok(await call(t, s, 'POST', `/api/v2/audits/${done}/complete`, { declaration_accepted: true }));
  running = (await scheduleOnce(t, w.people.manager.s, w, fire.id, { site_ids: [w.la] })).auditId;
  await ok(await call(t, s, 'POST', `/api/v2/audits/${running}/start`, {}));
}, 180_000);
afterAll(() => t?.close());

describe('the list by audit and by site', () => {
  it('answers each tab with the filters, its totals and the same rows as a workbook', async () => {
    const r = w.people.reader.s;
    const completed = await ok<{ audits: Array<{ id: string; score_percent: number; key_findings_count: number; failed_count: number }> }>(
      await call(t, r, 'GET', '/api/v2/audits?tab=completed'),
    );
    expect(completed.audits.map((a) => a.id)).toEqual([done]);
    expect(completed.audits[0]).toMatchObject({ score_percent: 40, key_findings_count: 1, failed_count: 2 });
    const counts = await ok<{ counts: Record<string, number> }>(await call(t, r, 'GET', '/api/v2/audits/period_status_counts'));
    expect(counts.counts).toEqual({ scheduled: 0, in_progress: 1, overdue: 0, completed: 1, approved: 0, total: 2 });
    const la = await ok<{ counts: Record<string, number> }>(
      await call(t, r, 'GET', `/api/v2/audits/period_status_counts?site_id=${w.la}&frequency=once&type=fire`),
    );
    expect(la.counts.total).toBe(1);
    const search = await ok<{ audits: unknown[] }>(await call(t, r, 'GET', '/api/v2/audits?search=Los%20Angeles'));
    expect(search.audits).toHaveLength(1);
    const bySite = await ok<{ sites: Array<{ site: { name: string }; counts: { total: number }; average_score: number | null }> }>(
      await call(t, r, 'GET', '/api/v2/audits/by_site'),
    );
    expect(bySite.sites.map((x) => [x.site.name, x.counts.total, x.average_score])).toEqual([
      ['Los Angeles Yard', 1, null],
      ['Tokyo Works', 1, 40],
    ]);
    const xlsx = await call(t, r, 'GET', '/api/v2/audits?tab=completed&export_to_excel=true');
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect((await call(t, w.people.nobody.s, 'GET', '/api/v2/audits')).statusCode).toBe(403);
    expect((await call(t, r, 'GET', '/api/v2/audits?tab=nope')).statusCode).toBe(400);
  });
});

describe('summaries of one audit', () => {
  it('gives the section-wise response summary, the totals and the timeline', async () => {
    const r = w.people.reader.s;
    const sections = await ok<{ sections: Array<Record<string, unknown>> }>(
      await call(t, r, 'GET', `/api/audits/${done}/audit_section_wise_summary`),
    );
    expect(sections.sections).toEqual([
      {
        id: fire.sectionId,
        name: 'Fire',
        questions: 4,
        shown: 4,
        answered: 4,
        yes: 1,
        no: 1,
        na: 0,
        failed: 2,
        obtained: 10,
        assigned: 25,
        percent: 40,
      },
    ]);
    const total = await ok<{ questions: Record<string, number>; key_findings: number; actions: Record<string, number> }>(
      await call(t, r, 'GET', `/api/audits/${done}/audit_total_summary`),
    );
    expect(total).toMatchObject({
      questions: { total: 4, shown: 4, answered: 4, failed: 2, critical_failed: 0 },
      key_findings: 1,
      actions: { total: 1, open: 1 },
    });
    const timeline = await ok<{ timeline: Array<{ event: string }> }>(await call(t, r, 'POST', '/api/audits/timeline', { audit_id: done }));
    expect(timeline.timeline.map((e) => e.event)).toEqual([
      'created',
      'started',
      'key_findings_added',
      'notes_updated',
      'completed',
      'review_submitted',
    ]);
  });
});

describe('the report and its PDF', () => {
  it('holds the scorecard, responses, key findings, action items, timeline and notes in the reader’s language', async () => {
    const { report } = await ok<{ report: AuditReport }>(
      await call(t, w.people.reader.s, 'GET', `/api/v2/audits/${done}/report`, undefined, { 'accept-language': 'es' }),
    );
    expect(report.scorecard).toMatchObject({ obtained: 10, assigned: 25, percent: 40 });
    expect(report.responses[0]!.questions.find((q) => q.question_id === fire.placed.id)).toMatchObject({
      answer: ['No'],
      remark: 'Two missing',
      failed: true,
    });
    expect(report.responses[0]!.questions.find((q) => q.question_id === fire.exits.id)!.answer).toEqual(['Sí']);
    expect(report.action_items.map((a) => a.description)).toEqual(['Replace the missing extinguishers']);

    const pdf = await call(t, w.people.reader.s, 'GET', `/api/v2/audits/${done}/report.pdf`);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    const text = await pdfText(pdf.rawPayload);
    for (const part of [
      'Audit report AUD-',
      'Fire safety walk',
      'Tokyo Works',
      'Aldo Auditor',
      '10 of 25 (40%)',
      'Section-wise response summary',
      'Extinguishers in place?',
      'Two missing',
      'Replace the missing extinguishers',
      'Night shift present',
      'Timeline',
    ])
      expect(text).toContain(part);
  });

  it('follows the report settings: a logo and the parts left out', async () => {
    const logo = await upload(t, w.people.manager.s, '/api/audit_report_settings/logo', 'logo.png', PNG, 'image/png');
    expect(logo.statusCode, logo.body).toBe(201);
    expect((await call(t, w.people.reader.s, 'PUT', '/api/audit_report_settings', { include: { timeline: false } })).statusCode).toBe(403);
    const saved = await ok<{ settings: { logo: { id: string }; include: Record<string, boolean> } }>(
      await call(t, w.people.manager.s, 'PUT', '/api/audit_report_settings', {
        logo_file_id: logo.json().file.id,
        include: { timeline: false, notes: false },
        header_text: 'Acme Plant 4',
      }),
    );
    expect(saved.settings.include).toMatchObject({ timeline: false, notes: false, scorecard: true });
    const { report } = await ok<{ report: AuditReport }>(await call(t, w.people.reader.s, 'GET', `/api/v2/audits/${done}/report`));
    expect(report.timeline).toEqual([]);
    expect(report.notes).toBeNull();
    const text = await pdfText((await call(t, w.people.reader.s, 'GET', `/api/v2/audits/${done}/report.pdf`)).rawPayload);
    expect(text).toContain('Acme Plant 4');
    expect(text).not.toContain('Night shift present');
    await ok(
      await call(t, w.people.manager.s, 'PUT', '/api/audit_report_settings', {
        logo_file_id: null,
        include: { timeline: true, notes: true },
      }),
    );
  });

  it('mails the PDF to the members and addresses chosen, once the audit is completed', async () => {
    const early = await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${running}/send_report`, { emails: ['board@example.com'] });
    expect(early.statusCode).toBe(409);
    expect(
      (await call(t, w.people.reader.s, 'POST', `/api/v2/audits/${done}/send_report`, { emails: ['board@example.com'] })).statusCode,
    ).toBe(403);
    const sent = await ok<{ audit: Audit }>(
      await call(t, w.people.auditor.s, 'POST', `/api/v2/audits/${done}/send_report`, {
        user_ids: [w.people.safety.id],
        emails: ['board@example.com'],
        message: 'For Monday',
      }),
    );
    expect(sent.audit.timeline.at(-1)).toMatchObject({ event: 'report_sent' });
    const mails = await outbox(t, w.org.id, 'Audit report');
    expect(mails.map((m) => m.to_address).sort()).toEqual(['board@example.com', `safety@${w.org.subDomain}.test`]);
    for (const m of mails) {
      expect(m.attachment_file_ids).toHaveLength(1);
      expect(m.body).toContain('For Monday');
    }
    const file = await t.deps.db.ownerPool.query<{ mime_type: string; file_name: string }>(
      'select mime_type, file_name from files where id = $1',
      [mails[0]!.attachment_file_ids[0]],
    );
    expect(file.rows[0]).toMatchObject({ mime_type: 'application/pdf' });
    expect(file.rows[0]!.file_name).toMatch(/^AUD-\d{6}\.pdf$/);
  });
});

describe('across audits: the summary and the trends', () => {
  it('sums the audits the filters pick, and names the questions failed most', async () => {
    const summary = await ok<AuditSummary>(await call(t, w.people.reader.s, 'POST', '/api/audits/auditSummaryInfo', {}));
    expect(summary).toMatchObject({
      counts: { completed: 1, in_progress: 1, total: 2 },
      on_time: 1,
      late: 0,
      average_score: 40,
      key_findings: 1,
    });
    expect(summary.most_failed.map((q) => [q.label, q.failures, q.answers])).toEqual([
      ['Extinguishers in place?', 1, 1],
      ['Why not?', 1, 1],
    ]);
    const la = await ok<AuditSummary>(await call(t, w.people.reader.s, 'POST', '/api/audits/auditSummaryInfo', { site_id: w.la }));
    expect(la.counts.total).toBe(1);
  });

  it('gives per template the score per site by month, approved and completed alike', async () => {
    await ok(await call(t, w.people.approver.s, 'POST', `/api/v2/audits/${done}/decide`, { approve: true, comment: 'Fine' }));
    const trends = await ok<AuditTrends>(await call(t, w.people.reader.s, 'GET', `/api/audit_trends?template_id=${fire.id}`));
    const month = (await getAudit(t, w.people.reader.s, done)).completed_on!.slice(0, 7);
    expect(trends.templates).toHaveLength(1);
    expect(trends.templates[0]!.series).toEqual([
      { site: { id: w.tokyo, name: 'Tokyo Works' }, points: [{ month, average_score: 40, audits: 1 }] },
    ]);
    expect(trends.templates[0]!.most_failed[0]).toMatchObject({ label: 'Extinguishers in place?', failures: 1 });
  });
});

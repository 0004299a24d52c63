import { translate } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, upload, type TestApp } from './helpers.js';
import {
  createIncident,
  getIncident,
  incidentWorld,
  investigate,
  pdfText,
  PNG,
  report,
  siteDate,
  siteTime,
  step,
  type World,
} from './incidents-support.js';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await incidentWorld(t, 'incinv');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

const team = (over: Record<string, unknown> = {}) => ({
  lead_id: w.people.lead.id,
  member_ids: [w.people.member.id],
  target_date: siteDate('Asia/Tokyo', 7),
  ...over,
});

describe('step 2, team formation', () => {
  it('is formed by incident managers, starts the investigation and tells the new team', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    expect((await call(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/team`, team())).statusCode).toBe(403);
    const o = await step(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team());
    expect(o.investigation).toMatchObject({
      state: 'in_progress',
      current_step: 3,
      lead: { id: w.people.lead.id },
      members: [{ id: w.people.member.id }],
      holders: [{ id: w.people.lead.id }],
    });
    const { rows } = await t.deps.db.ownerPool.query<{ to_address: string }>(
      "select to_address from mail_outbox where organization_id = $1 and subject like '%' || $2 || '%' order by to_address",
      [w.org.id, o.serial_label],
    );
    expect(rows.map((r) => r.to_address)).toEqual(expect.arrayContaining([`lead@incinv.test`, `member@incinv.test`]));
    // The lead may re-form their own team; a member may not.
    expect((await call(t, w.people.member.s, 'PUT', `/api/incidents/${id}/team`, team())).statusCode).toBe(403);
    expect(
      (await call(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/team`, team({ member_ids: [w.people.reporter.id] }))).statusCode,
    ).toBe(200);
  });

  it('refuses a past target date at the site, the lead among the members and unknown people', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    const past = await call(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team({ target_date: siteDate('Asia/Tokyo', -1) }));
    expect(past.json().fields).toEqual({ target_date: translate('en', 'incidents.validation.targetDatePast') });
    const twice = await call(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team({ member_ids: [w.people.lead.id] }));
    expect(twice.json().fields).toEqual({ member_ids: translate('en', 'incidents.validation.leadIsMember') });
    const stranger = await call(
      t,
      w.people.manager.s,
      'PUT',
      `/api/incidents/${id}/team`,
      team({ lead_id: '00000000-0000-4000-8000-000000000000' }),
    );
    expect(stranger.json().fields).toEqual({ lead_id: translate('en', 'incidents.validation.memberUnknown') });
    const none = await call(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team({ member_ids: [] }));
    expect(none.json().fields).toEqual({ member_ids: translate('en', 'incidents.validation.members') });
  });

  it('is refused when the report needs no investigation', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w, { investigation_required: false }));
    const res = await call(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team());
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0]).toBe(translate('en', 'incidents.validation.noInvestigation'));
  });
});

describe('steps 3 to 6: only the team (and incident managers) edit', () => {
  it('keeps the facts, factors, why-why chain, root causes and CAPA, and shows where the investigation stands', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    await step(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team());
    const facts = {
      timeline: [{ at: siteTime('Asia/Tokyo', -40), description: 'Climbs' }],
      witnesses: [{ name: 'Hana Ito', statement: 'Saw it.', user_id: w.people.reader.id }],
      evidence_ids: [] as string[],
    };
    // Someone outside the team, without Incident update, is refused; so is a future event.
    expect((await call(t, w.people.reporter.s, 'PUT', `/api/incidents/${id}/facts`, facts)).statusCode).toBe(403);
    const future = await call(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/facts`, {
      ...facts,
      timeline: [{ at: siteTime('Asia/Tokyo', 120), description: 'Later' }],
    });
    expect(future.json().fields).toEqual({ 'timeline.0.at': translate('en', 'incidents.validation.timelineFuture') });
    const photo = (await upload(t, w.people.member.s, `/api/incidents/${id}/attachments`, 'rung.png', PNG, 'image/png')).json().file
      .id as string;
    // Uploading for an incident is for whoever may edit it.
    expect((await upload(t, w.people.reporter.s, `/api/incidents/${id}/attachments`, 'x.png', PNG, 'image/png')).statusCode).toBe(403);
    const withFacts = await step(t, w.people.member.s, 'PUT', `/api/incidents/${id}/facts`, { ...facts, evidence_ids: [photo] });
    expect(withFacts.investigation).toMatchObject({
      current_step: 4,
      witnesses: [{ name: 'Hana Ito', user: { id: w.people.reader.id } }],
      evidence: [{ id: photo }],
    });
    const factors = await step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/key_factors`, {
      factors: [
        { category: 'man', description: 'Carried a tote' },
        { category: 'environment', description: 'Oily rungs' },
      ],
    });
    const [man, env] = factors.investigation.factors;
    const options = (await call(t, w.people.reader.s, 'GET', `/api/incidents/${id}/root_causes`)).json();
    expect(options.options.map((o: { id: string }) => o.id).sort()).toEqual([w.noInduction, w.fatigue].sort());
    const retired = await call(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/why_analysis`, {
      analyses: [{ factor_id: man!.id, whys: ['Why?'], root_cause_ids: [w.retiredCause] }],
    });
    expect(retired.json().fields).toEqual({ 'analyses.0.root_cause_ids': translate('en', 'incidents.validation.rootCauseUnknown') });
    const analysed = await step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/why_analysis`, {
      analyses: [{ factor_id: man!.id, whys: ['He carried a tote', 'Nobody showed him the hoist'], root_cause_ids: [w.noInduction] }],
    });
    expect(analysed.investigation.factors[0]).toMatchObject({
      whys: ['He carried a tote', 'Nobody showed him the hoist'],
      root_causes: [{ id: w.noInduction, name: 'No induction', type_name: 'People', path: ['People', 'Training', 'No induction'] }],
    });
    expect(analysed.investigation.current_step).toBe(6);
    // A factor kept by its id keeps its analysis; the one left out goes.
    const kept = await step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/key_factors`, {
      factors: [{ id: man!.id, category: 'man', description: 'Carried a tote up the ladder' }],
    });
    expect(kept.investigation.factors.map((f) => f.id)).toEqual([man!.id]);
    expect(kept.investigation.factors[0]!.root_causes).toHaveLength(1);
    expect(env).toBeDefined();

    const capa = await step(t, w.people.member.s, 'POST', `/api/incidents/${id}/actions`, {
      actions: [
        {
          kind: 'corrective',
          description: 'Induct on the hoist',
          control_type: 'administrative',
          responsible_id: w.people.manager.id,
          due_date: siteDate('Asia/Tokyo', 5),
        },
        {
          kind: 'preventive',
          description: 'Hoist at every platform',
          control_type: 'engineering',
          responsible_id: w.people.lead.id,
          due_date: siteDate('Asia/Tokyo', 30),
        },
      ],
    });
    expect(capa.actions.map((a) => [a.capa_kind, a.source_type, a.status])).toEqual([
      ['corrective', 'incident', 'open'],
      ['preventive', 'incident', 'open'],
    ]);
    const bad = await call(t, w.people.member.s, 'POST', `/api/incidents/${id}/actions`, {
      actions: [{ kind: 'corrective', description: 'x', control_type: 'ppe', responsible_id: w.people.manager.id, due_date: '2001-01-01' }],
    });
    expect(bad.json().fields).toEqual({ 'actions.0.due_date': translate('en', 'actions.validation.dueDatePast') });
    // The actions list of incidents shows them, with the incident's serial.
    const list = (await call(t, w.people.reader.s, 'GET', '/api/actions/incident_action_datas')).json();
    expect(JSON.stringify(list)).toContain('Induct on the hoist');
    const ready = await step(t, w.people.member.s, 'PUT', `/api/incidents/${id}/record`, { conclusion: 'No induction.' });
    // Submitting is the lead's (or a manager's), not a member's.
    expect(ready.permissions).toMatchObject({ submit: false, submit_blocked_by: [], edit_investigation: true });
    expect((await getIncident(t, w.people.lead.s, id)).permissions).toMatchObject({ submit: true, edit_investigation: true });
  });

  it('names what is missing when the lead submits too early', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    await step(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, team());
    const res = await call(t, w.people.lead.s, 'POST', `/api/incidents/${id}/submit`);
    expect(res.statusCode).toBe(409);
    expect(res.json().fields).toEqual({
      timeline: translate('en', 'incidents.validation.factsMissing'),
      factors: translate('en', 'incidents.validation.factorsMissing'),
      analyses: translate('en', 'incidents.validation.rootCausesMissing'),
      actions: translate('en', 'incidents.validation.capaMissing'),
      conclusion: translate('en', 'incidents.validation.conclusionMissing'),
    });
  });
});

describe('step 7: the review through the workflow engine, closure and the report', () => {
  it('goes to the site’s reviewers, freezes for the team, returns on a rejection, and closes once approved', async () => {
    const wf = await call(t, w.people.admin.s, 'POST', '/api/workflows', {
      title: 'Tokyo incident review',
      module: 'incidents',
      type: 'sequential',
      reviewer_ids: [w.people.approver.id],
      lead_time_hours: 24,
      site_ids: [w.tokyo],
    });
    expect(wf.statusCode, wf.body).toBe(201);
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    await investigate(t, w, id);
    // A member may not submit; the lead may.
    expect((await call(t, w.people.member.s, 'POST', `/api/incidents/${id}/submit`)).statusCode).toBe(403);
    const submitted = await step(t, w.people.lead.s, 'POST', `/api/incidents/${id}/submit`);
    expect(submitted.investigation).toMatchObject({
      state: 'under_review',
      holders: [{ id: w.people.approver.id }],
      review: { outcome: 'pending', round: 1, workflow: { title: 'Tokyo incident review' } },
    });
    // Under review the team waits; the reviewer whose turn it is may correct and decide.
    const frozen = await call(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/record`, { conclusion: 'Changed' });
    expect(frozen.statusCode).toBe(409);
    expect(frozen.json().errors[0]).toBe(translate('en', 'incidents.validation.underReview'));
    expect((await getIncident(t, w.people.approver.s, id)).permissions).toMatchObject({ decide: true, edit_investigation: true });
    await step(t, w.people.approver.s, 'PUT', `/api/incidents/${id}/record`, { conclusion: 'No induction on the hoist (checked).' });
    const noReason = await call(t, w.people.approver.s, 'POST', `/api/incidents/${id}/decide`, { approve: false });
    expect(noReason.statusCode).toBe(400);
    expect((await call(t, w.people.manager.s, 'POST', `/api/incidents/${id}/close`, { remarks: 'Too early' })).statusCode).toBe(409);
    const returned = await step(t, w.people.approver.s, 'POST', `/api/incidents/${id}/decide`, {
      approve: false,
      comment: 'Add the hoist check.',
    });
    expect(returned.investigation.state).toBe('returned');
    expect(returned.investigation.review!.timeline.map((e) => e.kind)).toEqual(expect.arrayContaining(['submitted', 'rejected']));
    await step(t, w.people.lead.s, 'PUT', `/api/incidents/${id}/record`, { conclusion: 'Hoist check added.' });
    await step(t, w.people.lead.s, 'POST', `/api/incidents/${id}/submit`);
    const approved = await step(t, w.people.approver.s, 'POST', `/api/incidents/${id}/decide`, { approve: true, comment: 'Good.' });
    expect(approved.investigation).toMatchObject({ state: 'approved', current_step: 7, review: { outcome: 'approved', round: 2 } });
    expect(approved.permissions.edit_investigation).toBe(false);

    // Sending the report: members in their language and in the app, other addresses; the PDF is attached.
    const sent = await step(t, w.people.lead.s, 'POST', `/api/incidents/${id}/send_report`, {
      user_ids: [w.people.reader.id],
      emails: ['board@example.com'],
      message: 'For the safety committee.',
    });
    expect(sent.investigation.report_sends).toMatchObject([
      { by: { id: w.people.lead.id }, recipients: ['user@incinv.test', 'board@example.com'] },
    ]);
    const { rows } = await t.deps.db.ownerPool.query<{ to_address: string; attachment_file_ids: string[]; body: string }>(
      `select to_address, attachment_file_ids, body from mail_outbox where organization_id = $1 and body like '%For the safety committee.%'`,
      [w.org.id],
    );
    expect(rows.map((r) => r.to_address).sort()).toEqual(['board@example.com', 'user@incinv.test']);
    const fileId = rows[0]!.attachment_file_ids[0]!;
    expect(rows.every((r) => r.attachment_file_ids.length === 1 && r.attachment_file_ids[0] === fileId)).toBe(true);
    const pdf = await call(t, w.people.reader.s, 'GET', `/api/files/${fileId}`);
    expect(pdf.statusCode).toBe(200);
    expect(await pdfText(pdf.rawPayload)).toContain(sent.serial_label);

    expect((await call(t, w.people.reporter.s, 'POST', `/api/incidents/${id}/close`, { remarks: 'x' })).statusCode).toBe(403);
    const closed = await step(t, w.people.manager.s, 'POST', `/api/incidents/${id}/close`, { remarks: 'Hoist induction done.' });
    expect(closed).toMatchObject({ status: 'closed', closing_remarks: 'Hoist induction done.', closed_by: { id: w.people.manager.id } });
    const after = await call(t, w.people.manager.s, 'PATCH', `/api/v2/incidents/${id}`, { shift: 'third' });
    expect(after.statusCode).toBe(409);
    expect(after.json().errors[0]).toBe(translate('en', 'incidents.validation.closedReadOnly'));
  });

  it('is decided by Incident approve holders when no workflow names the site', async () => {
    const { id } = await createIncident(
      t,
      w.people.reporter.s,
      report(w, { site_id: w.la, site_node_id: null, occurred_at: siteTime('America/Los_Angeles', -30) }),
    );
    await investigate(t, w, id);
    const submitted = await step(t, w.people.manager.s, 'POST', `/api/incidents/${id}/submit`);
    expect(submitted.investigation.review).toMatchObject({ mode: 'approve_right', workflow: null });
    expect((await call(t, w.people.member.s, 'POST', `/api/incidents/${id}/decide`, { approve: true })).statusCode).toBe(403);
    const approved = await step(t, w.people.approver.s, 'POST', `/api/incidents/${id}/decide`, { approve: true });
    expect(approved.investigation.state).toBe('approved');
  });

  it('reads back the PDF report: the incident, victims, investigation, root causes, CAPA and review', async () => {
    const { id } = await createIncident(
      t,
      w.people.reporter.s,
      report(w, { site_id: w.la, site_node_id: null, occurred_at: siteTime('America/Los_Angeles', -30) }),
    );
    await investigate(t, w, id);
    await step(t, w.people.manager.s, 'POST', `/api/incidents/${id}/submit`);
    await step(t, w.people.approver.s, 'POST', `/api/incidents/${id}/decide`, { approve: true, comment: 'Well argued' });
    const res = await call(t, w.people.reader.s, 'GET', `/api/incidents/${id}/report.pdf`, undefined, { 'accept-language': 'es' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const text = (await pdfText(res.rawPayload)).replace(/\s+/g, ' ');
    for (const piece of [
      translate('es', 'incidents.report.title'),
      'Operator fell from the press platform ladder',
      'Kenji Sato',
      'Leo Lead',
      'Carried a tote while climbing',
      'People › Training › No induction',
      'Induct the operator on the platform hoist',
      translate('es', 'incidents.capaKinds.corrective'),
      translate('es', 'incidents.report.reviewEvents.approved'),
      'Well argued',
    ]) {
      expect(text, piece).toContain(piece);
    }
  });

  it('deletes only an incident with no actions whose investigation was never submitted', async () => {
    const { id } = await createIncident(t, w.people.reporter.s, report(w));
    await investigate(t, w, id);
    const res = await call(t, w.people.manager.s, 'DELETE', `/api/incidents/${id}`);
    expect(res.statusCode).toBe(409);
    expect(res.json().errors[0]).toBe(translate('en', 'incidents.validation.hasActions'));
    const fresh = await createIncident(t, w.people.reporter.s, report(w));
    expect((await call(t, w.people.reporter.s, 'DELETE', `/api/incidents/${fresh.id}`)).statusCode).toBe(403);
    expect((await call(t, w.people.manager.s, 'DELETE', `/api/incidents/${fresh.id}`)).statusCode).toBe(200);
  });
});

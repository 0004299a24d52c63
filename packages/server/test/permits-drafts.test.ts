import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createOrg, createTestApp, signIn, type TestApp } from './helpers.js';
import { act, approved, createPermit, footprint, getPermit, permitWorld, requestBody, type PermitWorld } from './permits-support.js';

/**
 * Drafts and their sharing (spec 000 §6: a shared draft is open to both the sharer and the receiver,
 * and to nobody else), clone, delete, and the free plan's permit limit.
 */
let t: TestApp;
let w: PermitWorld;

beforeAll(async () => {
  t = await createTestApp();
  w = await permitWorld(t, 'ptwdraft');
});
afterAll(() => t?.close());

const share = (who: keyof PermitWorld['people'], id: string, userId: string) =>
  call(t, w.people[who].s, 'POST', `/api/permit_form_questions/${id}/permit_request_send_draft`, { user_id: userId });

describe('draft sharing: both users, nobody else', () => {
  it('the requester shares a draft; the receiver opens, edits and submits it; nobody else sees it meanwhile', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    for (const who of ['colleague', 'issuer', 'admin'] as const) {
      expect((await call(t, w.people[who].s, 'GET', `/api/permit_requests/${draft.id}`)).statusCode, who).toBe(404);
    }
    const shared = await share('requester', draft.id, w.people.colleague.id);
    expect(shared.statusCode, shared.body).toBe(200);
    expect(shared.json().permit.shared_with.map((p: { full_name: string }) => p.full_name)).toEqual(['Carl Colleague']);

    const seen = await getPermit(t, w.people.colleague.s, draft.id);
    expect(seen.abilities).toMatchObject({ edit: true, submit: true, share: true });
    const edited = await call(t, w.people.colleague.s, 'PATCH', `/api/permit_requests/${draft.id}`, { description: 'Lift the pump skid' });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await getPermit(t, w.people.requester.s, draft.id)).description).toBe('Lift the pump skid');
    for (const who of ['issuer', 'admin', 'reader'] as const) {
      expect((await call(t, w.people[who].s, 'GET', `/api/permit_requests/${draft.id}`)).statusCode, who).toBe(404);
      expect((await call(t, w.people[who].s, 'PATCH', `/api/permit_requests/${draft.id}`, { description: 'x' })).statusCode, who).not.toBe(
        200,
      );
    }
    const { rows } = await t.deps.db.ownerPool.query<{ subject: string }>(
      'select subject from mail_outbox where organization_id = $1 and to_address = $2',
      [w.org.id, 'colleague@ptwdraft.test'],
    );
    expect(rows.map((r) => r.subject)).toContain(`Permit draft ${draft.number} shared with you`);

    const sent = await act(t, w.people.colleague.s, draft.id, 'submit');
    expect(sent).toMatchObject({ status: 'requested', requester: { full_name: 'Rosa Requester' } });
    expect((await getPermit(t, w.people.issuer.s, draft.id)).status).toBe('requested');
  });

  it('drafts are listed for their authors only', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    await share('requester', draft.id, w.people.colleague.id);
    const listed = async (who: keyof PermitWorld['people']) => {
      const res = await call(t, w.people[who].s, 'GET', '/api/permit_requests?tab=drafts');
      return (res.json() as { permits: Array<{ id: string; shared_with_me: boolean }> }).permits;
    };
    expect((await listed('requester')).map((p) => p.id)).toContain(draft.id);
    expect((await listed('colleague')).find((p) => p.id === draft.id)?.shared_with_me).toBe(true);
    expect((await listed('issuer')).map((p) => p.id)).not.toContain(draft.id);
  });

  it('shares only with an active member who reads permits, once; refusals write nothing', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    const before = await footprint(t, w.org.id);
    expect((await share('requester', draft.id, w.people.nobody.id)).json().fields.user_id).toBe(
      'Choose an active member who reads permits.',
    );
    expect((await share('requester', draft.id, w.people.requester.id)).json().fields.user_id).toBe(
      'You are already an author of this draft.',
    );
    expect((await share('issuer', draft.id, w.people.issuer.id)).statusCode).toBe(403); // no Permit update
    expect(await footprint(t, w.org.id)).toEqual(before);
  });

  it('the requester stops sharing: the receiver no longer sees the draft', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    await share('requester', draft.id, w.people.colleague.id);
    const res = await call(t, w.people.requester.s, 'DELETE', `/api/permit_requests/${draft.id}/shares/${w.people.colleague.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect((await call(t, w.people.colleague.s, 'GET', `/api/permit_requests/${draft.id}`)).statusCode).toBe(404);
  });

  it('a submitted permit is no draft: it cannot be edited or shared', async () => {
    const p = await approved(t, w, w.lifting);
    expect((await call(t, w.people.requester.s, 'PATCH', `/api/permit_requests/${p.id}`, { description: 'x' })).statusCode).toBe(409);
    expect((await share('requester', p.id, w.people.colleague.id)).statusCode).toBe(409);
  });
});

describe('clone: a new draft from a permit', () => {
  it('copies type, place, workers and answers, starts at the next hour, and names its source', async () => {
    const p = await approved(t, w, w.lifting);
    const res = await call(t, w.people.colleague.s, 'POST', `/api/permit_requests/${p.id}/clone`);
    expect(res.statusCode, res.body).toBe(201);
    const copy = res.json().permit;
    expect(copy).toMatchObject({
      status: 'draft',
      template: { id: w.lifting },
      site: { id: w.site },
      area: { id: w.boilerRoom },
      requester: { full_name: 'Carl Colleague' },
      cloned_from: { id: p.id, number: p.number },
      answers: p.answers,
    });
    expect(copy.workers.map((x: { id: string }) => x.id)).toEqual(p.workers.map((x) => x.id));
    expect(copy.number).not.toBe(p.number);
    expect(copy.start_at.endsWith(':00')).toBe(true);
    expect(new Date(copy.start_instant).getTime()).toBeGreaterThan(Date.now());
    expect(copy.timeline.map((e: { kind: string }) => e.kind)).toEqual(['cloned']);
  });

  it('needs Permit create; someone else’s draft is not found', async () => {
    const p = await approved(t, w, w.lifting);
    expect((await call(t, w.people.reader.s, 'POST', `/api/permit_requests/${p.id}/clone`)).statusCode).toBe(403);
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    expect((await call(t, w.people.colleague.s, 'POST', `/api/permit_requests/${draft.id}/clone`)).statusCode).toBe(404);
  });
});

describe('delete: a draft, or a permit never issued', () => {
  it('a draft goes; an issued permit is a record and stays', async () => {
    const draft = await createPermit(t, w.people.requester.s, await requestBody(t, w, w.lifting));
    expect((await call(t, w.people.requester.s, 'DELETE', `/api/permit_requests/${draft.id}`)).statusCode).toBe(200);
    expect((await call(t, w.people.requester.s, 'GET', `/api/permit_requests/${draft.id}`)).statusCode).toBe(404);
    const p = await approved(t, w, w.lifting);
    expect((await call(t, w.people.requester.s, 'DELETE', `/api/permit_requests/${p.id}`)).statusCode).toBe(409);
    expect((await call(t, w.people.issuer.s, 'DELETE', `/api/permit_requests/${p.id}`)).statusCode).toBe(403);
  });
});

describe('the free account has no permits (DECISIONS; spec 001 §8)', () => {
  it('a new permit answers the plan’s limit, an edit the cancellation; reading goes on', async () => {
    const org = await createOrg(t, 'ptwfree');
    const admin = await signIn(t, 'ptwfree', org.adminEmail);
    const tpl = await call(t, admin, 'POST', '/api/permits', { name: 'Hot work', description: 'Welding', prefix: 'HW' });
    expect(tpl.statusCode).toBe(201);
    const draft = await call(t, admin, 'POST', '/api/permit_requests', { template_id: tpl.json().template.id });
    expect(draft.statusCode, draft.body).toBe(201);
    await t.deps.db.ownerPool.query(`update organizations set subscription_type = 'cancelled' where id = $1`, [org.id]);
    const created = await call(t, admin, 'POST', '/api/permit_requests', { template_id: tpl.json().template.id });
    expect(created.statusCode).toBe(403);
    expect(created.json()).toMatchObject({
      code: 'plan_limit_reached',
      errors: ['Permit limit reached: delete existing permits or upgrade your plan.'],
    });
    const es = await call(t, admin, 'POST', '/api/permit_requests', { template_id: tpl.json().template.id }, { 'accept-language': 'es' });
    expect(es.json().errors[0]).toBe('Se alcanzó el límite de permisos: elimine permisos existentes o mejore su plan.');
    const edited = await call(t, admin, 'PATCH', `/api/permit_requests/${draft.json().id}`, { description: 'x' });
    expect(edited.json()).toMatchObject({ code: 'subscription_cancelled' });
    expect((await call(t, admin, 'GET', '/api/permit_requests')).statusCode).toBe(200);
    expect((await call(t, admin, 'DELETE', `/api/permit_requests/${draft.json().id}`)).statusCode).toBe(200);
  });
});

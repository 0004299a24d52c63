import { localDateTimeToInstant } from '@bulwark/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepIncidents } from '../src/modules/incidents/sweep.js';
import { incidentsModule } from '../src/modules/incidents/module.js';
import { call, createTestApp, type TestApp } from './helpers.js';
import { createIncident, getIncident, incidentWorld, report, siteDate, siteTime, step, type World } from './incidents-support.js';

let t: TestApp;
let w: World;

beforeAll(async () => {
  t = await createTestApp();
  w = await incidentWorld(t, 'incdue');
}, 120_000);
afterAll(async () => {
  await t?.close();
});

async function withTeam(site: 'tokyo' | 'la', target: string) {
  const zone = site === 'tokyo' ? 'Asia/Tokyo' : 'America/Los_Angeles';
  const { id } = await createIncident(
    t,
    w.people.reporter.s,
    report(w, { site_id: w[site], site_node_id: site === 'tokyo' ? w.tokyoArea : null, occurred_at: siteTime(zone, -60) }),
  );
  await step(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, {
    lead_id: w.people.lead.id,
    member_ids: [w.people.member.id],
    target_date: target,
  });
  return id;
}

async function notices(userId: string, serial: string): Promise<number> {
  const { rows } = await t.deps.db.ownerPool.query<{ n: number }>(
    `select count(*)::int as n from mail_outbox m join users u on u.organization_id = m.organization_id and lower(u.email) = lower(m.to_address)
     where m.organization_id = $1 and u.id = $2 and m.subject like '%' || $3 || '%' and m.body like '%target date%'`,
    [w.org.id, userId, serial],
  );
  return rows[0]!.n;
}

describe('the hourly overdue sweep (target date passed at the site, not closed)', () => {
  it('runs hourly as a pg-boss schedule', () => {
    const jobs = incidentsModule.jobs!(t.deps);
    expect(jobs.schedules).toEqual([{ name: 'incidents-overdue-sweep', cron: '20 * * * *' }]);
    expect(Object.keys(jobs.handlers)).toEqual(['incidents-overdue-sweep']);
  });

  it('judges "today" in each site’s own zone', async () => {
    // Both investigations are due on Los Angeles' today; at 23:30 there it is already the next day in Tokyo.
    const target = siteDate('America/Los_Angeles', 0);
    const la = await withTeam('la', target);
    const tokyo = await withTeam('tokyo', siteDate('Asia/Tokyo', 1));
    await t.deps.db.ownerPool.query('update incidents set target_date = $2 where id = $1', [tokyo, target]);
    const swept = await sweepIncidents(t.deps, localDateTimeToInstant(`${target}T23:30`, 'America/Los_Angeles'));
    expect(swept.overdue).toContain(tokyo);
    expect(swept.overdue).not.toContain(la);
    expect((await getIncident(t, w.people.reader.s, la)).status).toBe('open');
    expect((await getIncident(t, w.people.reader.s, tokyo)).status).toBe('overdue');
  });

  it('turns an investigation overdue once, tells its lead and the site’s head of safety once, and opens it again on a later date', async () => {
    const id = await withTeam('tokyo', siteDate('Asia/Tokyo', 1));
    const serial = (await getIncident(t, w.people.reader.s, id)).serial_label;
    const later = new Date(Date.now() + 3 * 86_400_000);
    expect((await sweepIncidents(t.deps, later)).overdue).toContain(id);
    const o = await getIncident(t, w.people.reader.s, id);
    expect(o.status).toBe('overdue');
    expect(o.history.map((h) => h.action)).toContain('status_changed');
    expect(await notices(w.people.lead.id, serial)).toBe(1);
    expect(await notices(w.people.manager.id, serial)).toBe(1);
    const counts = (await call(t, w.people.reader.s, 'GET', '/api/v2/incidents/period_status_counts')).json();
    expect(counts.counts.overdue).toBeGreaterThanOrEqual(1);
    const tab = (await call(t, w.people.reader.s, 'GET', '/api/v2/incidents?status=overdue')).json();
    expect(tab.incidents.map((i: { id: string }) => i.id)).toContain(id);

    // A second sweep changes nothing and tells nobody again.
    expect((await sweepIncidents(t.deps, new Date(later.getTime() + 3_600_000))).overdue).not.toContain(id);
    expect(await notices(w.people.lead.id, serial)).toBe(1);

    // A target date moved to today or later opens it again; passing that one tells them again.
    const moved = await step(t, w.people.manager.s, 'PUT', `/api/incidents/${id}/team`, {
      lead_id: w.people.lead.id,
      member_ids: [w.people.member.id],
      target_date: siteDate('Asia/Tokyo', 5),
    });
    expect(moved.status).toBe('open');
    expect((await sweepIncidents(t.deps, new Date(Date.now() + 8 * 86_400_000))).overdue).toContain(id);
    expect(await notices(w.people.lead.id, serial)).toBe(2);
  });

  it('leaves closed incidents and incidents without a target date alone', async () => {
    const { id: noTeam } = await createIncident(t, w.people.reporter.s, report(w));
    const { id: closed } = await createIncident(t, w.people.reporter.s, report(w, { investigation_required: false }));
    await step(t, w.people.manager.s, 'POST', `/api/incidents/${closed}/close`, { remarks: 'Minor, handled on the spot.' });
    const swept = await sweepIncidents(t.deps, new Date(Date.now() + 400 * 86_400_000));
    expect(swept.overdue).not.toContain(noTeam);
    expect(swept.overdue).not.toContain(closed);
    expect((await getIncident(t, w.people.reader.s, closed)).status).toBe('closed');
  });
});

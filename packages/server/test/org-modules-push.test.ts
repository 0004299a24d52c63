import type { PushEvent, SaasFeatures } from '@bulwark/domain';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createOrganizationService } from '../src/modules/organizations/service.js';
import { ORGANIZATION_MODULES } from '../src/modules/users/profile.js';
import { call, createOrg, listeningTestApp, PASSWORD, signIn, type Session, type TestApp } from './helpers.js';
import { connectSocket, waitForItem } from './process-helpers.js';

/**
 * Fault: the push channels `org_modules` and `saas_additional_features` existed and were never sent,
 * so an open screen kept showing the modules of the plan it loaded with. A change of subscription by
 * the platform admin (the free account has no permits) now reaches the organisation's sockets, after
 * the commit, only when the modules changed, and never another organisation's.
 */
let t: TestApp;
let url: string;
let a: Awaited<ReturnType<typeof createOrg>>;
let b: Awaited<ReturnType<typeof createOrg>>;
let platform: Session;
const open: Socket[] = [];

beforeAll(async () => {
  ({ t, url } = await listeningTestApp());
  a = await createOrg(t, 'modalpha');
  b = await createOrg(t, 'modbravo');
  await createOrganizationService(t.deps.db.app).createPlatformAdmin({ email: 'root@platform.test', password: PASSWORD, fullName: 'Root' });
  platform = await signIn(t, 'public', 'root@platform.test');
});
afterEach(() => {
  for (const s of open.splice(0)) s.close();
});
afterAll(() => t?.close());

/** Every event a socket receives, in the order the server emitted them. */
async function listen(s: Session): Promise<{ socket: Socket; events: PushEvent[] }> {
  const socket = await connectSocket(url, { token: s.token, tenant: s.tenant });
  open.push(socket);
  const events: PushEvent[] = [];
  socket.onAny((_name: string, payload: PushEvent) => events.push(payload));
  return { socket, events };
}

const patch = async (orgId: string, body: Record<string, string>) => {
  const res = await call(t, platform, 'PATCH', `/api/organizations/${orgId}`, body);
  expect(res.statusCode, res.body).toBe(200);
};
const channels = (events: PushEvent[]) => events.map((e) => e.channel);
const withoutPermits = ORGANIZATION_MODULES.filter((m) => m !== 'permits');
const features = (permits: boolean): SaasFeatures => ({
  features: ORGANIZATION_MODULES.map((key) => ({ key, enabled: key !== 'permits' || permits })),
});

describe('org_modules and saas_additional_features', () => {
  it('are sent to the organisation when its subscription switches modules off or on, and only then', async () => {
    const member = await signIn(t, a.subDomain, a.userEmail);
    const alpha = await listen(member);
    const bravo = await listen(await signIn(t, b.subDomain, b.userEmail));

    // A change that leaves the modules as they were: the organisation event only.
    await patch(a.id, { organization_status: 'Active' });
    await waitForItem(alpha.events, (e) => e.channel === 'organization', 'the first organization event');

    // The free account: permits go.
    await patch(a.id, { subscription_type: 'cancelled' });
    await waitForItem(alpha.events, (e) => e.channel === 'saas_additional_features', 'the features event');
    expect(channels(alpha.events)).toEqual(['organization', 'organization', 'org_modules', 'saas_additional_features']);
    expect(alpha.events[2]).toEqual({ channel: 'org_modules', change: 'updated', id: a.id, data: withoutPermits });
    expect(alpha.events[3]).toEqual({ channel: 'saas_additional_features', change: 'updated', id: a.id, data: features(false) });

    // What the screens then load says the same.
    const profile = await call(t, member, 'GET', '/api/users/user_profile');
    expect(profile.json()).toMatchObject({ organization_modules: withoutPermits });
    expect((await call(t, member, 'GET', '/api/v1/saas_additional_features')).json()).toEqual(features(false));
    expect(await alpha.socket.emitWithAck('get_all_modules')).toEqual({ data: withoutPermits });
    expect(await alpha.socket.emitWithAck('get_saas_additional_features')).toEqual({ data: features(false) });

    // The same subscription again changes nothing; a paid one brings permits back.
    await patch(a.id, { subscription_type: 'cancelled' });
    await patch(a.id, { subscription_type: 'active' });
    await waitForItem(alpha.events, () => alpha.events.length >= 8, 'the second features event');
    expect(channels(alpha.events).slice(4)).toEqual(['organization', 'organization', 'org_modules', 'saas_additional_features']);
    expect(alpha.events[6]).toMatchObject({ channel: 'org_modules', data: ORGANIZATION_MODULES });
    expect(alpha.events[7]).toMatchObject({ channel: 'saas_additional_features', data: features(true) });

    // Barrier for the other organisation: its own change arrives, and nothing of alpha's came before.
    await patch(b.id, { organization_status: 'Active' });
    await waitForItem(bravo.events, (e) => e.channel === 'organization', 'bravo’s own organization event');
    expect(bravo.events).toEqual([{ channel: 'organization', change: 'updated', id: b.id }]);
  });

  it('are not sent when the change is refused (nothing was committed)', async () => {
    const alpha = await listen(await signIn(t, a.subDomain, a.adminEmail));
    const refused = await call(t, platform, 'PATCH', `/api/organizations/${a.id}`, { subscription_type: 'gold' });
    expect(refused.statusCode).toBe(400);
    // Barrier: a change that is committed, after which the refused one would have been seen.
    await patch(a.id, { subscription_type: 'cancelled' });
    await waitForItem(alpha.events, (e) => e.channel === 'saas_additional_features', 'the features event');
    expect(channels(alpha.events)).toEqual(['organization', 'org_modules', 'saas_additional_features']);
  });
});

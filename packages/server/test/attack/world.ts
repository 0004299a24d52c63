import { randomBytes } from 'node:crypto';
import { PASSWORD, PNG, call, createOrg, signIn, upload, type Session, type TestApp } from '../helpers.js';
import { siteDate, siteTime } from '../observations-support.js';
import { dayFromToday, localAgo } from '../safety-interactions-support.js';

/**
 * Two organisations with data in every module, for suites that attack the tenant wall. Each record
 * carries the organisation's secret marker in its texts, so a response that shows it has leaked.
 * Ids are kept per table name (the kind), first the one created here on purpose, so callers can pick a
 * record that is not a signed-in actor's own account.
 */
export type OrgWorld = {
  id: string;
  subDomain: string;
  /** A-SECRET-<hex>: in names, descriptions and comments of this organisation's records. */
  secret: string;
  emails: string[];
  adminId: string;
  userId: string;
  guestId: string;
  sessions: { admin: Session; user: Session; guest: Session };
  /** The e-mail each signed-in actor uses (to sign in again after a probe ends a session). */
  logins: { admin: string; user: string; guest: string };
  /** Sign-in links that hold an account: the invitee's activation token. */
  tokens: string[];
  /** Every id of every row of the organisation, by table (read behind the wall after building). */
  ids: Record<string, string[]>;
};

export type World = { a: OrgWorld; b: OrgWorld };

const TZ = 'Europe/London';

type Reply = { statusCode: number; body: string; json: () => unknown };

function created(res: Reply, what: string, status = 201): Record<string, unknown> {
  if (res.statusCode !== status) throw new Error(`world: ${what} answered ${res.statusCode} ${res.body}`);
  return res.json() as Record<string, unknown>;
}

const idOf = (res: Reply, what: string, status = 201) => String(created(res, what, status).id);

/** Every table with an organisation column, and its rows' ids for one organisation. */
export async function idsOf(t: TestApp, orgId: string): Promise<Record<string, string[]>> {
  const pool = t.deps.db.ownerPool;
  const { rows: tables } = await pool.query<{ table_name: string }>(
    `select c.table_name from information_schema.columns c join information_schema.columns i
       on i.table_schema = c.table_schema and i.table_name = c.table_name and i.column_name = 'id' and i.data_type = 'uuid'
     where c.table_schema = 'public' and c.column_name = 'organization_id' order by c.table_name`,
  );
  const out: Record<string, string[]> = { organizations: [orgId] };
  for (const { table_name: table } of tables) {
    const { rows } = await pool.query<{ id: string }>(`select id::text from "${table}" where organization_id = $1 order by id`, [orgId]);
    if (rows.length) out[table] = rows.map((r) => r.id);
  }
  return out;
}

async function activationToken(t: TestApp, orgId: string, email: string): Promise<string> {
  const { rows } = await t.deps.db.ownerPool.query<{ body: string }>(
    'select body from mail_outbox where organization_id = $1 and to_address = $2 order by created_at desc limit 1',
    [orgId, email],
  );
  const match = /\/password-reset\/([A-Za-z0-9_-]+)\?activate=1/.exec(rows[0]?.body ?? '');
  if (!match) throw new Error(`world: no activation link mailed to ${email}`);
  return match[1]!;
}

/** One organisation, filled through the API as its admin would, module by module. */
export async function buildOrg(t: TestApp, subDomain: string, letter: string): Promise<OrgWorld> {
  // Letters only: names accept letters, spaces and a few signs, never digits.
  const secret = `${letter}-SECRET-${[...randomBytes(8)].map((n) => String.fromCharCode(97 + (n % 26))).join('')}`;
  const org = await createOrg(t, subDomain);
  const admin = await signIn(t, subDomain, org.adminEmail);
  const user = await signIn(t, subDomain, org.userEmail);
  const mine: Record<string, string[]> = {};
  const keep = (table: string, id: string) => {
    (mine[table] ??= []).push(id);
    return id;
  };
  const post = (url: string, body: unknown, what: string, status = 201) =>
    call(t, admin, 'POST', url, body).then((r) => idOf(r, what, status));
  const put = async (url: string, body: unknown, what: string) => {
    created(await call(t, admin, 'PUT', url, body), what, 200);
  };

  const site = keep(
    'sites',
    await post(
      '/api/sites',
      {
        name: `Works ${secret}`,
        time_zone: TZ,
        head_of_safety_id: org.adminId,
        emergency_phone: '020 7946 0958',
        address: `1 ${secret} Road`,
        city: 'London',
        state: 'Greater London',
        country: 'GB',
        zip: 'E16 2QU',
      },
      'site',
    ),
  );
  keep(
    'sites',
    await post(
      '/api/sites',
      {
        name: `Yard ${secret}`,
        time_zone: TZ,
        head_of_safety_id: org.adminId,
        emergency_phone: '020 7946 0958',
        address: '2 Dock Road',
        city: 'London',
        state: 'Greater London',
        country: 'GB',
        zip: 'E16 2QU',
      },
      'second site',
    ),
  );
  const area = keep('site_nodes', await post(`/api/sites/${site}/divisions`, { name: `Area ${secret}` }, 'area'));

  const role = keep(
    'roles',
    await post(
      '/api/roles',
      {
        name: `Role ${secret}`,
        role_actions_attributes: [
          { name: 'Observation', r_view: true },
          { name: 'Action', r_view: true },
        ],
      },
      'role',
    ),
  );
  const invitedEmail = `invitee@${subDomain}.test`;
  const invited = keep(
    'users',
    await post('/api/users', { email: invitedEmail, full_name: `Invitee ${secret}`, role_id: role, site_ids: [site] }, 'user'),
  );
  const inviteToken = await activationToken(t, org.id, invitedEmail);
  created(await call(t, admin, 'POST', '/api/users/licences', { user_id: invited, module: 'permits' }), 'licence', 200);
  created(await upload(t, admin, `/api/users/${invited}/photo`, 'face.png', PNG, 'image/png'), 'photo', 200);

  const category = keep(
    'categories',
    await post('/api/categories', { module: 'observations', type: 'unsafe_act', name: `Cat ${secret}` }, 'category'),
  );
  const subCategory = keep(
    'sub_categories',
    await post(`/api/categories/${category}/sub_categories`, { name: `Sub ${secret}` }, 'sub-category'),
  );
  const actionCategory = keep(
    'categories',
    await post('/api/categories', { module: 'actions', type: 'corrective', name: `Fix ${secret}` }, 'action category'),
  );
  const cause = keep('root_cause_settings', await post('/api/root_cause_settings', { name: `Cause ${secret}` }, 'root cause'));
  const why = keep('root_cause_settings', await post(`/api/root_cause_settings/${cause}`, { name: `Why ${secret}` }, 'child root cause'));

  keep(
    'workflows',
    await post(
      '/api/workflows',
      {
        title: `Review ${secret}`,
        module: 'permits',
        type: 'sequential',
        reviewer_ids: [org.adminId, org.userId],
        lead_time_hours: 48,
        site_ids: [site],
      },
      'workflow',
    ),
  );
  keep('ehs_ocps', await post('/api/v2/ehs_ocps', { code: `OCP-${letter}1`, title: `Hot work ${secret}`, site_ids: [site] }, 'EHS OCP'));
  await put(
    '/api/kpi_settings?year=2026',
    {
      ltifr_target: 0.5,
      observations_per_employee_month: 2,
      critical_closure_rate_target: 100,
      serious_closure_rate_target: 85,
      training_hours_per_employee: 24,
    },
    'KPI settings',
  );
  await put('/api/sites/manpower', { year: 2026, entries: [{ site_id: site, month: 1, total: 40 }] }, 'manpower');
  await put('/api/email_subscriptions', { subscriptions: [{ scenario_id: 'action_due_soon', email: false }] }, 'subscriptions');
  await put(
    `/api/organizations/${org.id}/mailer_modules/3/scenarios/action_assigned`,
    {
      language: 'es',
      subject: `${secret}: nueva acción [action_title]`,
      in_app: 'Acción para usted, vence [due_date]',
      body: 'Hola [user_name], revise [action_link] antes del [due_date]. [organization_name]',
      footer: `Pie ${secret}`,
    },
    'mail template',
  );
  // The provider's discovery document cannot be fetched here, so the settings row is written directly.
  await t.deps.db.ownerPool.query(
    'insert into sso_configs (organization_id, issuer_url, client_id, client_secret_enc) values ($1, $2, $3, $4)',
    [org.id, `https://${subDomain}.idp.test`, `client-${secret}`, 'sealed'],
  );
  keep(
    'org_free_trial_extend_requests',
    await post(`/api/organizations/${org.id}/org_free_trial_extend_requests`, { reason: `Pilot ${secret}` }, 'extension request'),
  );

  const photo = (
    created(await upload(t, admin, '/api/observations/attachments', 'press.png', PNG, 'image/png'), 'attachment') as {
      file: { id: string };
    }
  ).file.id;
  keep('files', photo);
  keep(
    'observations',
    await post(
      '/api/observations',
      {
        type: 'unsafe_act',
        category_id: category,
        sub_category_id: subCategory,
        description: `Gloves missing ${secret}`,
        site_id: site,
        site_node_id: area,
        observed_at: siteTime(TZ, -30),
        risk_level: 'high',
        action_required: true,
        comment: `Told ${secret}`,
        anonymous: false,
        attachment_ids: [photo],
        actions: [{ description: `Provide gloves ${secret}`, control_type: 'ppe', responsible_id: org.userId, due_date: siteDate(TZ, 5) }],
      },
      'observation',
    ),
  );
  const action = keep(
    'actions',
    await post(
      '/api/actions/',
      {
        description: `Fix the rail ${secret}`,
        control_type: 'engineering',
        responsible_id: org.adminId,
        due_date: siteDate(TZ, 7),
        category_id: actionCategory,
        site_id: site,
        remarks: '',
      },
      'action',
    ),
  );
  keep(
    'files',
    (
      created(await upload(t, admin, `/api/actions/${action}/attachments`, 'rail.png', PNG, 'image/png'), 'action attachment') as {
        attachments: Array<{ id: string }>;
      }
    ).attachments[0]!.id,
  );
  // An upload no record links yet: served to its uploader only.
  keep(
    'files',
    (
      created(await upload(t, admin, '/api/observations/attachments', 'loose.png', PNG, 'image/png'), 'loose file') as {
        file: { id: string };
      }
    ).file.id,
  );

  keep(
    'si_schedules',
    await post(
      '/api/safety_interactions/schedules',
      { observer_id: org.adminId, site_id: site, planned_date: dayFromToday(TZ, 2) },
      'SI schedule',
    ),
  );
  keep(
    'safety_interactions',
    await post(
      '/api/safety_interactions',
      {
        site_id: site,
        area_id: area,
        location: `Bay ${secret}`,
        held_at: localAgo(TZ, 2),
        duration_minutes: 25,
        participants: [{ user_id: org.userId }, { name: `Contractor ${secret}` }],
        crew: 'Scaffold crew',
        topics: ['working_at_height', 'ppe'],
        safe_behaviours: [{ topic: 'ppe', note: 'Chin straps worn' }],
        at_risk_behaviours: [{ topic: 'working_at_height', note: `Toe board ${secret}` }],
        recognition_given: true,
        comment: `Fixed ${secret}`,
        status: 'completed',
      },
      'safety interaction',
    ),
  );

  // An incident through its steps: victims, a file, the team, facts, a factor with its why-why, a CAPA action.
  keep('categories', await post('/api/categories', { module: 'incidents', type: 'injury', name: `Fall ${secret}` }, 'incident category'));
  const incidentFile = (
    created(await upload(t, admin, '/api/incidents/attachments', 'ladder.png', PNG, 'image/png'), 'incident attachment') as {
      file: { id: string };
    }
  ).file.id;
  keep('files', incidentFile);
  const incident = keep(
    'incidents',
    await post(
      '/api/incidents',
      {
        incident: {
          type: 'injury',
          description: `Fell from the ladder ${secret}`,
          site_id: site,
          site_node_id: area,
          occurred_at: siteTime(TZ, -60),
          severity: 'serious',
          likelihood: 'possible',
          investigation_required: true,
          action_taken: `First aid ${secret}`,
          osha_work_related: true,
          victims: [{ type: 'employee', name: `Victim ${secret}`, gender: 'female', osha: { injury_type: 'injury', days_away: 2 } }],
          attachment_ids: [incidentFile],
        },
      },
      'incident',
    ),
  );
  const step = async (method: 'PUT' | 'POST', path: string, body: unknown) =>
    created(
      await call(t, admin, method, `/api/incidents/${incident}/${path}`, body),
      `incident ${path}`,
      method === 'POST' ? 201 : 200,
    ) as {
      incident: { investigation: { factors: Array<{ id: string }> } };
    };
  await step('PUT', 'team', { lead_id: org.adminId, member_ids: [org.userId], target_date: siteDate(TZ, 5) });
  await step('PUT', 'facts', {
    timeline: [{ at: siteTime(TZ, -50), description: `Climbed ${secret}` }],
    witnesses: [{ name: `Witness ${secret}`, statement: `Saw it ${secret}`, user_id: org.userId }],
    evidence_ids: [],
  });
  const factor = (await step('PUT', 'key_factors', { factors: [{ category: 'man', description: `Tote ${secret}` }] })).incident
    .investigation.factors[0]!.id;
  keep('incident_factors', factor);
  await step('PUT', 'why_analysis', { analyses: [{ factor_id: factor, whys: [`Why ${secret}`], root_cause_ids: [why] }] });
  await step('POST', 'actions', {
    actions: [
      {
        kind: 'corrective',
        description: `Induct ${secret}`,
        control_type: 'administrative',
        responsible_id: org.userId,
        due_date: siteDate(TZ, 9),
      },
    ],
  });
  await step('PUT', 'record', { conclusion: `Conclusion ${secret}` });

  // A guest: the organisation allows guest accounts, a visitor asks for one and activates it.
  await put('/api/organizations/guest_settings', { enabled: true }, 'guest settings');
  const guestEmail = `visitor@${subDomain}-guests.test`;
  const asked = await call(
    t,
    null,
    'POST',
    '/api/guest_users',
    { full_name: `Visitor ${secret}`, email: guestEmail },
    { 'x-tenant': subDomain },
  );
  created(asked, 'guest request', 202);
  const token = await activationToken(t, org.id, guestEmail);
  created(
    await call(t, null, 'POST', '/api/users/activate', { token, password: PASSWORD }, { 'x-tenant': subDomain }),
    'guest activation',
    200,
  );
  const guest = await signIn(t, subDomain, guestEmail);
  const guestReport = await call(
    t,
    null,
    'POST',
    '/api/observations/outer',
    {
      type: 'near_miss',
      description: `Pallet fell ${secret}`,
      site_id: site,
      observed_at: siteTime(TZ, -10),
      risk_level: 'critical',
      comment: 'Nobody was hurt.',
      anonymous: false,
      reporter_name: `Sam ${secret}`,
      reporter_email: `sam@${subDomain}-guests.test`,
      attachment_ids: [],
    },
    { 'x-tenant': subDomain },
  );
  keep('observations', idOf(guestReport, 'guest report'));

  // The organisation, its admin and its user were named by createOrg; their names carry the marker too.
  await t.deps.db.ownerPool.query('update users set full_name = full_name || $2 where organization_id = $1 and id = any($3)', [
    org.id,
    ` ${secret}`,
    [org.adminId, org.userId],
  ]);
  await t.deps.db.ownerPool.query('update organizations set name = name || $2 where id = $1', [org.id, ` ${secret}`]);
  const everything = await idsOf(t, org.id);
  if (!everything.notifications?.length) throw new Error('world: the actions notified nobody');
  const ids: Record<string, string[]> = {};
  for (const table of new Set([...Object.keys(mine), ...Object.keys(everything)])) {
    ids[table] = [...new Set([...(mine[table] ?? []), ...(everything[table] ?? [])])];
  }
  return {
    id: org.id,
    subDomain,
    secret,
    adminId: org.adminId,
    userId: org.userId,
    guestId: guest.profile.user.id,
    emails: [org.adminEmail, org.userEmail, invitedEmail, guestEmail, `sam@${subDomain}-guests.test`],
    sessions: { admin, user, guest },
    logins: { admin: org.adminEmail, user: org.userEmail, guest: guestEmail },
    tokens: [inviteToken],
    ids,
  };
}

/** Organisations A (the victim) and B (the attacker), built the same way. */
export async function buildWorld(t: TestApp, prefix = 'iso'): Promise<World> {
  const tag = randomBytes(3).toString('hex');
  return { a: await buildOrg(t, `${prefix}-a-${tag}`, 'A'), b: await buildOrg(t, `${prefix}-b-${tag}`, 'B') };
}

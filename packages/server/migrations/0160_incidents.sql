-- Incidents (spec 001 §3 Incident and Victim, §4, §5; spec 000 §2 the seven steps; issue 14): the report
-- by staff or guests, the victims with their OSHA cases, and the investigation's steps 2 to 7. CAPA
-- actions live in the actions module (source_type 'incident'); reviews in the review workflow engine.

-- The last serial handed out per organisation (INC-000123); the upsert that takes the next one locks it.
create table incident_serials (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  last_serial integer not null check (last_serial > 0),
  primary key (organization_id)
);
select app_wall('incident_serials');

create table incidents (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  serial integer not null check (serial > 0),
  type text not null check (type in ('injury', 'occupational_illness', 'property_damage', 'environmental', 'fire', 'security')),
  category_id uuid,
  description text not null check (length(btrim(description)) between 1 and 4000),
  site_id uuid not null,
  site_node_id uuid,
  -- The instant, and the wall-clock time at the site (what people read, filter and log by).
  occurred_at timestamptz not null,
  occurred_local timestamp not null,
  shift text check (shift in ('first', 'second', 'third', 'general')),
  -- Either one unset: "rating pending".
  severity text check (severity in ('minor', 'serious', 'major', 'fatal', 'critical')),
  likelihood text check (likelihood in ('rare', 'possible', 'likely', 'often', 'certain')),
  investigation_required boolean not null,
  action_taken text not null check (length(btrim(action_taken)) between 1 and 2000),
  -- The OSHA recordability question (29 CFR 1904.5); null: not assessed.
  osha_work_related boolean,
  reporter_id uuid,
  -- A signed-out guest's own name and e-mail (optional).
  reporter_name text check (reporter_name is null or length(reporter_name) <= 100),
  reporter_email text check (reporter_email is null or length(reporter_email) <= 254),
  source text not null check (source in ('staff', 'guest')),
  status text not null default 'open' check (status in ('open', 'overdue', 'closed')),
  investigation_state text not null check (
    investigation_state in ('not_required', 'awaiting_team', 'in_progress', 'under_review', 'returned', 'approved')),
  -- Step 2.
  lead_id uuid,
  target_date date,
  -- Step 7's record.
  conclusion text check (conclusion is null or length(conclusion) <= 4000),
  lessons_learned text check (lessons_learned is null or length(lessons_learned) <= 4000),
  closing_remarks text check (closing_remarks is null or length(closing_remarks) <= 2000),
  closed_at timestamptz,
  closed_by uuid,
  -- The target date the overdue notice was sent for: once per target date; a new date arms it again.
  overdue_notified_for date,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, serial),
  check ((status = 'closed') = (closed_at is not null)),
  check ((status = 'closed') = (closing_remarks is not null)),
  check (investigation_required = (investigation_state <> 'not_required')),
  check (investigation_state in ('not_required', 'awaiting_team') or (lead_id is not null and target_date is not null)),
  foreign key (organization_id, site_id) references sites (organization_id, id),
  foreign key (organization_id, site_id, site_node_id) references site_nodes (organization_id, site_id, id),
  foreign key (organization_id, category_id) references categories (organization_id, id),
  foreign key (organization_id, reporter_id) references users (organization_id, id) on delete set null (reporter_id),
  foreign key (organization_id, lead_id) references users (organization_id, id),
  foreign key (organization_id, closed_by) references users (organization_id, id) on delete set null (closed_by),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
-- The list's filters in its order: a page reads its 50 rows from an index.
create index incidents_occurred on incidents (organization_id, occurred_local desc, serial desc);
create index incidents_status_occurred on incidents (organization_id, status, occurred_local desc, serial desc);
create index incidents_site_occurred on incidents (organization_id, site_id, occurred_local desc, serial desc);
create index incidents_state on incidents (organization_id, investigation_state);
create index incidents_reporter on incidents (organization_id, reporter_id);
-- The hourly sweep reads the open investigations with a target date.
create index incidents_target_open on incidents (target_date) where status <> 'closed' and target_date is not null;
select app_wall('incidents');

-- The victims (spec 001 §3 Victim) and, for employees and supervised contractors, their OSHA case.
create table incident_victims (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  incident_id uuid not null,
  position smallint not null check (position >= 0),
  type text not null check (type in ('employee', 'contractor', 'visitor', 'others')),
  name text not null check (length(btrim(name)) between 1 and 100),
  employee_id text check (employee_id is null or length(employee_id) <= 50),
  gender text not null check (gender in ('male', 'female', 'others')),
  age_range text check (age_range in ('under_18', '18_24', '25_34', '35_44', '45_54', '55_64', '65_plus')),
  body_parts text[] not null default '{}',
  injury_details text check (injury_details is null or length(injury_details) <= 2000),
  taken_to_hospital boolean not null default false,
  treatment text check (treatment is null or length(treatment) <= 2000),
  return_to_work_date date,
  -- The OSHA case's facts as the domain's oshaCaseInput gives them; null when none is kept.
  osha jsonb,
  -- The log's case number: per establishment (site) and year, given once the case is recordable and
  -- never reused (a case found not recordable later is lined out, its number stays taken).
  osha_site_id uuid,
  osha_case_year integer,
  osha_case_no integer check (osha_case_no > 0),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, osha_site_id, osha_case_year, osha_case_no),
  check ((osha_case_no is null) = (osha_case_year is null) and (osha_case_no is null) = (osha_site_id is null)),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade
);
create index incident_victims_incident on incident_victims (organization_id, incident_id, position);
select app_wall('incident_victims');

-- The report's photos and documents (kind 'report') and the facts' evidence (kind 'evidence').
create table incident_attachments (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  incident_id uuid not null,
  file_id uuid not null,
  kind text not null check (kind in ('report', 'evidence')),
  created_at timestamptz not null default now(),
  primary key (organization_id, incident_id, file_id),
  unique (organization_id, file_id),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete cascade
);
select app_wall('incident_attachments');

-- Step 2: the team's members (the lead is incidents.lead_id).
create table incident_team_members (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  incident_id uuid not null,
  user_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, incident_id, user_id),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade,
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
create index incident_team_members_user on incident_team_members (organization_id, user_id);
select app_wall('incident_team_members');

-- Step 3: the timeline of events (local times of the site) and the witnesses' statements.
create table incident_timeline (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  incident_id uuid not null,
  position smallint not null check (position >= 0),
  at_local timestamp not null,
  description text not null check (length(btrim(description)) between 1 and 2000),
  primary key (organization_id, id),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade
);
create index incident_timeline_incident on incident_timeline (organization_id, incident_id, position);
select app_wall('incident_timeline');

create table incident_witnesses (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  incident_id uuid not null,
  position smallint not null check (position >= 0),
  name text not null check (length(btrim(name)) between 1 and 100),
  user_id uuid,
  statement text not null check (length(btrim(statement)) between 1 and 4000),
  contact text check (contact is null or length(contact) <= 200),
  primary key (organization_id, id),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade,
  foreign key (organization_id, user_id) references users (organization_id, id) on delete set null (user_id)
);
create index incident_witnesses_incident on incident_witnesses (organization_id, incident_id, position);
select app_wall('incident_witnesses');

-- Steps 4 and 5: the key factors (4M and environment) with their chain of whys.
create table incident_factors (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  incident_id uuid not null,
  position smallint not null check (position >= 0),
  category text not null check (category in ('man', 'machine', 'method', 'material', 'environment')),
  description text not null check (length(btrim(description)) between 1 and 2000),
  whys text[] not null default '{}',
  primary key (organization_id, id),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade
);
create index incident_factors_incident on incident_factors (organization_id, incident_id, position);
select app_wall('incident_factors');

-- The root causes a factor's why-why ends in, as the root-cause settings named them when picked: the
-- investigation is a record, and renaming or retiring a setting later does not rewrite it. No foreign
-- key to root_cause_settings for the same reason.
create table incident_factor_root_causes (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  factor_id uuid not null,
  root_cause_id uuid not null,
  position smallint not null check (position >= 0),
  name text not null,
  type_name text not null,
  path text[] not null,
  primary key (organization_id, factor_id, root_cause_id),
  foreign key (organization_id, factor_id) references incident_factors (organization_id, id) on delete cascade
);
-- The dashboard's "top root causes" counts by setting.
create index incident_factor_root_causes_cause on incident_factor_root_causes (organization_id, root_cause_id);
select app_wall('incident_factor_root_causes');

-- Step 6: whether each CAPA action is corrective or preventive (the action itself is the actions module's).
create table incident_capa (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  action_id uuid not null,
  incident_id uuid not null,
  kind text not null check (kind in ('corrective', 'preventive')),
  primary key (organization_id, action_id),
  foreign key (organization_id, action_id) references actions (organization_id, id) on delete cascade,
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade
);
create index incident_capa_incident on incident_capa (organization_id, incident_id);
select app_wall('incident_capa');

-- Step 7: each time the report was mailed, the PDF as sent (a stored file) and its recipients.
create table incident_report_sends (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  incident_id uuid not null,
  file_id uuid,
  recipients text[] not null,
  sent_by uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, incident_id) references incidents (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete set null (file_id),
  foreign key (organization_id, sent_by) references users (organization_id, id) on delete set null (sent_by)
);
create index incident_report_sends_incident on incident_report_sends (organization_id, incident_id, created_at);
select app_wall('incident_report_sends');

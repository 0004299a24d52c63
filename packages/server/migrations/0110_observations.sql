-- Observations (spec 001 §3 Observation, §4 statuses, §5 validation): unsafe acts and conditions,
-- near misses and good practice, reported by staff, by signed-out guests or imported from Excel.
-- Actions raised for an observation live in the actions module (source_type 'observation').

-- The last serial handed out per organisation (OBS-000123). The upsert that takes the next number
-- locks the row, so two reports at once never share a serial.
create table observation_serials (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  last_serial integer not null check (last_serial > 0),
  primary key (organization_id)
);
select app_wall('observation_serials');

create table observations (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  serial integer not null check (serial > 0),
  type text not null check (type in ('unsafe_act', 'unsafe_condition', 'near_miss', 'good_practice')),
  category_id uuid,
  sub_category_id uuid,
  description text not null check (length(btrim(description)) between 1 and 4000),
  site_id uuid not null,
  -- The area: a division, department or unit of the same site.
  site_node_id uuid,
  -- The instant, and the wall-clock time at the site when it was entered (what people read and filter
  -- by: "observations of 3 March" means 3 March at the site, whatever the reader's zone).
  observed_at timestamptz not null,
  observed_local timestamp not null,
  risk_level text not null check (risk_level in ('low', 'medium', 'high', 'critical')),
  action_required boolean not null,
  comment text not null check (length(btrim(comment)) between 1 and 2000),
  -- Anonymous reports keep no trace of the reporter here (reporter_id, name, e-mail and created_by stay null).
  anonymous boolean not null default false,
  reporter_id uuid,
  -- A guest's own name and e-mail (optional); staff are named through reporter_id.
  reporter_name text check (reporter_name is null or length(reporter_name) <= 100),
  reporter_email text check (reporter_email is null or length(reporter_email) <= 254),
  source text not null check (source in ('staff', 'guest', 'import')),
  status text not null default 'open' check (status in ('open', 'in_progress', 'completed', 'closed', 'overdue')),
  closing_remarks text check (closing_remarks is null or length(closing_remarks) <= 2000),
  closed_at timestamptz,
  closed_by uuid,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, serial),
  check ((status = 'closed') = (closed_at is not null)),
  check ((status = 'closed') = (closing_remarks is not null)),
  check (not anonymous or (reporter_id is null and reporter_name is null and reporter_email is null and created_by is null)),
  check (sub_category_id is null or category_id is not null),
  foreign key (organization_id, site_id) references sites (organization_id, id),
  -- The area belongs to the observation's site; an area in use cannot be deleted (sites says "in use").
  foreign key (organization_id, site_id, site_node_id) references site_nodes (organization_id, site_id, id),
  foreign key (organization_id, category_id) references categories (organization_id, id),
  foreign key (organization_id, sub_category_id) references sub_categories (organization_id, id),
  foreign key (organization_id, reporter_id) references users (organization_id, id) on delete set null (reporter_id),
  foreign key (organization_id, closed_by) references users (organization_id, id) on delete set null (closed_by),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
create index observations_status on observations (organization_id, status);
create index observations_site on observations (organization_id, site_id, observed_local desc);
create index observations_observed on observations (organization_id, observed_local desc, serial desc);
select app_wall('observations');

-- Photos and documents of an observation; the file row carries the size counted against the quota.
-- A file belongs to one observation at most.
create table observation_attachments (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  observation_id uuid not null,
  file_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, observation_id, file_id),
  unique (organization_id, file_id),
  foreign key (organization_id, observation_id) references observations (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete cascade
);
select app_wall('observation_attachments');

-- Actions (spec 001 §3 Action, §4 statuses): one model for every source (audit, observation, incident,
-- safety interaction, other). The allowed status changes are written down in packages/domain
-- (ACTION_TRANSITIONS) and enforced by the server; the table only holds what a status implies.

-- The last serial handed out per organisation. The upsert that takes the next number locks the row,
-- so two actions raised at once never share a serial.
create table action_serials (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  last_serial integer not null check (last_serial > 0),
  primary key (organization_id)
);
select app_wall('action_serials');

create table actions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  serial integer not null check (serial > 0),
  source_type text not null check (source_type in ('audit', 'observation', 'incident', 'safety_interaction', 'other')),
  -- The record the action came from (no foreign key: the source tables belong to their modules);
  -- an action of its own has none.
  source_id uuid,
  -- Whose time zone decides "today" for the due date and the overdue sweep.
  site_id uuid not null,
  description text not null check (length(btrim(description)) between 1 and 2000),
  control_type text not null check (control_type in ('elimination', 'substitution', 'engineering', 'administrative', 'ppe')),
  category_id uuid,
  responsible_id uuid,
  due_date date not null,
  status text not null default 'open' check (status in ('open', 'in_progress', 'overdue', 'completed', 'closed')),
  remarks text check (remarks is null or length(remarks) <= 2000),
  image_description text check (image_description is null or length(image_description) <= 2000),
  completed_at timestamptz,
  completed_by uuid,
  closed_at timestamptz,
  closed_by uuid,
  -- The due date each reminder was sent for: once per due date, and a new due date arms them again.
  due_soon_sent_for date,
  overdue_sent_for date,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, serial),
  check ((source_type = 'other') = (source_id is null)),
  check ((status in ('completed', 'closed')) = (completed_at is not null)),
  check ((status = 'closed') = (closed_at is not null)),
  foreign key (organization_id, site_id) references sites (organization_id, id),
  foreign key (organization_id, category_id) references categories (organization_id, id) on delete set null (category_id),
  foreign key (organization_id, responsible_id) references users (organization_id, id) on delete set null (responsible_id),
  foreign key (organization_id, completed_by) references users (organization_id, id) on delete set null (completed_by),
  foreign key (organization_id, closed_by) references users (organization_id, id) on delete set null (closed_by),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
create index actions_source on actions (organization_id, source_type, source_id);
create index actions_responsible_status on actions (organization_id, responsible_id, status);
create index actions_status_due on actions (organization_id, status, due_date);
select app_wall('actions');

-- Files and photos attached to an action; the file row carries the size counted against the quota.
create table action_attachments (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  action_id uuid not null,
  file_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, action_id, file_id),
  unique (organization_id, file_id),
  foreign key (organization_id, action_id) references actions (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete cascade
);
select app_wall('action_attachments');

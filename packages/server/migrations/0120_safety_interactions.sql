-- Safety interactions (safety walks, behaviour-based safety conversations): the conversation, the
-- people spoken with, the behaviours seen, and the planned interactions. Agreed actions live in the
-- actions module (source 'safety_interaction'), linked by the interaction's id.

-- The last serial given per organisation (SI-000001, ...); the row lock orders concurrent creations.
create table si_counters (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  last_serial integer not null check (last_serial >= 0),
  primary key (organization_id)
);
select app_wall('si_counters');

-- Planned interactions. Their status is computed, never stored: done when a completed interaction
-- names the plan, missed once the date has passed at the site, planned until then.
create table si_schedules (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  observer_id uuid not null,
  site_id uuid not null,
  planned_date date not null,
  note text check (note is null or length(note) <= 500),
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, observer_id) references users (organization_id, id) on delete cascade,
  foreign key (organization_id, site_id) references sites (organization_id, id)
);
create index si_schedules_date on si_schedules (organization_id, planned_date);
select app_wall('si_schedules');

create table safety_interactions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  serial integer not null check (serial > 0),
  status text not null check (status in ('draft', 'completed')),
  observer_id uuid,
  site_id uuid not null,
  area_id uuid,
  location text check (location is null or length(location) <= 200),
  -- The instant, and the date it was at the site (periods and months are counted in site days).
  held_at timestamptz not null,
  held_on date not null,
  duration_minutes integer not null check (duration_minutes between 1 and 480),
  crew text check (crew is null or length(crew) <= 200),
  topics text[] not null default '{}',
  recognition_given boolean not null,
  comment text check (comment is null or length(comment) <= 2000),
  schedule_id uuid,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  completed_at timestamptz,
  primary key (organization_id, id),
  unique (organization_id, serial),
  -- A leaver's interactions stay, without an observer name.
  foreign key (organization_id, observer_id) references users (organization_id, id) on delete set null (observer_id),
  foreign key (organization_id, site_id) references sites (organization_id, id),
  foreign key (organization_id, site_id, area_id) references site_nodes (organization_id, site_id, id) on delete set null (area_id),
  foreign key (organization_id, schedule_id) references si_schedules (organization_id, id) on delete set null (schedule_id),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
-- One interaction fulfils a plan.
create unique index safety_interactions_schedule on safety_interactions (organization_id, schedule_id) where schedule_id is not null;
create index safety_interactions_held on safety_interactions (organization_id, held_on desc);
create index safety_interactions_observer on safety_interactions (organization_id, observer_id);
select app_wall('safety_interactions');

-- The people spoken with: a member (user_id) or the name of someone without an account.
create table si_participants (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  interaction_id uuid not null,
  position smallint not null check (position >= 0),
  user_id uuid,
  name text not null check (length(btrim(name)) between 1 and 100),
  primary key (organization_id, interaction_id, position),
  foreign key (organization_id, interaction_id) references safety_interactions (organization_id, id) on delete cascade,
  -- A removed member keeps their name on the record.
  foreign key (organization_id, user_id) references users (organization_id, id) on delete set null (user_id)
);
select app_wall('si_participants');

create table si_behaviours (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  interaction_id uuid not null,
  kind text not null check (kind in ('safe', 'at_risk')),
  position smallint not null check (position >= 0),
  topic text not null,
  note text not null check (length(btrim(note)) between 1 and 500),
  primary key (organization_id, interaction_id, kind, position),
  foreign key (organization_id, interaction_id) references safety_interactions (organization_id, id) on delete cascade
);
create index si_behaviours_topic on si_behaviours (organization_id, kind, topic);
select app_wall('si_behaviours');

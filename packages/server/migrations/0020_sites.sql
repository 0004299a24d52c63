-- Sites, their divisions/departments/units, the users assigned to them, and monthly manpower
-- (spec 001 §3 Site and Site manpower). Sites are deactivated, never deleted: other records refer to them.

create table sites (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  name text not null check (length(btrim(name)) between 1 and 100),
  short_name text check (short_name is null or length(short_name) <= 20),
  site_code text check (site_code is null or length(site_code) <= 30),
  time_zone text not null,
  head_of_safety_id uuid,
  head_of_site_id uuid,
  emergency_phone text not null,
  emergency_email text,
  address text not null,
  city text not null,
  state text not null,
  country text not null check (country ~ '^[A-Z]{2}$'),
  zip text not null,
  latitude double precision check (latitude between -90 and 90),
  longitude double precision check (longitude between -180 and 180),
  is_active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  -- A removed user leaves the post empty rather than blocking the removal.
  foreign key (organization_id, head_of_safety_id) references users (organization_id, id) on delete set null (head_of_safety_id),
  foreign key (organization_id, head_of_site_id) references users (organization_id, id) on delete set null (head_of_site_id)
);
create unique index sites_name_unique on sites (organization_id, lower(name));
create unique index sites_code_unique on sites (organization_id, lower(site_code)) where site_code is not null;
select app_wall('sites');

-- Divisions (no parent), departments (parent: a division) and units (parent: a department) of one site.
create table site_nodes (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  site_id uuid not null,
  parent_id uuid,
  level text not null check (level in ('division', 'department', 'unit')),
  name text not null check (length(btrim(name)) between 1 and 100),
  head_id uuid,
  supervisor_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, site_id, id),
  check ((level = 'division') = (parent_id is null)),
  foreign key (organization_id, site_id) references sites (organization_id, id) on delete cascade,
  -- The parent belongs to the same site.
  foreign key (organization_id, site_id, parent_id) references site_nodes (organization_id, site_id, id) on delete cascade,
  foreign key (organization_id, head_id) references users (organization_id, id) on delete set null (head_id),
  foreign key (organization_id, supervisor_id) references users (organization_id, id) on delete set null (supervisor_id)
);
-- Names are unique among siblings, ignoring case.
create unique index site_nodes_name_unique on site_nodes
  (organization_id, site_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
create index site_nodes_parent on site_nodes (organization_id, parent_id);
select app_wall('site_nodes');

-- The parent of a department is a division, the parent of a unit a department.
create or replace function site_nodes_check_level() returns trigger language plpgsql as $$
declare parent_level text;
begin
  if new.parent_id is null then return new; end if;
  select level into parent_level from site_nodes
    where organization_id = new.organization_id and id = new.parent_id;
  if (new.level = 'department' and parent_level is distinct from 'division')
    or (new.level = 'unit' and parent_level is distinct from 'department') then
    raise exception 'site node level % cannot sit under %', new.level, coalesce(parent_level, 'nothing')
      using errcode = '23514';
  end if;
  return new;
end $$;
create trigger site_nodes_level before insert or update of parent_id, level on site_nodes
  for each row execute function site_nodes_check_level();

-- Which sites a user belongs to (users are assigned to sites).
create table user_sites (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  user_id uuid not null,
  site_id uuid not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id, site_id),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade,
  foreign key (organization_id, site_id) references sites (organization_id, id) on delete cascade
);
create index user_sites_site on user_sites (organization_id, site_id);
select app_wall('user_sites');

-- Total manpower of a site in a month; a month without a row counts as the default (100, spec 001 §9).
create table site_manpower (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  site_id uuid not null,
  year smallint not null check (year between 2000 and 2100),
  month smallint not null check (month between 1 and 12),
  total integer not null check (total between 0 and 1000000),
  updated_by uuid,
  updated_at timestamptz not null default now(),
  primary key (organization_id, site_id, year, month),
  foreign key (organization_id, site_id) references sites (organization_id, id) on delete cascade
);
select app_wall('site_manpower');

-- Categories with their sub-categories (spec 001 §3 Observation/Incident/Action category, Reports
-- "category type"), and the root-cause settings tree behind the why analysis (spec 000 §3, §7).

-- A category belongs to one module and one of that module's types (packages/domain CATEGORY_TYPES_BY_MODULE).
-- Categories are deactivated, never deleted: records keep the category they were filed under.
create table categories (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  module text not null,
  type text not null,
  name text not null check (length(btrim(name)) between 1 and 120),
  description text not null default '' check (length(description) <= 500),
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  check (case module
    when 'observations' then type in ('unsafe_act', 'unsafe_condition', 'near_miss', 'good_practice')
    when 'incidents' then type in ('injury', 'occupational_illness', 'property_damage', 'environmental', 'fire', 'security')
    when 'actions' then type in ('corrective', 'preventive', 'improvement')
    when 'hira' then type in ('safety', 'health', 'environment')
    else false end)
);
-- Names are unique within their parent (the module's type), ignoring case.
create unique index categories_name_unique on categories (organization_id, module, type, lower(name));
create index categories_module_type on categories (organization_id, module, type);
select app_wall('categories');

-- One level below a category.
create table sub_categories (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  category_id uuid not null,
  name text not null check (length(btrim(name)) between 1 and 120),
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, category_id) references categories (organization_id, id) on delete cascade
);
create unique index sub_categories_name_unique on sub_categories (organization_id, category_id, lower(name));
select app_wall('sub_categories');

-- The root-cause tree: level 0 nodes are the types (People, Equipment...), each other node hangs below
-- a parent of the same organisation. A parent with children cannot be deleted (NO ACTION: checked at
-- the end of the statement, so removing a whole organisation still cascades).
create table root_cause_settings (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  parent_id uuid,
  name text not null check (length(btrim(name)) between 1 and 150),
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  check (parent_id is null or parent_id <> id),
  foreign key (organization_id, parent_id) references root_cause_settings (organization_id, id)
);
-- Names are unique among siblings (types among types), ignoring case.
create unique index root_cause_settings_name_unique on root_cause_settings
  (organization_id, coalesce(parent_id, '00000000-0000-0000-0000-000000000000'::uuid), lower(name));
create index root_cause_settings_parent on root_cause_settings (organization_id, parent_id);
select app_wall('root_cause_settings');

-- The service refuses cycles with a clear message; this is the backstop no code path can skip.
create or replace function app_root_cause_no_cycle() returns trigger language plpgsql as $$
begin
  if new.parent_id is not null and exists (
    with recursive up (id, parent_id) as (
      select r.id, r.parent_id from root_cause_settings r
        where r.organization_id = new.organization_id and r.id = new.parent_id
      union
      select r.id, r.parent_id from root_cause_settings r
        join up on r.id = up.parent_id and r.organization_id = new.organization_id
    )
    select 1 from up where up.id = new.id
  ) then
    raise exception 'root_cause_settings: % cannot hang below its own descendant', new.id using errcode = '23514';
  end if;
  return new;
end $$;
create trigger root_cause_settings_no_cycle before update of parent_id on root_cause_settings
  for each row execute function app_root_cause_no_cycle();

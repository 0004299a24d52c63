-- Settings (spec 000 §2 /kpi_settings, /ehs-ocp, /emailsubscription; spec 001 §2 Settings, §9 dashboards).

-- KPI targets per organisation and year; a year without a row uses the defaults of packages/domain.
create table kpi_settings (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  year integer not null check (year between 2000 and 2100),
  ltifr_target numeric not null check (ltifr_target >= 0),
  observations_per_employee_month numeric not null check (observations_per_employee_month >= 0),
  critical_closure_rate_target numeric not null check (critical_closure_rate_target between 0 and 100),
  serious_closure_rate_target numeric not null check (serious_closure_rate_target between 0 and 100),
  training_hours_per_employee numeric not null check (training_hours_per_employee >= 0),
  updated_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, year),
  foreign key (organization_id, updated_by) references users (organization_id, id) on delete set null (updated_by)
);
select app_wall('kpi_settings');

-- EHS operational control procedures; deactivated, never deleted (incidents refer to them).
create table ehs_ocps (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  code text not null check (length(code) between 1 and 30),
  title text not null check (length(btrim(title)) between 1 and 200),
  description text not null default '' check (length(description) <= 5000),
  is_active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
create unique index ehs_ocps_code_unique on ehs_ocps (organization_id, lower(code));
select app_wall('ehs_ocps');

create table ehs_ocp_sites (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  ocp_id uuid not null,
  site_id uuid not null,
  primary key (organization_id, ocp_id, site_id),
  foreign key (organization_id, ocp_id) references ehs_ocps (organization_id, id) on delete cascade,
  foreign key (organization_id, site_id) references sites (organization_id, id) on delete cascade
);
create index ehs_ocp_sites_site on ehs_ocp_sites (organization_id, site_id);
select app_wall('ehs_ocp_sites');

-- E-mail subscriptions: a row only where a user chose differently from the default (subscribed).
create table email_subscriptions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  user_id uuid not null,
  scenario_id text not null check (scenario_id ~ '^[a-z_]{1,60}$'),
  email_enabled boolean not null,
  updated_at timestamptz not null default now(),
  primary key (organization_id, user_id, scenario_id),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
select app_wall('email_subscriptions');

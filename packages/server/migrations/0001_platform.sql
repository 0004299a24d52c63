-- Platform core: organisations, users, roles, sessions, notifications, mail outbox, audit trail.
-- Every tenant table carries organization_id (first in its key), is filled from the transaction's
-- app.organization_id setting by default, and is walled by row-level security on that setting.

create or replace function uuid_generate_v7() returns uuid language plpgsql volatile as $$
declare
  ts bytea := substring(int8send(floor(extract(epoch from clock_timestamp()) * 1000)::bigint) from 3);
  b bytea := uuid_send(gen_random_uuid());
begin
  b := overlay(b placing ts from 1 for 6);
  b := set_byte(b, 6, (get_byte(b, 6) & 15) | 112);
  return encode(b, 'hex')::uuid;
end $$;

-- The organisation the current transaction acts for; NULL when unset, so policies match nothing.
create or replace function app_current_org() returns uuid language sql stable as $$
  select nullif(current_setting('app.organization_id', true), '')::uuid
$$;

create or replace function app_is_platform() returns boolean language sql stable as $$
  select coalesce(current_setting('app.platform', true), '') = 'on'
$$;

create table organizations (
  id uuid primary key default uuid_generate_v7(),
  name text not null,
  sub_domain_name text not null unique,
  organization_status text not null default 'Active' check (organization_status in ('Active', 'Inactive')),
  is_platform boolean not null default false,
  is_enterprise boolean not null default false,
  subscription_type text not null default 'free_trial' check (subscription_type in ('free_trial', 'active', 'cancelled')),
  trial_ends_at timestamptz,
  onboarding_completed_at timestamptz,
  timezone text not null default 'UTC',
  storage_quota_bytes bigint not null default 104857600,
  storage_used_bytes bigint not null default 0,
  deleted_at timestamptz,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now()
);

create table roles (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  name text not null,
  is_system boolean not null default false,
  is_power_user boolean not null default false,
  grants_admin boolean not null default false,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id)
);
create unique index roles_name_unique on roles (organization_id, lower(name));

create table role_actions (
  organization_id uuid not null default app_current_org(),
  role_id uuid not null,
  name text not null,
  r_add boolean not null default false,
  r_edit boolean not null default false,
  r_view boolean not null default false,
  r_destroy boolean not null default false,
  is_revoke boolean not null default false,
  is_extend boolean not null default false,
  is_close boolean not null default false,
  is_reject boolean not null default false,
  is_approve boolean not null default false,
  primary key (organization_id, role_id, name),
  foreign key (organization_id, role_id) references roles (organization_id, id) on delete cascade
);

create table users (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  email text not null,
  full_name text not null,
  password_hash text,
  status text not null default 'Active' check (status in ('Active', 'Inactive', 'Error', 'Deleted')),
  is_admin boolean not null default false,
  is_platform_admin boolean not null default false,
  can_issue_permit boolean not null default false,
  role_id uuid,
  locale text not null default 'en' check (locale in ('en', 'es', 'tr', 'zh')),
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, role_id) references roles (organization_id, id)
);
create unique index users_email_unique on users (organization_id, lower(email));

-- A session is a refresh-token family: reuse of a spent refresh token revokes the whole family.
create table sessions (
  organization_id uuid not null default app_current_org(),
  id uuid not null default uuid_generate_v7(),
  user_id uuid not null,
  user_agent text,
  ip text,
  created_at timestamptz not null default now(),
  last_used_at timestamptz not null default now(),
  revoked_at timestamptz,
  primary key (organization_id, id),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
create index sessions_user on sessions (organization_id, user_id);

create table refresh_tokens (
  organization_id uuid not null default app_current_org(),
  token_hash text not null,
  session_id uuid not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organization_id, token_hash),
  foreign key (organization_id, session_id) references sessions (organization_id, id) on delete cascade
);

create table password_reset_tokens (
  organization_id uuid not null default app_current_org(),
  token_hash text not null,
  user_id uuid not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organization_id, token_hash),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
create index password_reset_tokens_expiry on password_reset_tokens (expires_at);

create table notifications (
  organization_id uuid not null default app_current_org(),
  id uuid not null default uuid_generate_v7(),
  user_id uuid not null,
  title text not null,
  body text not null default '',
  link text,
  is_read boolean not null default false,
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
create index notifications_user on notifications (organization_id, user_id, is_read);

create table mail_outbox (
  organization_id uuid not null default app_current_org(),
  id uuid not null default uuid_generate_v7(),
  to_address text not null,
  subject text not null,
  body text not null,
  status text not null default 'pending' check (status in ('pending', 'sent', 'failed', 'kept')),
  attempts integer not null default 0,
  last_error text,
  created_at timestamptz not null default now(),
  sent_at timestamptz,
  primary key (organization_id, id)
);

-- Who changed what, when: the change history modules show.
create table audit_log (
  organization_id uuid not null default app_current_org(),
  id uuid not null default uuid_generate_v7(),
  actor_user_id uuid,
  action text not null,
  entity text not null,
  entity_id text,
  changes jsonb not null default '{}'::jsonb,
  created_at timestamptz not null default now(),
  primary key (organization_id, id)
);

-- Not tenant data: counters keyed by a hash of (kind, address or account), shared by all app nodes.
create table rate_limits (
  key text primary key,
  window_start timestamptz not null,
  count integer not null
);

-- The tenant wall.
alter table organizations enable row level security;
create policy organizations_tenant on organizations
  using (id = app_current_org() or app_is_platform())
  with check (id = app_current_org() or app_is_platform());

do $$
declare t text;
begin
  foreach t in array array['roles', 'role_actions', 'users', 'sessions', 'refresh_tokens',
    'password_reset_tokens', 'notifications', 'mail_outbox', 'audit_log']
  loop
    execute format('alter table %I enable row level security', t);
    execute format('create policy %I on %I using (organization_id = app_current_org()) with check (organization_id = app_current_org())', t || '_tenant', t);
  end loop;
end $$;

-- The one lookup made before the organisation is known: the host label to the organisation.
-- It returns only what tenancy needs, never other organisations' data.
create or replace function app_resolve_tenant(label text)
returns table (id uuid, organization_status text, is_platform boolean, removed boolean)
language sql stable security definer set search_path = public as $$
  select o.id, o.organization_status, o.is_platform, o.deleted_at is not null
  from organizations o where o.sub_domain_name = lower(label)
$$;

-- The public tenant, where the platform super admins are users.
insert into organizations (name, sub_domain_name, is_platform, subscription_type, onboarding_completed_at)
values ('Platform', 'public', true, 'active', now());

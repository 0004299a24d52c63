-- Sign-up, the free trial and its extension requests (spec 000 §2/§7, spec 001 §4/§5/§9).

-- A sign-up waiting for its e-mailed code. It has no organisation yet, so it belongs to the platform's
-- own ("public") tenant, like the outbox row that carries its code. The password and the code are
-- stored hashed only.
create table registrations (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  company_name text not null,
  full_name text not null,
  email text not null,
  phone text not null,
  sub_domain text not null,
  locale text not null default 'en' check (locale in ('en', 'es', 'tr', 'zh')),
  password_hash text not null,
  code_hash text not null,
  code_expires_at timestamptz not null,
  code_sent_at timestamptz not null default now(),
  failed_attempts integer not null default 0,
  resend_count integer not null default 0,
  completed_at timestamptz,
  created_organization_id uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, id)
);
create index registrations_email on registrations (organization_id, lower(email)) where completed_at is null;
create index registrations_sub_domain on registrations (organization_id, sub_domain) where completed_at is null;
select app_wall('registrations');

-- "Email already present" (spec 001 §5/§8) looks across organisations for an admin with this address.
-- Like app_resolve_tenant, it answers only the one yes/no the sign-up needs.
create or replace function app_admin_email_taken(address text)
returns boolean
language sql stable security definer set search_path = public as $$
  select exists (
    select 1 from users u join organizations o on o.id = u.organization_id
    where lower(u.email) = lower(address) and (u.is_admin or u.is_platform_admin)
      and u.status <> 'Deleted' and o.deleted_at is null
  )
$$;

-- An organisation admin's request for more trial days; the platform admin approves or rejects it.
create table org_free_trial_extend_requests (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  requested_by uuid,
  reason text not null check (length(reason) between 1 and 1000),
  status text not null default 'pending' check (status in ('pending', 'approved', 'rejected')),
  days_granted integer check (days_granted is null or days_granted > 0),
  decision_reason text,
  -- A platform admin is a user of the public tenant, so no foreign key into this organisation's users.
  decided_by uuid,
  decided_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, requested_by) references users (organization_id, id) on delete set null (requested_by)
);
-- One request waiting at a time per organisation.
create unique index org_free_trial_extend_requests_one_pending on org_free_trial_extend_requests (organization_id) where status = 'pending';
create index org_free_trial_extend_requests_created on org_free_trial_extend_requests (created_at desc);
select app_wall('org_free_trial_extend_requests');
-- The provider-wide list (GET /api/v1/org_free_trial_extend_requests) is read on the explicit platform
-- path only: a transaction that set app.platform (asPlatform), which request code reaches solely
-- behind the platform-admin guard.
create policy org_free_trial_extend_requests_platform on org_free_trial_extend_requests
  using (app_is_platform()) with check (app_is_platform());

-- Which trial notices (3 days, 1 day, expired) went out for which end date: each is sent once, and an
-- extension (a new end date) arms them again.
create table trial_notices (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  kind text not null check (kind in ('3d', '1d', 'expired')),
  trial_ends_at timestamptz not null,
  sent_at timestamptz not null default now(),
  primary key (organization_id, kind, trial_ends_at)
);
select app_wall('trial_notices');

-- API tokens (issue 19): service accounts and their tokens.

-- A service account is a user of kind "integration": a role like anyone, never a password, never an
-- administrator. The database holds the rule, whatever a later screen or import may try.
alter table users add column is_integration boolean not null default false;
alter table users add constraint users_integration_no_password
  check (not is_integration or (password_hash is null and not is_admin and not is_platform_admin and not is_guest));

-- A named token of a service account. Only its SHA-256 is kept; `hint` is its first characters, to
-- tell tokens apart in lists. Each token has a session of its own (revoked with it), so a request made
-- with it is the service account's like any other and its writes are recorded under that account.
create table api_tokens (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  user_id uuid not null,
  session_id uuid not null,
  name text not null check (length(name) between 1 and 100),
  token_hash text not null,
  hint text not null,
  created_by uuid,
  created_at timestamptz not null default now(),
  expires_at timestamptz,
  last_used_at timestamptz,
  revoked_at timestamptz,
  primary key (organization_id, id),
  unique (organization_id, token_hash),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade,
  foreign key (organization_id, session_id) references sessions (organization_id, id) on delete cascade,
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
select app_wall('api_tokens');
create index api_tokens_user on api_tokens (organization_id, user_id);

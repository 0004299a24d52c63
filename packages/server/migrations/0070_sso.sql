-- Single sign-on (OpenID Connect) per organisation.

-- One provider per organisation. The client secret is sealed with a key derived from the app secret
-- (AES-256-GCM) and never leaves the server.
create table sso_configs (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  issuer_url text not null,
  client_id text not null,
  client_secret_enc text not null,
  allowed_domains text[] not null default '{}',
  enabled boolean not null default false,
  create_users boolean not null default false,
  default_role_id uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id),
  foreign key (organization_id, default_role_id) references roles (organization_id, id) on delete set null (default_role_id)
);
select app_wall('sso_configs');

-- A sign-in sent to the provider and not back yet: state (hashed), nonce and PKCE verifier, bound to
-- the browser that started it by a cookie (hashed).
create table sso_requests (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  state_hash text not null,
  browser_hash text not null,
  code_verifier text not null,
  nonce text not null,
  expires_at timestamptz not null,
  created_at timestamptz not null default now(),
  primary key (organization_id, state_hash)
);
select app_wall('sso_requests');
create index sso_requests_expiry on sso_requests (organization_id, expires_at);

-- The one-time code that hands a verified sign-in to the web (no token ever travels in a URL).
create table sso_exchange_codes (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  code_hash text not null,
  user_id uuid not null,
  browser_hash text not null,
  expires_at timestamptz not null,
  used_at timestamptz,
  created_at timestamptz not null default now(),
  primary key (organization_id, code_hash),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
select app_wall('sso_exchange_codes');
create index sso_exchange_codes_expiry on sso_exchange_codes (organization_id, expires_at);

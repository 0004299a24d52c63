-- Webhooks (issue 19): endpoints, their deliveries, and the last status seen of each record.

-- The signing secret is needed in clear to sign, so it is sealed (AES-256-GCM, a key derived from the
-- app secret), like the single sign-on client secret.
create table webhook_endpoints (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  url text not null check (length(url) between 1 and 2000),
  description text not null default '' check (length(description) <= 200),
  events text[] not null check (cardinality(events) between 1 and 50),
  secret_enc text not null,
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
select app_wall('webhook_endpoints');

-- One event for one endpoint. `event_id` is the same in every endpoint's delivery of an event, so a
-- receiver can ignore a repeat. Attempts are made by the pg-boss job `webhook-deliver`.
create table webhook_deliveries (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  endpoint_id uuid not null,
  event text not null,
  event_id uuid not null,
  payload jsonb not null,
  status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
  attempts integer not null default 0 check (attempts >= 0),
  response_status integer,
  response_excerpt text,
  error text,
  created_at timestamptz not null default now(),
  last_attempt_at timestamptz,
  delivered_at timestamptz,
  primary key (organization_id, id),
  foreign key (organization_id, endpoint_id) references webhook_endpoints (organization_id, id) on delete cascade
);
select app_wall('webhook_deliveries');
create index webhook_deliveries_endpoint on webhook_deliveries (organization_id, endpoint_id, created_at desc);

-- The status each record had when its last event was sent: an update that moves it is "status changed".
create table webhook_record_states (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  subject text not null,
  record_id uuid not null,
  status text,
  updated_at timestamptz not null default now(),
  primary key (organization_id, subject, record_id)
);
select app_wall('webhook_record_states');

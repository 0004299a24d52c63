-- Full export (issue 19): one archive of everything the organisation owns, built by a job.
create table data_exports (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  requested_by uuid,
  status text not null default 'queued' check (status in ('queued', 'running', 'ready', 'failed', 'expired')),
  progress integer not null default 0 check (progress between 0 and 100),
  storage_key text,
  size_bytes bigint,
  error text,
  created_at timestamptz not null default now(),
  started_at timestamptz,
  finished_at timestamptz,
  expires_at timestamptz,
  primary key (organization_id, id),
  foreign key (organization_id, requested_by) references users (organization_id, id) on delete set null (requested_by)
);
select app_wall('data_exports');
-- One export at a time per organisation.
create unique index data_exports_one_running on data_exports (organization_id) where status in ('queued', 'running');

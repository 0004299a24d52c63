-- Large list exports (issue 13): a list's filtered rows past the inline limit, written to a workbook by a
-- job and downloaded by the person who asked for it (and nobody else).
create table list_exports (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  requested_by uuid,
  -- Which list ('observations', 'actions:<kind>') and its filters, as the route validated them.
  list text not null,
  query jsonb not null,
  language text not null,
  status text not null default 'queued' check (status in ('queued', 'running', 'ready', 'failed', 'expired')),
  rows_total integer not null default 0,
  rows_done integer not null default 0,
  file_name text not null,
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
select app_wall('list_exports');
create index list_exports_requested_by on list_exports (organization_id, requested_by, created_at desc);

-- What every module migration uses: the tenant wall in one call, and stored files with the quota.

-- Walls a tenant table: row-level security on organization_id = the transaction's organisation.
-- Call it for every table that has organization_id: `select app_wall('sites');`
create or replace function app_wall(t text) returns void language plpgsql as $$
begin
  execute format('alter table %I enable row level security', t);
  execute format('create policy %I on %I using (organization_id = app_current_org()) with check (organization_id = app_current_org())', t || '_tenant', t);
end $$;

-- Stored files (photos, attachments, logos): metadata here, bytes in the storage driver.
-- Their sizes add up to organizations.storage_used_bytes, the quota behind "memory exhausted".
create table files (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  purpose text not null,
  file_name text not null,
  mime_type text not null,
  size_bytes bigint not null check (size_bytes >= 0),
  storage_key text not null,
  uploaded_by uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, id)
);
select app_wall('files');

-- The tenant's row must be updatable by the app role for its own storage counter (already walled by
-- organizations_tenant), so the quota moves in the same transaction as the file row.

-- The plan's user limit (spec 001 §9: the free trial allows up to 50 users).
alter table organizations add column user_limit integer not null default 50 check (user_limit > 0);

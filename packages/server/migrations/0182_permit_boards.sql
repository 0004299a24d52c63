-- The live permit board's read-only links (issue 16): an admin makes one per wall screen, for one site,
-- and revokes it. Only the token's hash is kept: the link is shown once, when it is made.
create table permit_board_links (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  site_id uuid not null,
  label text not null check (length(btrim(label)) between 1 and 100),
  token_hash text not null,
  created_by uuid,
  created_at timestamptz not null default now(),
  revoked_at timestamptz,
  last_used_at timestamptz,
  primary key (organization_id, id),
  unique (organization_id, token_hash),
  foreign key (organization_id, site_id) references sites (organization_id, id) on delete cascade,
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
select app_wall('permit_board_links');

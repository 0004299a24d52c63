-- The action lists at a large organisation's size (issue 13: 100,000 actions, 1.1 s for a list).
-- Three things: the tab counts and totals are kept instead of counted per request; every list's
-- filter has an index in the list's order (newest serial first) that also carries the other filters,
-- so a page is read from index entries and only its 50 rows are fetched; keywords have trigram indexes.

-- One row per organisation, source, site, control type and status. The list's total and status tabs,
-- for any mix of the list (source), site and control type filters, sum at most
-- sources x sites x 5 x 5 rows. The responsible person, due dates and keywords count index entries.
create table action_counts (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  source_type text not null,
  site_id uuid not null,
  control_type text not null,
  status text not null,
  n integer not null,
  primary key (organization_id, source_type, site_id, control_type, status)
);
select app_wall('action_counts');

-- Runs as whoever changes the action (the app role in its tenant transaction, the sweep, the owner),
-- in the same transaction. Rows are touched in key order so two transactions moving actions between
-- the same keys queue instead of deadlocking (as migration 0130 does for observations).
create or replace function app_action_counts() returns trigger language plpgsql as $$
declare
  k record;
begin
  for k in
    select d.organization_id, d.source_type, d.site_id, d.control_type, d.status, sum(d.delta)::integer as delta from (
      select old.organization_id, old.source_type, old.site_id, old.control_type, old.status, -1 as delta where tg_op in ('UPDATE', 'DELETE')
      union all
      select new.organization_id, new.source_type, new.site_id, new.control_type, new.status, 1 where tg_op in ('UPDATE', 'INSERT')
    ) d
    group by 1, 2, 3, 4, 5 having sum(d.delta) <> 0
    order by 1, 2, 3, 4, 5
  loop
    if k.delta > 0 then
      insert into action_counts as c (organization_id, source_type, site_id, control_type, status, n)
      values (k.organization_id, k.source_type, k.site_id, k.control_type, k.status, k.delta)
      on conflict (organization_id, source_type, site_id, control_type, status) do update set n = c.n + excluded.n;
    else
      update action_counts set n = n + k.delta
      where organization_id = k.organization_id and source_type = k.source_type and site_id = k.site_id
        and control_type = k.control_type and status = k.status;
    end if;
  end loop;
  return null;
end $$;

create trigger actions_counts after insert or delete or update of status, source_type, site_id, control_type, organization_id on actions
  for each row execute function app_action_counts();

-- Counts every organisation's actions again: here once, and after a bulk load that ran without triggers
-- (the bench's seed in replica mode; a test's). The owner's work: it reads every tenant.
create or replace function app_refill_action_counts() returns void language sql as $$
  delete from action_counts;
  insert into action_counts (organization_id, source_type, site_id, control_type, status, n)
  select organization_id, source_type, site_id, control_type, status, count(*) from actions group by 1, 2, 3, 4, 5;
$$;
select app_refill_action_counts();

-- A list page: the filter leads, newest serial next, and the other filters ride along (include), so the
-- page's serials come from an index-only scan and only its rows are read from the table. The counts
-- that action_counts cannot give (a responsible person, a due date range) read the same entries.
create index actions_list_all on actions (organization_id, serial desc)
  include (status, source_type, site_id, responsible_id, control_type, due_date);
create index actions_list_status on actions (organization_id, status, serial desc)
  include (source_type, site_id, responsible_id, control_type, due_date);
create index actions_list_source on actions (organization_id, source_type, serial desc)
  include (status, site_id, responsible_id, control_type, due_date);
create index actions_list_site on actions (organization_id, site_id, serial desc)
  include (status, source_type, responsible_id, control_type, due_date);
-- "Assigned to me" and the home's and push's counts of one person's actions; it replaces
-- actions_responsible_status (same leading columns, so the foreign key's set null still has its index).
create index actions_list_responsible on actions (organization_id, responsible_id, serial desc)
  include (status, source_type, site_id, control_type, due_date);
drop index actions_responsible_status;
create index actions_list_due on actions (organization_id, due_date)
  include (serial, status, source_type, site_id, responsible_id, control_type);

-- Keywords match the description and remarks anywhere in the text (ILIKE '%…%'): trigram indexes that
-- start with the organisation (btree_gin), so a search reads its own tenant's entries only.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;
create index actions_description_trgm on actions using gin (organization_id, description gin_trgm_ops);
create index actions_remarks_trgm on actions using gin (organization_id, remarks gin_trgm_ops);

-- ILIKE is not leakproof, so under row-level security PostgreSQL will not use it as an index condition
-- and a search would read every action of the organisation (migration 0210 explains it for observations).
-- This function runs as the owner and walls itself: it reads the one organisation it is given, and only
-- when that is the caller's tenant, or when the caller's session is the owner's (the bench's bare
-- replay, maintenance). It answers the serials of the matching actions; the list then reads them
-- through its own indexes (serial = any(...) is leakproof).
create or replace function app_action_matches(org uuid, pattern text) returns setof integer
  language sql stable security definer set search_path = public, pg_temp rows 100 as $$
  select a.serial from actions a
  where a.organization_id = org
    and (org = app_current_org() or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'actions'::regclass), 'member'))
    and (a.description ilike pattern or a.remarks ilike pattern)
$$;

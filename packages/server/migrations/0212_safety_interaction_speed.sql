-- The safety interaction list at a large organisation's size (issue 13): its total kept instead of
-- counted, each filter with an index in the list's order (newest held_at first) that carries the other
-- filters, and keywords through trigram indexes.

-- One row per organisation, site, status and topic, and one per site and status with topic '' (every
-- interaction, whatever its topics). The total of the list unfiltered, or by site, status or topic, is
-- a sum over at most sites x 2 x 12 rows. Dates, the observer and keywords count index entries.
create table safety_interaction_counts (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  site_id uuid not null,
  status text not null,
  topic text not null,
  n integer not null,
  primary key (organization_id, site_id, status, topic)
);
select app_wall('safety_interaction_counts');

-- Runs in the changing transaction; rows touched in key order (see 0130), so writers queue, never deadlock.
create or replace function app_safety_interaction_counts() returns trigger language plpgsql as $$
declare
  k record;
begin
  for k in
    select d.organization_id, d.site_id, d.status, d.topic, sum(d.delta)::integer as delta from (
      select old.organization_id, old.site_id, old.status, t.topic, -1 as delta
      from (select '' as topic union select distinct unnest(old.topics)) t where tg_op in ('UPDATE', 'DELETE')
      union all
      select new.organization_id, new.site_id, new.status, t.topic, 1
      from (select '' as topic union select distinct unnest(new.topics)) t where tg_op in ('UPDATE', 'INSERT')
    ) d
    group by 1, 2, 3, 4 having sum(d.delta) <> 0
    order by 1, 2, 3, 4
  loop
    if k.delta > 0 then
      insert into safety_interaction_counts as c (organization_id, site_id, status, topic, n)
      values (k.organization_id, k.site_id, k.status, k.topic, k.delta)
      on conflict (organization_id, site_id, status, topic) do update set n = c.n + excluded.n;
    else
      update safety_interaction_counts set n = n + k.delta
      where organization_id = k.organization_id and site_id = k.site_id and status = k.status and topic = k.topic;
    end if;
  end loop;
  return null;
end $$;

create trigger safety_interactions_counts after insert or delete or update of status, site_id, topics, organization_id
  on safety_interactions for each row execute function app_safety_interaction_counts();

-- Counts every organisation's interactions again: here once, and after a bulk load that ran without
-- triggers (the bench's seed in replica mode; a test's). The owner's work: it reads every tenant.
create or replace function app_refill_safety_interaction_counts() returns void language sql as $$
  delete from safety_interaction_counts;
  insert into safety_interaction_counts (organization_id, site_id, status, topic, n)
  select organization_id, site_id, status, topic, count(*) from (
    select organization_id, site_id, status, '' as topic from safety_interactions
    union all
    select i.organization_id, i.site_id, i.status, t.topic
    from safety_interactions i cross join lateral (select distinct unnest(i.topics)) t(topic)
  ) x group by 1, 2, 3, 4;
$$;
select app_refill_safety_interaction_counts();

-- A page: the filter leads, newest held_at (then serial) next, the other filters ride along, so the
-- page's serials come from an index-only scan and only its rows are read. held_on leads for a period
-- (it replaces safety_interactions_held, whose columns it starts with).
create index safety_interactions_list on safety_interactions (organization_id, held_at desc, serial desc)
  include (status, site_id, observer_id, held_on, topics);
create index safety_interactions_list_site on safety_interactions (organization_id, site_id, held_at desc, serial desc)
  include (status, observer_id, held_on, topics);
create index safety_interactions_list_status on safety_interactions (organization_id, status, held_at desc, serial desc)
  include (site_id, observer_id, held_on, topics);
-- It replaces safety_interactions_observer (same leading columns: the foreign key's set null keeps an index).
create index safety_interactions_list_observer on safety_interactions (organization_id, observer_id, held_at desc, serial desc)
  include (status, site_id, held_on, topics);
drop index safety_interactions_observer;
create index safety_interactions_list_held on safety_interactions (organization_id, held_on desc)
  include (held_at, serial, status, site_id, observer_id, topics);
drop index safety_interactions_held;

-- Keywords: the serial as shown (SI-000012), crew, location, comment, the observer's name, the people
-- spoken with and the behaviours' notes, anywhere in the text.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;
create or replace function app_si_serial(serial integer) returns text
  language sql immutable parallel safe as $$ select 'SI-' || lpad(serial::text, 6, '0') $$;
create index safety_interactions_text_trgm on safety_interactions using gin (organization_id, app_si_serial(serial) gin_trgm_ops,
  crew gin_trgm_ops, location gin_trgm_ops, comment gin_trgm_ops);
create index si_participants_name_trgm on si_participants using gin (organization_id, name gin_trgm_ops);
create index si_behaviours_note_trgm on si_behaviours using gin (organization_id, note gin_trgm_ops);

-- ILIKE is not leakproof: under row-level security it cannot be an index condition (see 0210, 0211).
-- This function runs as the owner and walls itself (the caller's tenant only, or the owner's own
-- session); it answers the ids of the matching interactions, which the list reads through its indexes.
create or replace function app_si_matches(org uuid, pattern text) returns setof uuid
  language sql stable security definer set search_path = public, pg_temp rows 100 as $$
  select i.id from safety_interactions i
  where i.organization_id = org
    and (org = app_current_org() or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'safety_interactions'::regclass), 'member'))
    and (app_si_serial(i.serial) ilike pattern or i.crew ilike pattern or i.location ilike pattern or i.comment ilike pattern)
  union
  select i.id from safety_interactions i join users u on u.organization_id = i.organization_id and u.id = i.observer_id
  where i.organization_id = org and u.organization_id = org and u.full_name ilike pattern
    and (org = app_current_org() or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'safety_interactions'::regclass), 'member'))
  union
  select x.interaction_id from si_participants x
  where x.organization_id = org and x.name ilike pattern
    and (org = app_current_org() or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'safety_interactions'::regclass), 'member'))
  union
  select b.interaction_id from si_behaviours b
  where b.organization_id = org and b.note ilike pattern
    and (org = app_current_org() or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'safety_interactions'::regclass), 'member'))
$$;

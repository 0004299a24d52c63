-- Keyword search at a large organisation's size (issue 13): a common word matches tens of thousands of
-- rows, and the search functions of 0210–0212 answered every match (a UNION: every arm read in full,
-- then deduplicated) before the list counted them or sorted a page. These functions take the list's
-- filters and a LIMIT, so they stop after `lim` rows: the list counts at most 1,000 matches (the answer
-- says when the count is a lower bound) and a page of a common word is read in the list's index order.
--
-- Each arm excludes the rows an earlier arm answers, so the arms are disjoint and UNION ALL returns each
-- match once without collecting them all to deduplicate: the outer LIMIT then stops the scan early.
-- The wall is the same as in 0210–0212: the organisation given, only when it is the caller's tenant or
-- the caller's session is the owner's. The old functions stay (the exports read them).

-- Observations: serial, own text (description, comment, a guest's name), the site's, the category's, or
-- the staff reporter's name unless anonymous. Filters as the list's (0210): null means no filter;
-- observed_before is the day after `to`.
create or replace function app_observation_search(org uuid, pattern text, serial_no integer, status_is text, site_is uuid,
  type_is text, risk_is text, reporter_is uuid, observed_from timestamp, observed_before timestamp, lim integer)
  returns table (id uuid, serial integer, status text, type text, risk_level text, site_id uuid, reporter_id uuid,
                 observed_local timestamp, created_at timestamptz)
  language sql stable security definer set search_path = public, pg_temp as $$
  with names as materialized (
    select array(select s.id from sites s where s.organization_id = org and s.name ilike pattern) as site_ids,
      array(select c.id from categories c where c.organization_id = org and c.name ilike pattern) as category_ids,
      array(select u.id from users u where u.organization_id = org and u.full_name ilike pattern) as user_ids
    where app_observation_search_allowed(org)
  )
  select m.* from (
    select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at
    from observations o
    where o.organization_id = org and app_observation_search_allowed(org) and o.serial = serial_no
    union all
    select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at
    from observations o
    where o.organization_id = org and app_observation_search_allowed(org)
      and app_observation_text(o.description, o.comment, o.reporter_name) ilike pattern
      and o.serial is distinct from serial_no
    union all
    select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at
    from observations o
    where o.organization_id = org and o.site_id = any ((select n.site_ids from names n)::uuid[])
      and not app_observation_text(o.description, o.comment, o.reporter_name) ilike pattern
      and o.serial is distinct from serial_no
    union all
    select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at
    from observations o
    where o.organization_id = org and o.category_id = any ((select n.category_ids from names n)::uuid[])
      and not o.site_id = any ((select n.site_ids from names n)::uuid[])
      and not app_observation_text(o.description, o.comment, o.reporter_name) ilike pattern
      and o.serial is distinct from serial_no
    union all
    select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at
    from observations o
    where o.organization_id = org and o.reporter_id = any ((select n.user_ids from names n)::uuid[]) and not o.anonymous
      and not coalesce(o.category_id = any ((select n.category_ids from names n)::uuid[]), false)
      and not o.site_id = any ((select n.site_ids from names n)::uuid[])
      and not app_observation_text(o.description, o.comment, o.reporter_name) ilike pattern
      and o.serial is distinct from serial_no
  ) m
  where (status_is is null or m.status = status_is) and (site_is is null or m.site_id = site_is)
    and (type_is is null or m.type = type_is) and (risk_is is null or m.risk_level = risk_is)
    and (reporter_is is null or m.reporter_id = reporter_is)
    and (observed_from is null or m.observed_local >= observed_from)
    and (observed_before is null or m.observed_local < observed_before)
  limit lim
$$;
revoke all on function app_observation_search(uuid, text, integer, text, uuid, text, text, uuid, timestamp, timestamp, integer) from public;

-- Actions: the serial, the description or remarks, the responsible person's or the site's name. Answers
-- the serial (the list reads its rows by it) and the status (the tab counts group by it).
create or replace function app_action_search(org uuid, pattern text, serial_no integer, source_is text, site_is uuid,
  responsible_is uuid, control_is text, status_is text, due_from date, due_to date, lim integer)
  returns table (serial integer, status text)
  language sql stable security definer set search_path = public, pg_temp as $$
  with names as materialized (
    select array(select u.id from users u where u.organization_id = org and u.full_name ilike pattern) as people,
      array(select s.id from sites s where s.organization_id = org and s.name ilike pattern) as places
    where org = app_current_org()
      or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'actions'::regclass), 'member')
  )
  select m.serial, m.status from (
    select a.serial, a.status, a.source_type, a.site_id, a.responsible_id, a.control_type, a.due_date
    from actions a
    where a.organization_id = org and a.serial = serial_no and exists (select from names)
    union all
    select a.serial, a.status, a.source_type, a.site_id, a.responsible_id, a.control_type, a.due_date
    from actions a
    where a.organization_id = org and (a.description ilike pattern or a.remarks ilike pattern)
      and a.serial is distinct from serial_no and exists (select from names)
    union all
    select a.serial, a.status, a.source_type, a.site_id, a.responsible_id, a.control_type, a.due_date
    from actions a
    where a.organization_id = org and a.responsible_id = any ((select n.people from names n)::uuid[])
      and not (a.description ilike pattern or coalesce(a.remarks ilike pattern, false))
      and a.serial is distinct from serial_no
    union all
    select a.serial, a.status, a.source_type, a.site_id, a.responsible_id, a.control_type, a.due_date
    from actions a
    where a.organization_id = org and a.site_id = any ((select n.places from names n)::uuid[])
      and not coalesce(a.responsible_id = any ((select n.people from names n)::uuid[]), false)
      and not (a.description ilike pattern or coalesce(a.remarks ilike pattern, false))
      and a.serial is distinct from serial_no
  ) m
  where (source_is is null or m.source_type = source_is) and (site_is is null or m.site_id = site_is)
    and (responsible_is is null or m.responsible_id = responsible_is) and (control_is is null or m.control_type = control_is)
    and (status_is is null or m.status = status_is)
    and (due_from is null or m.due_date >= due_from) and (due_to is null or m.due_date <= due_to)
  limit lim
$$;
revoke all on function app_action_search(uuid, text, integer, text, uuid, uuid, text, text, date, date, integer) from public;

-- Safety interactions: the serial as shown, crew, location, comment (one trigram index), the observer's
-- name, a person spoken with, a behaviour's note. A person or a behaviour arm answers an interaction once:
-- through its first matching row only (by the key's order), and only when no earlier arm answered it.
create or replace function app_si_search(org uuid, pattern text, site_is uuid, observer_is uuid, status_is text,
  topic_is text, held_from date, held_to date, lim integer)
  returns table (id uuid, status text)
  language sql stable security definer set search_path = public, pg_temp as $$
  with names as materialized (
    select array(select u.id from users u where u.organization_id = org and u.full_name ilike pattern) as people
    where org = app_current_org()
      or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'safety_interactions'::regclass), 'member')
  )
  select m.id, m.status from (
    select i.id, i.status, i.site_id, i.observer_id, i.topics, i.held_on
    from safety_interactions i
    where i.organization_id = org and exists (select from names)
      and (app_si_serial(i.serial) ilike pattern or i.crew ilike pattern or i.location ilike pattern or i.comment ilike pattern)
    union all
    select i.id, i.status, i.site_id, i.observer_id, i.topics, i.held_on
    from safety_interactions i
    where i.organization_id = org and i.observer_id = any ((select n.people from names n)::uuid[])
      and not coalesce(app_si_serial(i.serial) ilike pattern or i.crew ilike pattern or i.location ilike pattern or i.comment ilike pattern, false)
    union all
    select i.id, i.status, i.site_id, i.observer_id, i.topics, i.held_on
    from si_participants x join safety_interactions i on i.organization_id = org and i.id = x.interaction_id
    where x.organization_id = org and x.name ilike pattern and exists (select from names)
      and not exists (select from si_participants y where y.organization_id = org and y.interaction_id = x.interaction_id
        and y.position < x.position and y.name ilike pattern)
      and not coalesce(app_si_serial(i.serial) ilike pattern or i.crew ilike pattern or i.location ilike pattern or i.comment ilike pattern, false)
      and not coalesce(i.observer_id = any ((select n.people from names n)::uuid[]), false)
    union all
    select i.id, i.status, i.site_id, i.observer_id, i.topics, i.held_on
    from si_behaviours b join safety_interactions i on i.organization_id = org and i.id = b.interaction_id
    where b.organization_id = org and b.note ilike pattern and exists (select from names)
      and not exists (select from si_behaviours c where c.organization_id = org and c.interaction_id = b.interaction_id
        and (c.kind, c.position) < (b.kind, b.position) and c.note ilike pattern)
      and not exists (select from si_participants y where y.organization_id = org and y.interaction_id = b.interaction_id
        and y.name ilike pattern)
      and not coalesce(app_si_serial(i.serial) ilike pattern or i.crew ilike pattern or i.location ilike pattern or i.comment ilike pattern, false)
      and not coalesce(i.observer_id = any ((select n.people from names n)::uuid[]), false)
  ) m
  where (site_is is null or m.site_id = site_is) and (observer_is is null or m.observer_id = observer_is)
    and (status_is is null or m.status = status_is) and (topic_is is null or topic_is = any (m.topics))
    and (held_from is null or m.held_on >= held_from) and (held_to is null or m.held_on <= held_to)
  limit lim
$$;
revoke all on function app_si_search(uuid, text, uuid, uuid, text, text, date, date, integer) from public;

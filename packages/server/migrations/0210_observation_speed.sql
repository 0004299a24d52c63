-- The observation list at a large customer's size (issue 13): keyword search through indexes, every sort
-- the API offers read in index order, and the searches' lookups by site, category and reporter indexed.

-- Keywords match inside words (ILIKE '%forklift%'): trigram indexes answer that. The extension ships
-- with PostgreSQL's contrib (Debian's and the embedded server's); migrations run as the database owner.
-- btree_gin lets the same index start with the organisation: a search reads its own tenant's entries only,
-- not the matches of every other organisation on the server.
create extension if not exists pg_trgm;
create extension if not exists btree_gin;

-- The observation's own searchable text in one expression: description, comment and a guest's name
-- (reporter_name is null on anonymous reports, a check of 0110 says so). One index, one recheck.
create or replace function app_observation_text(description text, comment text, reporter_name text) returns text
  language sql immutable parallel safe as $$ select description || ' ' || comment || ' ' || coalesce(reporter_name, '') $$;
create index observations_text_trgm on observations using gin (organization_id, app_observation_text(description, comment, reporter_name) gin_trgm_ops);

-- A search also matches the site's, the category's and the reporter's names: their ids are looked up in
-- those small tables first, then the observations are read through these indexes (and observations_site).
create index observations_category on observations (organization_id, category_id);
create index observations_reporter on observations (organization_id, reporter_id);
-- ?sort=created_at reads this index in order (serial has its unique index, observed_at observations_observed).
create index observations_created on observations (organization_id, created_at desc, serial desc);

-- Why a function: ILIKE is not leakproof, so under row-level security PostgreSQL will not use it as an
-- index condition (it could leak another organisation's rows through errors before the wall filters them)
-- and the search read every row of the organisation. This function runs as the owner, who is not walled,
-- and walls itself: it reads the one organisation it is given, and only when that is the caller's tenant
-- (app_current_org()), or when the caller's session is the owner's (the bench's bare replay, maintenance),
-- which reads every organisation anyway. It answers the columns the list filters, sorts and counts by,
-- so a count or a tab count never goes back to the table.
create or replace function app_observation_search_allowed(org uuid) returns boolean language sql stable as $$
  select org = app_current_org()
    or pg_has_role(session_user, (select c.relowner from pg_class c where c.oid = 'observations'::regclass), 'member')
$$;

create or replace function app_observation_matches(org uuid, pattern text, serial_no integer)
  returns table (id uuid, serial integer, status text, type text, risk_level text, site_id uuid, reporter_id uuid,
                 observed_local timestamp, created_at timestamptz)
  language sql stable security definer set search_path = public, pg_temp as $$
  -- One arm per index, united (a row matching twice is one row: the columns include the id). A function's
  -- plan is generic, for any pattern: an OR of the arms would be costed with guessed selectivities and
  -- could read the whole organisation instead of the indexes.
  select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at from observations o
  where o.organization_id = org and app_observation_search_allowed(org) and o.serial = serial_no
  union
  select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at from observations o
  where o.organization_id = org and app_observation_search_allowed(org)
    and app_observation_text(o.description, o.comment, o.reporter_name) ilike pattern
  union
  select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at from sites s join observations o on o.organization_id = org and o.site_id = s.id
  where s.organization_id = org and app_observation_search_allowed(org) and s.name ilike pattern
  union
  select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at from categories c join observations o on o.organization_id = org and o.category_id = c.id
  where c.organization_id = org and app_observation_search_allowed(org) and c.name ilike pattern
  union
  select o.id, o.serial, o.status, o.type, o.risk_level, o.site_id, o.reporter_id, o.observed_local, o.created_at from users u join observations o on o.organization_id = org and o.reporter_id = u.id
  where u.organization_id = org and app_observation_search_allowed(org) and u.full_name ilike pattern and not o.anonymous
$$;
revoke all on function app_observation_matches(uuid, text, integer) from public;
revoke all on function app_observation_search_allowed(uuid) from public;

-- Tab counts of a type or a risk level read the index alone (the status it groups by is carried).
drop index observations_type_observed;
create index observations_type_observed on observations (organization_id, type, observed_local desc, serial desc) include (status, risk_level);
drop index observations_risk_observed;
create index observations_risk_observed on observations (organization_id, risk_level, observed_local desc, serial desc) include (status);

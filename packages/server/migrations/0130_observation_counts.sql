-- What the observation list and its status tabs count, kept up to date instead of counted per request
-- (issue 5: a large organisation's list counted 200,000 rows for every page it showed).
-- One row per organisation, local day at the site and status: the list's total and the tab counts of
-- the unfiltered list, a status tab or a date range are a sum over at most a few thousand rows (days
-- times statuses). Filters by site, type, risk or keywords still count the observations themselves.

create table observation_day_counts (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  day date not null,
  status text not null,
  n integer not null,
  primary key (organization_id, day, status)
);
-- A status tab's sum reads this index alone.
create index observation_day_counts_status on observation_day_counts (organization_id, status, day) include (n);
select app_wall('observation_day_counts');

-- Runs as whoever changes the observation (the app role inside its tenant transaction, or the owner),
-- in the same transaction. A change's rows are touched in key order, so two transactions moving
-- observations between the same days and statuses queue instead of deadlocking. A removal only
-- decrements: when a whole organisation goes, its counts may already be gone.
create or replace function app_observation_day_counts() returns trigger language plpgsql as $$
declare
  k record;
begin
  for k in
    select d.organization_id, d.day, d.status, sum(d.delta)::integer as delta from (
      select old.organization_id, old.observed_local::date as day, old.status, -1 as delta where tg_op in ('UPDATE', 'DELETE')
      union all
      select new.organization_id, new.observed_local::date, new.status, 1 where tg_op in ('UPDATE', 'INSERT')
    ) d
    group by 1, 2, 3 having sum(d.delta) <> 0
    order by 1, 2, 3
  loop
    if k.delta > 0 then
      insert into observation_day_counts as c (organization_id, day, status, n) values (k.organization_id, k.day, k.status, k.delta)
      on conflict (organization_id, day, status) do update set n = c.n + excluded.n;
    else
      update observation_day_counts set n = n + k.delta
      where organization_id = k.organization_id and day = k.day and status = k.status;
    end if;
  end loop;
  return null;
end $$;

create trigger observations_day_counts after insert or delete or update of status, observed_local, organization_id on observations
  for each row execute function app_observation_day_counts();

insert into observation_day_counts (organization_id, day, status, n)
select organization_id, observed_local::date, status, count(*) from observations group by 1, 2, 3;

-- The list's filters in the list's order: a page reads its 15 rows straight from the index, and a
-- count of a status, type or risk level (with or without dates) reads index entries, not table rows.
-- A site's index carries the other filters, so a site with a type or risk is counted from it alone.
-- observations_status was the prefix of the first; observations_site gains the sort's tie-break.
create index observations_status_observed on observations (organization_id, status, observed_local desc, serial desc);
create index observations_type_observed on observations (organization_id, type, observed_local desc, serial desc);
create index observations_risk_observed on observations (organization_id, risk_level, observed_local desc, serial desc);
drop index observations_status;
drop index observations_site;
create index observations_site on observations (organization_id, site_id, observed_local desc, serial desc) include (type, risk_level, status);

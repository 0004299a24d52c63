-- Review workflows (spec 001 §3 Workflow, §6, §9): which module and sites/forms, sequential or
-- parallel, one to five ordered reviewers, lead time in days, who is told when a review is late.

create table workflows (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  title text not null check (length(btrim(title)) between 1 and 150),
  module text not null check (module in ('permits', 'audits', 'incidents', 'observations', 'hira')),
  type text not null check (type in ('sequential', 'parallel')),
  lead_time_days integer not null check (lead_time_days between 1 and 365),
  escalation_user_id uuid,
  -- Permit or audit templates of the module (their tables belong to modules built later).
  form_ids uuid[] not null default '{}' check (cardinality(form_ids) <= 200),
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  -- Optional: a removed user simply leaves nobody to escalate to (replaceRemovedReviewer hands it to the creator first).
  foreign key (organization_id, escalation_user_id) references users (organization_id, id) on delete set null (escalation_user_id)
);
create index workflows_module on workflows (organization_id, module);
select app_wall('workflows');

-- Positions 1..5 with the primary key make "at most five reviewers, each place once" a database fact.
-- No cascade from users: a reviewer must be replaced (replaceRemovedReviewer) before the user row goes.
create table workflow_reviewers (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  workflow_id uuid not null,
  position smallint not null check (position between 1 and 5),
  user_id uuid not null,
  primary key (organization_id, workflow_id, position),
  unique (organization_id, workflow_id, user_id),
  foreign key (organization_id, workflow_id) references workflows (organization_id, id) on delete cascade,
  foreign key (organization_id, user_id) references users (organization_id, id)
);
create index workflow_reviewers_user on workflow_reviewers (organization_id, user_id);
select app_wall('workflow_reviewers');

create table workflow_sites (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  workflow_id uuid not null,
  site_id uuid not null,
  primary key (organization_id, workflow_id, site_id),
  foreign key (organization_id, workflow_id) references workflows (organization_id, id) on delete cascade,
  foreign key (organization_id, site_id) references sites (organization_id, id) on delete cascade
);
create index workflow_sites_site on workflow_sites (organization_id, site_id);
select app_wall('workflow_sites');

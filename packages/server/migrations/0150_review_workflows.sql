-- Review workflows run (issue 14): lead time in hours, and the reviews of records.

-- Lead time is counted in hours (DECISIONS.md): existing workflows keep their length, days x 24.
alter table workflows drop constraint workflows_lead_time_days_check;
alter table workflows rename column lead_time_days to lead_time_hours;
update workflows set lead_time_hours = lead_time_hours * 24;
alter table workflows add constraint workflows_lead_time_hours_check check (lead_time_hours between 1 and 8760);

-- One submission of one record for review. A round keeps the workflow as it was when submitted (title,
-- type, lead time, escalation user, reviewers), so editing the workflow changes the next round only.
-- `workflow_id` has no foreign key on purpose: deleting a workflow must not rewrite past rounds.
create table review_rounds (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  module text not null check (module in ('permits', 'audits', 'incidents', 'observations', 'hira')),
  -- The module's record (no foreign key: it lives in any module's table); removeReviews deletes its rounds.
  record_id uuid not null,
  round integer not null check (round >= 1),
  -- workflow: its reviewers decide; approve_right: anyone holding the module's approve right.
  mode text not null check (mode in ('workflow', 'approve_right')),
  workflow_id uuid,
  workflow_title text,
  workflow_type text check (workflow_type in ('sequential', 'parallel')),
  lead_time_hours integer check (lead_time_hours between 1 and 8760),
  escalation_user_id uuid,
  outcome text not null default 'pending' check (outcome in ('pending', 'approved', 'rejected')),
  submitted_by uuid,
  owner_id uuid,
  site_id uuid,
  -- What mails and notifications name and link to, as the module described the record.
  record_label text not null,
  record_path text not null,
  submitted_at timestamptz not null,
  decided_at timestamptz,
  primary key (organization_id, id),
  unique (organization_id, module, record_id, round),
  check (mode <> 'workflow' or (workflow_id is not null and lead_time_hours is not null)),
  check ((outcome = 'pending') = (decided_at is null)),
  foreign key (organization_id, escalation_user_id) references users (organization_id, id) on delete set null (escalation_user_id),
  foreign key (organization_id, submitted_by) references users (organization_id, id) on delete set null (submitted_by),
  foreign key (organization_id, owner_id) references users (organization_id, id) on delete set null (owner_id)
);
-- A record has at most one round waiting for decisions.
create unique index review_rounds_pending on review_rounds (organization_id, module, record_id) where outcome = 'pending';
select app_wall('review_rounds');

-- The reviewers of a round, in the workflow's order.
create table review_reviewers (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  round_id uuid not null,
  position smallint not null check (position between 1 and 5),
  -- A user row goes only once they are replaced (as for workflow_reviewers); users are soft-deleted.
  user_id uuid not null,
  state text not null check (state in ('waiting', 'current', 'approved', 'rejected', 'skipped')),
  -- Set when the reviewer is asked: asked + lead time. The escalation falls due one lead time later.
  due_at timestamptz,
  reminded_at timestamptz,
  escalated_at timestamptz,
  escalated_to uuid,
  decided_at timestamptz,
  decided_by uuid,
  comment text check (length(comment) <= 2000),
  primary key (organization_id, round_id, position),
  unique (organization_id, round_id, user_id),
  check (state <> 'current' or due_at is not null),
  check ((state in ('approved', 'rejected')) = (decided_at is not null)),
  foreign key (organization_id, round_id) references review_rounds (organization_id, id) on delete cascade,
  foreign key (organization_id, user_id) references users (organization_id, id),
  foreign key (organization_id, escalated_to) references users (organization_id, id) on delete set null (escalated_to),
  foreign key (organization_id, decided_by) references users (organization_id, id) on delete set null (decided_by)
);
create index review_reviewers_user on review_reviewers (organization_id, user_id) where state in ('waiting', 'current');
-- The sweep looks for asked reviewers whose time has run out, across organisations.
create index review_reviewers_due on review_reviewers (due_at) where state = 'current';
select app_wall('review_reviewers');

-- The timeline: every step of every round (who, what, when, comment).
create table review_events (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  -- The order of the steps: several share one instant (a last approval and the round's closing).
  seq bigint generated always as identity,
  round_id uuid not null,
  at timestamptz not null,
  kind text not null check (kind in ('submitted', 'approved', 'rejected', 'skipped', 'reminded', 'escalated', 'reviewer_replaced', 'closed')),
  actor_id uuid,
  reviewer_id uuid,
  to_id uuid,
  comment text check (length(comment) <= 2000),
  outcome text check (outcome in ('approved', 'rejected')),
  primary key (organization_id, id),
  foreign key (organization_id, round_id) references review_rounds (organization_id, id) on delete cascade,
  foreign key (organization_id, actor_id) references users (organization_id, id) on delete set null (actor_id),
  foreign key (organization_id, reviewer_id) references users (organization_id, id) on delete set null (reviewer_id),
  foreign key (organization_id, to_id) references users (organization_id, id) on delete set null (to_id)
);
create index review_events_round on review_events (organization_id, round_id, seq);
select app_wall('review_events');

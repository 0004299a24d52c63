-- Guided tours a user has seen (spec 001 §2: request a permit, workflow settings, permit template,
-- observation, incident). One row per user and tour: the first time counts, seeing it again is a no-op.
create table tour_completions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  user_id uuid not null,
  tour_key text not null check (tour_key in ('request_permit', 'workflow_settings', 'permit_template', 'observation', 'incident')),
  completed_at timestamptz not null default now(),
  primary key (organization_id, user_id, tour_key),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
select app_wall('tour_completions');

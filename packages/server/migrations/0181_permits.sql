-- Permits to work (spec 001 §3 Permit, §4, §5; issue 16): the requests with their workers, files, draft
-- shares and extensions. The review rounds live in the review workflow engine (module 'permits').

-- The last serial handed out per organisation (numbers run across templates: HW-0007, CS-0008).
create table permit_serials (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  last_serial integer not null check (last_serial > 0),
  primary key (organization_id)
);
select app_wall('permit_serials');

create table permits (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  serial integer not null check (serial > 0),
  -- The template's prefix when the permit was made: renaming the prefix later renumbers nothing.
  prefix text not null,
  template_id uuid not null,
  status text not null default 'draft' check (status in ('draft', 'requested', 'approved', 'rejected', 'revoked',
    'extended', 'overdue', 'pending_closure', 'closed')),
  requester_id uuid,
  site_id uuid,
  site_node_id uuid,
  -- The time of work: the instants, and the wall-clock times at the site (what people read and filter by).
  start_at timestamptz,
  start_local timestamp,
  end_at timestamptz,
  end_local timestamp,
  description text check (description is null or length(description) <= 4000),
  -- The form as it was submitted (sections and questions; a draft follows its template), and its answers.
  form jsonb not null default '[]',
  answers jsonb not null default '{}',
  closure_answers jsonb,
  closure_comment text check (closure_comment is null or length(closure_comment) <= 2000),
  -- The public status page's token (the printed QR code): unguessable, one per permit.
  status_token text not null,
  submitted_at timestamptz,
  submitted_by uuid,
  approved_at timestamptz,
  revoked_at timestamptz,
  revoked_by uuid,
  revoke_comment text check (revoke_comment is null or length(revoke_comment) <= 2000),
  closed_at timestamptz,
  closed_by uuid,
  -- The end time the hourly job last told people about, per step: once per end time.
  pending_notified_for timestamptz,
  overdue_notified_for timestamptz,
  cloned_from uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, serial),
  unique (organization_id, status_token),
  check ((start_at is null) = (start_local is null) and (end_at is null) = (end_local is null)),
  check (end_at is null or start_at is null or end_at > start_at),
  check (status = 'draft' or (site_id is not null and start_at is not null and end_at is not null and submitted_at is not null)),
  check ((status = 'revoked') = (revoked_at is not null)),
  check ((status = 'closed') = (closed_at is not null)),
  foreign key (organization_id, template_id) references permit_templates (organization_id, id),
  foreign key (organization_id, site_id) references sites (organization_id, id),
  foreign key (organization_id, site_id, site_node_id) references site_nodes (organization_id, site_id, id),
  foreign key (organization_id, requester_id) references users (organization_id, id) on delete set null (requester_id),
  foreign key (organization_id, submitted_by) references users (organization_id, id) on delete set null (submitted_by),
  foreign key (organization_id, revoked_by) references users (organization_id, id) on delete set null (revoked_by),
  foreign key (organization_id, closed_by) references users (organization_id, id) on delete set null (closed_by),
  foreign key (organization_id, cloned_from) references permits (organization_id, id) on delete set null (cloned_from)
);
-- The list in its default order, its tabs, and the board's and clash check's site and time look-ups.
create index permits_start on permits (organization_id, start_local desc nulls last, serial desc);
create index permits_status on permits (organization_id, status, start_local desc nulls last);
create index permits_site_time on permits (organization_id, site_id, start_at, end_at) where status <> 'draft';
create index permits_requester on permits (organization_id, requester_id);
-- The hourly job reads the issued permits by their end.
create index permits_live_end on permits (end_at) where status in ('approved', 'extended', 'pending_closure');
select app_wall('permits');

create table permit_workers (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  permit_id uuid not null,
  worker_id uuid not null,
  position smallint not null check (position > 0),
  created_at timestamptz not null default now(),
  primary key (organization_id, permit_id, worker_id),
  foreign key (organization_id, permit_id) references permits (organization_id, id) on delete cascade,
  foreign key (organization_id, worker_id) references work_profiles (organization_id, id)
);
create index permit_workers_worker on permit_workers (organization_id, worker_id, created_at desc);
select app_wall('permit_workers');

-- The permit's files: its own attachments (question_id null) and the answers of attachment questions.
create table permit_files (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  permit_id uuid not null,
  file_id uuid not null,
  question_id uuid,
  primary key (organization_id, permit_id, file_id),
  foreign key (organization_id, permit_id) references permits (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete cascade
);
create index permit_files_file on permit_files (organization_id, file_id);
select app_wall('permit_files');

-- Draft sharing (spec 001 §3 shared_by, shared_to): the receiver may open and edit the draft too.
create table permit_shares (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  permit_id uuid not null,
  user_id uuid not null,
  shared_by uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, permit_id, user_id),
  foreign key (organization_id, permit_id) references permits (organization_id, id) on delete cascade,
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade,
  foreign key (organization_id, shared_by) references users (organization_id, id) on delete set null (shared_by)
);
create index permit_shares_user on permit_shares (organization_id, user_id);
select app_wall('permit_shares');

-- Extension requests: the declaration, the hours they add, and how they were decided.
create table permit_extensions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  permit_id uuid not null,
  state text not null default 'pending' check (state in ('pending', 'approved', 'rejected', 'withdrawn')),
  declaration text not null check (length(btrim(declaration)) between 1 and 2000),
  hours integer not null check (hours between 1 and 24),
  requested_by uuid,
  requested_at timestamptz not null default now(),
  end_before timestamptz not null,
  end_after timestamptz,
  decided_at timestamptz,
  primary key (organization_id, id),
  check ((state = 'approved') = (end_after is not null)),
  foreign key (organization_id, permit_id) references permits (organization_id, id) on delete cascade,
  foreign key (organization_id, requested_by) references users (organization_id, id) on delete set null (requested_by)
);
-- One pending extension per permit at a time.
create unique index permit_extensions_pending on permit_extensions (organization_id, permit_id) where state = 'pending';
select app_wall('permit_extensions');

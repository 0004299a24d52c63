-- Audits (issue 17; spec 001 §3 Audit, Answer, Key finding; §4 statuses): one per schedule, site and due
-- date, run by its auditor, scored, reviewed. Key findings become actions of source 'audit' (actions
-- module); reviews live in the review workflow engine.

create table audit_serials (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  last_serial integer not null check (last_serial > 0),
  primary key (organization_id)
);
select app_wall('audit_serials');

create table audits (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  serial integer not null check (serial > 0),
  template_id uuid not null,
  schedule_id uuid,
  site_id uuid not null,
  site_node_id uuid,
  auditor_id uuid not null,
  auditee_id uuid,
  frequency text not null check (frequency in ('once', 'daily', 'weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly')),
  -- The window, the site's days: overdue once it has passed there before completion.
  due_date date not null,
  window_end date not null,
  status text not null default 'scheduled'
    check (status in ('scheduled', 'in_progress', 'overdue', 'completed', 'approved', 'rejected')),
  -- The form as it was when started (domain auditFormSchema); null until then.
  form jsonb,
  started_at timestamptz,
  started_by uuid,
  completed_at timestamptz,
  completed_by uuid,
  -- The site's day of the completion (the calendar counts it there).
  completed_on date,
  decided_at timestamptz,
  decided_by uuid,
  decision_comment text check (decision_comment is null or length(decision_comment) <= 2000),
  declaration_accepted boolean not null default false,
  -- Set once, by the sweep, when the window passed before completion.
  overdue_at timestamptz,
  notes text check (notes is null or length(notes) <= 8000),
  score_obtained double precision not null default 0,
  score_assigned double precision not null default 0,
  score_percent double precision check (score_percent between 0 and 100),
  failed_count integer not null default 0 check (failed_count >= 0),
  critical_failed_count integer not null default 0 check (critical_failed_count >= 0),
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, serial),
  -- The job's once-only key: two app nodes making the same audit insert one row.
  unique (organization_id, schedule_id, site_id, due_date),
  check (window_end >= due_date),
  check ((started_at is null) = (form is null)),
  check (status not in ('in_progress', 'completed', 'approved', 'rejected') or started_at is not null),
  check ((status in ('completed', 'approved', 'rejected')) = (completed_at is not null)),
  foreign key (organization_id, template_id) references audit_templates (organization_id, id),
  foreign key (organization_id, schedule_id) references audit_schedules (organization_id, id) on delete set null (schedule_id),
  foreign key (organization_id, site_id) references sites (organization_id, id),
  foreign key (organization_id, site_id, site_node_id) references site_nodes (organization_id, site_id, id),
  foreign key (organization_id, auditor_id) references users (organization_id, id),
  foreign key (organization_id, auditee_id) references users (organization_id, id) on delete set null (auditee_id),
  foreign key (organization_id, started_by) references users (organization_id, id) on delete set null (started_by),
  foreign key (organization_id, completed_by) references users (organization_id, id) on delete set null (completed_by),
  foreign key (organization_id, decided_by) references users (organization_id, id) on delete set null (decided_by),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
-- The list's tabs and filters in its order.
create index audits_status_due on audits (organization_id, status, due_date desc, serial desc);
create index audits_site_due on audits (organization_id, site_id, due_date desc);
create index audits_template on audits (organization_id, template_id, completed_at);
create index audits_auditor on audits (organization_id, auditor_id, status);
-- The sweep reads the audits not completed whose window may have passed.
create index audits_open_window on audits (window_end) where status in ('scheduled', 'in_progress') and overdue_at is null;
-- The free account's monthly count reads the audits started in a month.
create index audits_started on audits (organization_id, started_at) where started_at is not null;
select app_wall('audits');

-- One answer per question (spec 001 §3 Answer): its cells, remark, and what it earned when saved.
create table audit_answers (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  audit_id uuid not null,
  question_id uuid not null,
  -- [{ na, choice, text, number, date, file_ids }], one cell or one per row header.
  cells jsonb not null,
  remark text check (remark is null or length(remark) <= 2000),
  answered boolean not null,
  failed boolean not null default false,
  obtained double precision,
  assigned double precision,
  answered_by uuid,
  answered_at timestamptz not null default now(),
  primary key (organization_id, audit_id, question_id),
  foreign key (organization_id, audit_id) references audits (organization_id, id) on delete cascade,
  foreign key (organization_id, answered_by) references users (organization_id, id) on delete set null (answered_by)
);
-- Trends count failures per question across audits.
create index audit_answers_question on audit_answers (organization_id, question_id) where failed;
select app_wall('audit_answers');

create table audit_key_findings (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  audit_id uuid not null,
  question_id uuid,
  description text not null check (length(btrim(description)) between 1 and 2000),
  -- The action it became (actions module; no foreign key, as the actions' sources have none).
  action_id uuid,
  created_by uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, audit_id) references audits (organization_id, id) on delete cascade,
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
create index audit_key_findings_audit on audit_key_findings (organization_id, audit_id, created_at);
select app_wall('audit_key_findings');

-- Every file an audit links: an answer's photos, signature and attachments, the audit's own
-- attachments, a key finding's pictures, and each report PDF it sent.
create table audit_files (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  audit_id uuid not null,
  file_id uuid not null,
  kind text not null check (kind in ('answer', 'audit', 'finding', 'report')),
  question_id uuid,
  finding_id uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, audit_id, file_id),
  unique (organization_id, file_id),
  check ((kind = 'answer') = (question_id is not null)),
  check ((kind = 'finding') = (finding_id is not null)),
  foreign key (organization_id, audit_id) references audits (organization_id, id) on delete cascade,
  foreign key (organization_id, finding_id) references audit_key_findings (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete cascade
);
select app_wall('audit_files');

-- Each time the report was mailed: to whom, by whom (the PDF is the 'report' file of audit_files).
create table audit_report_sends (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  audit_id uuid not null,
  file_id uuid,
  recipients text[] not null,
  sent_by uuid,
  sent_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, audit_id) references audits (organization_id, id) on delete cascade,
  foreign key (organization_id, file_id) references files (organization_id, id) on delete set null (file_id),
  foreign key (organization_id, sent_by) references users (organization_id, id) on delete set null (sent_by)
);
select app_wall('audit_report_sends');

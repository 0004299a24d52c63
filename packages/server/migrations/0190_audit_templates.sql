-- Audit templates ("audit forms", issue 17; spec 001 §3 Audit: name, description, icon, type, scoring
-- flag, sections (order), questions, response types and the template question extras). Audits copy the
-- active sections and questions when they start (audits.form), so editing a template never rewrites an
-- answer; question and option ids stay the template's, which lets trends count a question across audits.

create table audit_templates (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  name text not null check (length(btrim(name)) between 1 and 150),
  description text check (description is null or length(description) <= 2000),
  icon text not null check (icon in ('clipboard', 'hard_hat', 'fire', 'forklift', 'chemical', 'electric', 'first_aid', 'leaf', 'building', 'truck')),
  type text not null check (type in ('safety', 'health', 'environment', 'fire', 'equipment', 'housekeeping', 'ppe', 'quality', 'other')),
  scoring boolean not null default true,
  -- What the auditor confirms when completing; none when null.
  declaration text check (declaration is null or length(declaration) <= 2000),
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
create index audit_templates_name on audit_templates (organization_id, lower(name));
select app_wall('audit_templates');

create table audit_template_sections (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  template_id uuid not null,
  name text not null check (length(btrim(name)) between 1 and 150),
  position smallint not null check (position >= 1),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, template_id) references audit_templates (organization_id, id) on delete cascade
);
create index audit_template_sections_template on audit_template_sections (organization_id, template_id, position);
select app_wall('audit_template_sections');

create table audit_template_questions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  template_id uuid not null,
  section_id uuid not null,
  position smallint not null check (position >= 1),
  type text not null check (type in ('yes_no', 'choice', 'text', 'number', 'date', 'photo', 'signature')),
  label text not null check (length(btrim(label)) between 1 and 500),
  description text check (description is null or length(description) <= 2000),
  required boolean not null default true,
  critical boolean not null default false,
  score double precision not null default 0 check (score between 0 and 100),
  expected text check (expected in ('yes', 'no')),
  allow_na boolean not null default false,
  multiple boolean not null default false,
  -- [{ key, label, score, failure }] of a choice question, in order.
  options jsonb not null default '[]',
  add_options boolean not null default false,
  min_value double precision,
  max_value double precision,
  attachments boolean not null default false,
  row_headers text[] not null default '{}',
  -- A child question shows when its parent (earlier in the form) chose this option.
  parent_question_id uuid,
  parent_option_key text,
  -- { when, option_keys, user_ids, roles }: who is told on which answer; null when nobody.
  notify jsonb,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  check ((parent_question_id is null) = (parent_option_key is null)),
  check ((type = 'yes_no') = (expected is not null)),
  foreign key (organization_id, section_id) references audit_template_sections (organization_id, id) on delete cascade,
  foreign key (organization_id, template_id) references audit_templates (organization_id, id) on delete cascade,
  -- A parent cannot go while a child names it (the service says so first, in words).
  foreign key (organization_id, parent_question_id) references audit_template_questions (organization_id, id)
);
create index audit_template_questions_section on audit_template_questions (organization_id, section_id, position);
create index audit_template_questions_template on audit_template_questions (organization_id, template_id);
create index audit_template_questions_parent on audit_template_questions (organization_id, parent_question_id) where parent_question_id is not null;
select app_wall('audit_template_questions');

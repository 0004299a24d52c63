-- Permits to work, settings (spec 001 §3 Permit template, Section, Question, Worker profile; spec 000 §2
-- the four admin-only masters; issue 16): templates with their ordered sections of ordered questions,
-- the template types that conflict, the masters the list questions pick from, and worker profiles.

create table permit_templates (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  name text not null check (length(btrim(name)) between 1 and 100),
  description text not null check (length(btrim(description)) between 1 and 1000),
  -- Permit numbers read '<prefix>-<serial>'; a prefix is one template's.
  prefix text not null check (prefix ~ '^[A-Z][A-Z0-9]{0,9}$'),
  default_hours integer not null default 8 check (default_hours between 1 and 168),
  extension_hours integer not null default 4 check (extension_hours between 1 and 24),
  extension_declaration text not null check (length(btrim(extension_declaration)) between 1 and 2000),
  -- The enable switch: a switched-off template takes no new requests.
  enabled boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, prefix),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
select app_wall('permit_templates');

create table permit_template_sections (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  template_id uuid not null,
  name text not null check (length(btrim(name)) between 1 and 100),
  -- location, duration and closure are fixed (the permit's fields and its closing need them).
  kind text not null check (kind in ('location', 'duration', 'night_work', 'closure', 'custom')),
  position smallint not null check (position > 0),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, template_id, id),
  foreign key (organization_id, template_id) references permit_templates (organization_id, id) on delete cascade
);
create index permit_template_sections_template on permit_template_sections (organization_id, template_id, position);
select app_wall('permit_template_sections');

create table permit_template_questions (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  template_id uuid not null,
  section_id uuid not null,
  position smallint not null check (position > 0),
  type text not null check (type in ('text_field', 'text_area', 'attachment', 'radio_button', 'date_only', 'time',
    'hidden_field', 'site', 'division', 'department', 'unit', 'hierarchy_of_controls', 'activity_master',
    'equipment_master', 'rescue_master')),
  label text not null check (length(btrim(label)) between 1 and 500),
  required boolean not null default false,
  max_length integer check (max_length between 1 and 4000),
  options text[] not null default '{}',
  -- Attachment questions: the kinds of file, how many, how large.
  file_kinds text[] not null default '{}',
  max_files smallint check (max_files between 1 and 20),
  max_file_kb integer check (max_file_kb between 1 and 10240),
  hidden_value text check (hidden_value is null or length(hidden_value) <= 255),
  help_text text check (help_text is null or length(help_text) <= 1000),
  reference_image_id uuid,
  -- Shown only when this radio question of the template has this answer.
  condition_question_id uuid,
  condition_answer text,
  -- Fixed questions feed the permit's site, area, start and end.
  binding text check (binding in ('site', 'division', 'department', 'unit', 'start_date', 'start_time', 'end_date', 'end_time')),
  created_at timestamptz not null default now(),
  primary key (organization_id, id),
  check ((condition_question_id is null) = (condition_answer is null)),
  foreign key (organization_id, template_id, section_id) references permit_template_sections (organization_id, template_id, id) on delete cascade,
  foreign key (organization_id, reference_image_id) references files (organization_id, id) on delete set null (reference_image_id),
  foreign key (organization_id, condition_question_id) references permit_template_questions (organization_id, id) on delete cascade
);
create index permit_template_questions_section on permit_template_questions (organization_id, section_id, position);
create index permit_template_questions_condition on permit_template_questions (organization_id, condition_question_id);
select app_wall('permit_template_questions');

-- Template types whose work must not share an area and time (e.g. hot work with confined space), kept
-- once per pair with template_a <= template_b; a template may conflict with itself.
create table permit_template_conflicts (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  template_a uuid not null,
  template_b uuid not null,
  primary key (organization_id, template_a, template_b),
  check (template_a <= template_b),
  foreign key (organization_id, template_a) references permit_templates (organization_id, id) on delete cascade,
  foreign key (organization_id, template_b) references permit_templates (organization_id, id) on delete cascade
);
create index permit_template_conflicts_b on permit_template_conflicts (organization_id, template_b);
select app_wall('permit_template_conflicts');

-- The four masters (admin only): hierarchy of controls, activities, equipment, rescue plans.
create table permit_masters (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  kind text not null check (kind in ('hierarchy_of_controls', 'activity', 'equipment', 'rescue')),
  name text not null check (length(btrim(name)) between 1 and 200),
  description text check (description is null or length(description) <= 1000),
  control_level text check (control_level in ('elimination', 'substitution', 'engineering', 'administrative', 'ppe')),
  active boolean not null default true,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  check ((kind = 'hierarchy_of_controls') = (control_level is not null))
);
create unique index permit_masters_name on permit_masters (organization_id, kind, lower(name));
select app_wall('permit_masters');

-- Worker profiles: often contractors without an account, so records of their own.
create table work_profiles (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  name text not null check (length(btrim(name)) between 1 and 100),
  photo_file_id uuid,
  age smallint check (age between 16 and 90),
  phone text check (phone is null or length(phone) <= 30),
  id_number text check (id_number is null or length(id_number) <= 50),
  gender text check (gender in ('male', 'female')),
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  foreign key (organization_id, photo_file_id) references files (organization_id, id) on delete set null (photo_file_id),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
create index work_profiles_name on work_profiles (organization_id, lower(name));
select app_wall('work_profiles');

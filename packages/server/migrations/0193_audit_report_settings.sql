-- The organisation's audit report settings (issue 17): the logo, the parts included, a header line.
create table audit_report_settings (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  logo_file_id uuid,
  -- { scorecard: true, timeline: false, … }: a part left out or missing is included.
  include jsonb not null default '{}',
  header_text text check (header_text is null or length(header_text) <= 300),
  updated_by uuid,
  updated_at timestamptz not null default now(),
  primary key (organization_id),
  foreign key (organization_id, logo_file_id) references files (organization_id, id) on delete set null (logo_file_id),
  foreign key (organization_id, updated_by) references users (organization_id, id) on delete set null (updated_by)
);
select app_wall('audit_report_settings');

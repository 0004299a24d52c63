-- Audit schedules (issue 17): a template at one or more sites (an area only with one site), an auditor
-- and an auditee, a frequency, a start and an optional end. The hourly job makes each due audit once:
-- audits are unique per schedule, site and due date, and are inserted with "on conflict do nothing".

create table audit_schedules (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  template_id uuid not null,
  site_node_id uuid,
  auditor_id uuid not null,
  auditee_id uuid,
  frequency text not null check (frequency in ('once', 'daily', 'weekly', 'monthly', 'quarterly', 'half_yearly', 'yearly')),
  start_date date not null,
  end_date date,
  active boolean not null default true,
  created_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  check (end_date is null or end_date >= start_date),
  foreign key (organization_id, template_id) references audit_templates (organization_id, id),
  foreign key (organization_id, site_node_id) references site_nodes (organization_id, id),
  foreign key (organization_id, auditor_id) references users (organization_id, id),
  foreign key (organization_id, auditee_id) references users (organization_id, id) on delete set null (auditee_id),
  foreign key (organization_id, created_by) references users (organization_id, id) on delete set null (created_by)
);
-- The job reads the active schedules that have started.
create index audit_schedules_active on audit_schedules (start_date) where active;
create index audit_schedules_template on audit_schedules (organization_id, template_id);
select app_wall('audit_schedules');

create table audit_schedule_sites (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  schedule_id uuid not null,
  site_id uuid not null,
  primary key (organization_id, schedule_id, site_id),
  foreign key (organization_id, schedule_id) references audit_schedules (organization_id, id) on delete cascade,
  foreign key (organization_id, site_id) references sites (organization_id, id)
);
create index audit_schedule_sites_site on audit_schedule_sites (organization_id, site_id);
select app_wall('audit_schedule_sites');

-- Mail content management (spec 001 §2, §3 Mail template): an organisation's own texts of a scenario
-- in one language. Without a row the default of packages/domain applies ("reset to default" deletes it).
create table mail_templates (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  id uuid not null default uuid_generate_v7(),
  scenario_id text not null check (scenario_id ~ '^[a-z_]{1,60}$'),
  language text not null check (language in ('en', 'es', 'tr', 'zh')),
  subject text not null check (length(subject) between 1 and 200),
  in_app text not null check (length(in_app) between 1 and 300),
  body text not null check (length(body) between 1 and 10000),
  footer text not null default '' check (length(footer) <= 2000),
  updated_by uuid,
  created_at timestamptz not null default now(),
  updated_at timestamptz not null default now(),
  primary key (organization_id, id),
  unique (organization_id, scenario_id, language),
  foreign key (organization_id, updated_by) references users (organization_id, id) on delete set null (updated_by)
);
select app_wall('mail_templates');

-- The outbox screen reads an organisation's mail newest first.
create index if not exists mail_outbox_org_created on mail_outbox (organization_id, created_at desc, id desc);

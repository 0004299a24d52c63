-- Users administration (spec 001 §3 User, §4 User states, §6 licences).
-- The user's own fields live on the platform `users` table (one row per person, no join to forget);
-- this module's drizzle view of them is src/modules/users/tables.ts.

alter table users
  add column employee_id text check (employee_id is null or length(employee_id) between 1 and 50),
  add column phone text check (phone is null or length(phone) <= 30),
  add column gender text check (gender in ('male', 'female', 'others')),
  add column shift text check (shift in ('first', 'second', 'third', 'general')),
  add column photo_file_id uuid,
  add column si_trained boolean not null default false,
  -- Verified = the person has proven the e-mail address by setting a password through an e-mailed link.
  add column verified_at timestamptz,
  add column invited_at timestamptz,
  add column invited_by uuid,
  add foreign key (organization_id, photo_file_id) references files (organization_id, id) on delete set null (photo_file_id);

create unique index users_employee_id_unique on users (organization_id, lower(employee_id)) where employee_id is not null;
create index users_org_status on users (organization_id, status);

-- A user receives a password either when created with one (organisation creator, CLI) or by opening
-- the activation link, which is a password_reset_tokens row valid for 7 days. Either way the address
-- is proven at that moment, whichever code path set the password.
create or replace function app_user_verified_on_password() returns trigger language plpgsql as $$
begin
  if new.password_hash is not null and new.verified_at is null then
    new.verified_at := now();
  end if;
  return new;
end $$;
create trigger users_verified_on_password before insert or update of password_hash on users
  for each row execute function app_user_verified_on_password();
update users set verified_at = created_at where password_hash is not null and verified_at is null;

-- Licences per user per module; the plan's user_limit is the number of seats of each module.
create table user_licences (
  organization_id uuid not null default app_current_org() references organizations (id) on delete cascade,
  user_id uuid not null,
  module text not null check (module in ('observations', 'incidents', 'permits', 'audits', 'hira', 'library', 'actions')),
  assigned_by uuid,
  created_at timestamptz not null default now(),
  primary key (organization_id, user_id, module),
  foreign key (organization_id, user_id) references users (organization_id, id) on delete cascade
);
create index user_licences_module on user_licences (organization_id, module);
select app_wall('user_licences');

-- Issue 13: every app node caches the principal of each session (platform/auth/principal-cache.ts) and
-- the organisation of each address. Any change to what a principal is read from is notified on the
-- channel bulwark_principals, whoever makes it (a route, a job, the CLI, psql): PostgreSQL delivers
-- the notification at commit, once per distinct payload per transaction, to every listening node.
-- Payloads: o:<organization id>, u:<user id>, s:<session id>, b:<organization id>:<used>:<pending>.

-- A user's own row (any column but the password and the timestamp) drops that user's sessions.
create or replace function principals_notify_user() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE'
    or to_jsonb(old) - array['password_hash', 'updated_at'] is distinct from to_jsonb(new) - array['password_hash', 'updated_at'] then
    perform pg_notify('bulwark_principals', 'u:' || old.id::text);
  end if;
  return null;
end $$;
create trigger users_principals after update or delete on users
  for each row execute function principals_notify_user();

-- A licence given or taken.
create or replace function principals_notify_licence() returns trigger language plpgsql as $$
begin
  if tg_op in ('UPDATE', 'DELETE') then perform pg_notify('bulwark_principals', 'u:' || old.user_id::text); end if;
  if tg_op in ('INSERT', 'UPDATE') then perform pg_notify('bulwark_principals', 'u:' || new.user_id::text); end if;
  return null;
end $$;
create trigger user_licences_principals after insert or update or delete on user_licences
  for each row execute function principals_notify_licence();

-- A role renamed, given or denied admin powers, or removed; its rights changed: the whole organisation.
-- (A new role holds nobody yet; users given it change their own row.)
create or replace function principals_notify_role() returns trigger language plpgsql as $$
begin
  if tg_op = 'INSERT' then
    perform pg_notify('bulwark_principals', 'o:' || new.organization_id::text);
  else
    perform pg_notify('bulwark_principals', 'o:' || old.organization_id::text);
  end if;
  return null;
end $$;
create trigger roles_principals after update or delete on roles
  for each row execute function principals_notify_role();
create trigger role_actions_principals after insert or update or delete on role_actions
  for each row execute function principals_notify_role();

-- A session revoked or removed (sign-out, sign-out everywhere, a replayed refresh token, a password
-- change); its use (last_used_at, address, browser) changes nothing a principal holds.
create or replace function principals_notify_session() returns trigger language plpgsql as $$
begin
  if tg_op = 'DELETE'
    or old.revoked_at is distinct from new.revoked_at
    or old.created_at is distinct from new.created_at
    or old.user_id is distinct from new.user_id then
    perform pg_notify('bulwark_principals', 's:' || old.id::text);
  end if;
  return null;
end $$;
create trigger sessions_principals after update or delete on sessions
  for each row execute function principals_notify_session();

-- The organisation: every principal of it and its address. The stored figures move on every upload:
-- only when the quota is crossed (storage full or freed) does that drop anything; otherwise the new
-- figures are sent for the nodes to patch their cached rows.
create or replace function principals_notify_organization() returns trigger language plpgsql as $$
declare
  moving constant text[] := array['storage_used_bytes', 'storage_pending_bytes', 'updated_at'];
begin
  if tg_op = 'DELETE'
    or to_jsonb(old) - moving is distinct from to_jsonb(new) - moving
    or (old.storage_used_bytes >= old.storage_quota_bytes) is distinct from (new.storage_used_bytes >= new.storage_quota_bytes) then
    perform pg_notify('bulwark_principals', 'o:' || old.id::text);
  elsif old.storage_used_bytes is distinct from new.storage_used_bytes
    or old.storage_pending_bytes is distinct from new.storage_pending_bytes then
    perform pg_notify('bulwark_principals', 'b:' || new.id::text || ':' || new.storage_used_bytes::text || ':' || new.storage_pending_bytes::text);
  end if;
  return null;
end $$;
create trigger organizations_principals after update or delete on organizations
  for each row execute function principals_notify_organization();

-- Issue 15 item 8: closing (verifying) an action needs someone other than the person who completed it,
-- unless the organisation turns the rule off. On by default, for new and existing organisations.
alter table organizations add column action_close_by_other boolean not null default true;

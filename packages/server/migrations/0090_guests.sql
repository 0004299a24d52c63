-- Guest accounts (spec 001 §1, §6: "guest users are unlimited"; spec 000 §2 /guest_user_creation):
-- a visitor or contractor creates one on the organisation's address when its admin allows it.
alter table organizations add column guest_signup_enabled boolean not null default false;
alter table users add column is_guest boolean not null default false;

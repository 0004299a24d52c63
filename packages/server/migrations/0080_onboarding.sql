-- Which steps of the onboarding wizard the admin has confirmed (those that leave no other record).
alter table organizations add column onboarding_state jsonb not null default '{}'::jsonb;

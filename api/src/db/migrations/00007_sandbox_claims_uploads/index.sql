-- A recreate of a project's sandbox claims the project first, so concurrent recreates (double clicks, two
-- tabs, two API instances) collapse into one: the claim is a conditional update, taken only when no live
-- claim exists, and it expires on its own if the instance holding it dies.
alter table projects add column sandbox_claim text;
alter table projects add column sandbox_claimed_until timestamptz;

-- Chat image uploads: their bytes count toward the project's size limit, and an upload never attached to a
-- sent message is deleted after a day (any instance's sweep; the row delete is the claim).
create table uploads (
  project_id  uuid not null references projects (id) on delete cascade,
  name        text not null,
  size        bigint not null check (size >= 0),
  created_at  timestamptz not null default now(),
  attached_at timestamptz,
  primary key (project_id, name)
);
create index uploads_unattached_idx on uploads (created_at) where attached_at is null;

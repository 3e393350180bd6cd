-- A project's secrets (services/secrets): each value sealed with AES-256-GCM under SECRETS_KEY (lib/secret-box.ts),
-- bound to its project and name, so the database alone never holds a readable value. They go into the
-- environment of every process in the project's sandbox; the API lists names and times only.
create table project_secrets (
  project_id   uuid not null references projects (id) on delete cascade,
  name         text not null,
  value_sealed text not null,
  updated_at   timestamptz not null default now(),
  primary key (project_id, name)
);

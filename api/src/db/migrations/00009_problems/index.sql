-- Problems the running app showed: errors its preview page reported (browser), and error lines of its dev
-- server (server) or compiler (build). One row per distinct problem of a project (dedupe_key), counted.
-- A file change marks a project's rows stale; a stale row not reported again within the settle window is
-- deleted, so a fixed problem goes away and one that comes back is revived.
create table problems (
  id          uuid primary key,
  project_id  uuid not null references projects (id) on delete cascade,
  dedupe_key  text not null,
  source      text not null check (source in ('browser', 'server', 'build')),
  message     text not null,
  detail      text,
  file        text,
  line        integer,
  first_seen  timestamptz not null default now(),
  last_seen   timestamptz not null default now(),
  count       integer not null default 1,
  stale_since timestamptz,
  unique (project_id, dedupe_key)
);
create index problems_project_last_seen_idx on problems (project_id, last_seen desc);

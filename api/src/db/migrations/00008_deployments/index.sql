-- Publish: deployments (immutable built sites) and each project's site (its slug and live deployment).

-- A deployment's files are a manifest like a version's ({ path: [sha256, size, mode] }), its contents the
-- same content-addressed blobs (`blobs/sha256/<hash>`), so the blob sweep counts them as references too.
-- `state` is what the build reached; whether a ready deployment is live or superseded is read from
-- `sites.live_deployment_id`, so a rollback or an unpublish is one pointer update.
create table deployments (
  id          uuid primary key,
  seq         bigint generated always as identity,
  project_id  uuid not null references projects (id) on delete cascade,
  version_id  uuid references versions (id) on delete set null,
  state       text not null check (state in ('building', 'ready', 'failed')),
  files       jsonb not null default '{}'::jsonb,
  bytes       bigint not null default 0,
  build_log   text not null default '',
  created_at  timestamptz not null default now(),
  finished_at timestamptz
);
create index deployments_project_seq_idx on deployments (project_id, seq desc);
-- At most one build per project at a time, across every instance.
create unique index deployments_one_build_idx on deployments (project_id) where state = 'building';

create table sites (
  project_id         uuid primary key references projects (id) on delete cascade,
  slug               text not null unique,
  live_deployment_id uuid references deployments (id) on delete set null,
  updated_at         timestamptz not null default now()
);

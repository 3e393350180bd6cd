-- Each project's own development database (issue 21): where it lives and under which role. The password is not
-- stored: it is derived from the installation's app_database_key (app_secrets) and the role, so every instance
-- computes the same one. `read_only` is set while the database is over APP_DATABASE_MAX_MB. The row stays
-- until the database itself is dropped, so a project delete that failed half-way can be finished later.
create table app_databases (
  project_id  uuid primary key,
  kind        text not null check (kind in ('postgres', 'embedded')),
  name        text not null,
  role        text not null,
  read_only   boolean not null default false,
  size_bytes  bigint,
  created_at  timestamptz not null default now()
);

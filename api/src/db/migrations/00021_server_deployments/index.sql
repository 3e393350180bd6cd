-- Publishing apps that have a server (issue 22, items 1-4).

-- A project has a development database and, from its first server publish, a production one: the row's key
-- becomes (project, environment). Development rows keep their meaning; production's names differ (PostgreSQL:
-- `prod_<hex>`; embedded: its own PGlite folder), and so does its role's password.
alter table app_databases add column environment text not null default 'development'
  check (environment in ('development', 'production'));
alter table app_databases drop constraint app_databases_pkey;
alter table app_databases add primary key (project_id, environment);

-- A deployment is static files served from the object store, or a server run in a sandbox of its own. A server
-- deployment's `files` are the source it was built from (never served as they are), so a wake or a rollback
-- can build it again; `migrations` lists the db/migrations files production had applied when it went live.
alter table deployments add column kind text not null default 'static' check (kind in ('static', 'server'));
alter table deployments add column migrations jsonb not null default '[]'::jsonb;

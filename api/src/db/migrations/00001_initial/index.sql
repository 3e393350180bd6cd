-- Users are keyed by the identity provider's uid; projects always have an owner.
create table users (
  id           text primary key,
  email        text,
  display_name text,
  photo_url    text,
  created_at   timestamptz not null default now(),
  updated_at   timestamptz not null default now()
);

create table projects (
  id               uuid primary key,
  owner_id         text not null references users (id) on delete cascade,
  name             text not null,
  description      text,
  sandbox_id       text,
  sandbox_url      text,
  workflow_command text,
  created_at       timestamptz not null default now(),
  updated_at       timestamptz not null default now()
);
create index projects_owner_updated_idx on projects (owner_id, updated_at desc);
create unique index projects_sandbox_id_idx on projects (sandbox_id) where sandbox_id is not null;

create table messages (
  id          uuid primary key,
  project_id  uuid not null references projects (id) on delete cascade,
  role        text not null check (role in ('user', 'assistant')),
  content     text not null,
  thinking    text,
  attachments jsonb not null default '[]',
  tool_calls  jsonb not null default '[]',
  actions     jsonb not null default '[]',
  status      text not null default 'complete' check (status in ('running', 'complete', 'stopped', 'failed')),
  created_at  timestamptz not null default now()
);
create index messages_project_created_idx on messages (project_id, created_at, id);

create table files (
  id          uuid primary key,
  project_id  uuid not null references projects (id) on delete cascade,
  path        text not null,
  size        integer not null check (size >= 0),
  storage_key text not null,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  unique (project_id, path)
);

-- Server-wide secrets shared by every instance (e.g. the key that signs image URLs).
create table app_secrets (
  name       text primary key,
  value      text not null,
  created_at timestamptz not null default now()
);

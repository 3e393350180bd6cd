-- Working together (issue 26): the people in a project besides its owner, the preview share links, and what
-- happened in the project.

-- A member is addressed by e-mail (lower-cased): invited with `user_id` null, active once a user with that
-- verified address signs in. The owner is never a row here (projects.owner_id says who it is).
create table project_members (
  project_id  uuid not null references projects (id) on delete cascade,
  email       text not null check (email = lower(email)),
  user_id     text references users (id) on delete cascade,
  role        text not null check (role in ('viewer', 'editor')),
  invited_by  text references users (id) on delete set null,
  created_at  timestamptz not null default now(),
  updated_at  timestamptz not null default now(),
  primary key (project_id, email)
);
create unique index project_members_user_idx on project_members (project_id, user_id) where user_id is not null;
create index project_members_user_lookup_idx on project_members (user_id) where user_id is not null;
create index project_members_pending_idx on project_members (email) where user_id is null;

-- A link that opens the project's live preview without signing in. Only the token's SHA-256 is kept; a revoked
-- link's row is deleted, so the lookup (made on every request) finds nothing from the next request on.
create table share_links (
  id          uuid primary key,
  project_id  uuid not null references projects (id) on delete cascade,
  token_hash  text not null unique,
  created_by  text references users (id) on delete set null,
  created_at  timestamptz not null default now(),
  expires_at  timestamptz
);
create index share_links_project_idx on share_links (project_id, created_at desc);

-- Who did what in a project, for its Activity panel: `detail` holds names only (never a secret's value).
create table project_activity (
  id          uuid primary key,
  project_id  uuid not null references projects (id) on delete cascade,
  actor_id    text references users (id) on delete set null,
  kind        text not null,
  detail      jsonb not null default '{}',
  created_at  timestamptz not null default now()
);
create index project_activity_project_idx on project_activity (project_id, created_at desc, id);

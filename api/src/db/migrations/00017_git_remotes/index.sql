-- A project's git remote (services/git): the URL (never with credentials), branch, the username and the token
-- sealed under SECRETS_KEY (lib/secret-box.ts, bound to the project), and the sync state every instance
-- shares: the remote commit the project last matched and its files (path → [sha256, git blob oid]), which is
-- the merge base of the next pull and spares a push re-hashing unchanged files. The git objects themselves are
-- only a per-instance cache (DATA_DIR/git-cache), rebuilt from the remote. `busy_until` is a git operation's
-- claim on the project, so a second push or pull on any instance answers 409 instead of waiting.
create table git_remotes (
  project_id          uuid primary key references projects (id) on delete cascade,
  url                 text not null,
  branch              text not null,
  username            text,
  token_sealed        text,
  auto_push           boolean not null default false,
  synced_commit       text,
  synced_files        jsonb not null default '{}'::jsonb,
  last_pushed_commit  text,
  last_pushed_at      timestamptz,
  last_pulled_commit  text,
  busy_until          timestamptz,
  created_at          timestamptz not null default now(),
  updated_at          timestamptz not null default now()
);

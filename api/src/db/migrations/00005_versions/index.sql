-- Versions: a project's files as an immutable manifest, with contents stored once by SHA-256.

-- One row per content object at `blobs/sha256/<sha256>`, shared by every version and project. A writer
-- upserts the row (refreshing last_used_at) before it relies on the object, and puts the object whenever
-- `stored` is false; the retention sweep deletes only rows unreferenced and unused for a grace period, and
-- holds their row locks while it deletes the objects, so a writer of the same bytes waits and then re-puts.
create table blobs (
  sha256       text primary key,
  size         bigint not null check (size >= 0),
  stored       boolean not null default false,
  last_used_at timestamptz not null default now()
);
create index blobs_last_used_idx on blobs (last_used_at);

-- What each file content object hashes to. A file's content never changes under its storage key (a new
-- write gets a new key), so a key is hashed once; taking a version then reads only new content.
-- Rows of keys no longer in `files` are pruned by the retention sweep.
create table file_hashes (
  storage_key text primary key,
  project_id  uuid not null references projects (id) on delete cascade,
  sha256      text not null
);
create index file_hashes_project_idx on file_hashes (project_id);

-- A version's manifest is a full manifest (`manifests.entries`, { path: [sha256, size, mode] }) overlaid
-- by the version's own `delta` ({ path: entry, or null for a removed path }). Versions share a full
-- manifest until their delta grows past a tenth of it, then a new full one is written. So taking a version
-- of a 1,000-file project with one changed file inserts one small row; reading any version needs its row
-- and one full manifest (immutable, so the API caches it), never a chain; and retention can delete any
-- version on its own, full manifests going once no version names them.
create table manifests (
  id         uuid primary key,
  project_id uuid not null references projects (id) on delete cascade,
  entries    jsonb not null,
  created_at timestamptz not null default now()
);
create index manifests_project_idx on manifests (project_id);

create table versions (
  id               uuid primary key,
  -- Insertion order: versions are listed by it, as two versions may carry the same clock reading.
  seq              bigint generated always as identity,
  project_id       uuid not null references projects (id) on delete cascade,
  parent_id        uuid references versions (id) on delete set null,
  base_manifest_id uuid not null references manifests (id),
  delta            jsonb not null,
  source           text not null check (source in ('agent', 'user', 'restore', 'manual')),
  label            text not null,
  message_id       uuid,
  files_changed    integer not null,
  bytes            bigint not null,
  -- A 'user' version is replaced by the next user edit until then (edits within a minute are one version).
  coalesce_until   timestamptz,
  created_at       timestamptz not null default now()
);
create index versions_project_seq_idx on versions (project_id, seq desc);
create index versions_base_manifest_idx on versions (base_manifest_id);
create index versions_message_idx on versions (message_id) where message_id is not null;

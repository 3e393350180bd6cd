#!/usr/bin/env bash
# Backs up the app's data into a new folder: the database and the object store, read from the same
# environment the app runs with (DATA_DIR, DATABASE_URL, S3_*/AWS_*; run it where the app's .env applies).
#
#   scripts/backup.sh /backups/$(date +%F)
#
# PostgreSQL (DATABASE_URL set): `pg_dump` in its custom format, one consistent snapshot taken while the app
# runs. The object store is copied after it: stored contents are content-addressed and never change, so
# every object the dump names is there (objects added meanwhile are simply extra). The projects' own app
# databases on PostgreSQL are databases of their own: dump those with pg_dumpall if you use them.
# Embedded default (no DATABASE_URL): the data folder (PGlite's database, the local objects, the secrets
# key, sign-in accounts, the projects' app databases) is copied whole, and THE APP MUST BE STOPPED: PGlite
# cannot be read by another process while it runs, and the script refuses while it finds it running.
# Sandboxes, caches and git clones are left out: they are made again. Restore with scripts/restore.sh.
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
dest="${1:?usage: scripts/backup.sh <new-backup-folder>}"
data_dir="$(realpath -m "${DATA_DIR:-./data}")"

if [ -e "$dest" ] && [ -n "$(ls -A "$dest" 2>/dev/null)" ]; then
  echo "backup: $dest is not empty; give a new folder" >&2
  exit 1
fi
mkdir -p "$dest"

if [ -n "${DATABASE_URL:-}" ]; then
  echo "backup: PostgreSQL (pg_dump, consistent while the app runs)"
  pg_dump --format=custom --no-owner --no-privileges --file="$dest/database.dump" "$DATABASE_URL"
  kind=postgres
else
  if [ -e "$data_dir/pg/postmaster.pid" ]; then
    echo "backup: the app is running on $data_dir (found pg/postmaster.pid): stop it first; the embedded database is only consistent while stopped. After a crash, start and stop the app once." >&2
    rmdir "$dest" 2>/dev/null || true
    exit 1
  fi
  [ -d "$data_dir/pg" ] || { echo "backup: no embedded database at $data_dir/pg (set DATA_DIR)" >&2; exit 1; }
  echo "backup: the embedded data folder $data_dir (the app is stopped)"
  tar -C "$data_dir" --exclude=./sandboxes --exclude=./template-cache --exclude=./git-cache -cf "$dest/data-dir.tar" .
  kind=embedded
fi

if [ -n "${S3_BUCKET:-}" ]; then
  echo "backup: the S3 bucket $S3_BUCKET"
  (cd "$root" && bun scripts/objects.ts export "$dest/objects")
  storage=s3
else
  # The local object folder is inside the data folder: in the tar for the embedded default, copied here otherwise.
  if [ "$kind" = postgres ] && [ -d "$data_dir/objects" ]; then cp -a "$data_dir/objects" "$dest/objects"; fi
  storage=local
fi

printf 'kind=%s\nstorage=%s\ncreated=%s\n' "$kind" "$storage" "$(date -u +%FT%TZ)" >"$dest/backup.txt"
[ "$kind" = postgres ] && echo "backup: keep SECRETS_KEY with this backup: the stored project secrets cannot be read without it"
echo "backup: done in $dest"

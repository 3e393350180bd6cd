#!/usr/bin/env bash
# Restores a backup made by scripts/backup.sh into the data folder, database and object store named by the
# environment (DATA_DIR, DATABASE_URL, S3_*/AWS_*), as the app would use them. Stop the app first.
#
#   scripts/restore.sh [--force] /backups/2026-11-27
#
# It refuses to restore over data: a non-empty DATA_DIR (embedded backups, or a local object folder), or a
# PostgreSQL database that already has the app's tables, unless --force is given; then that data is replaced.
# A backup restores into the same kind it came from (embedded into embedded, PostgreSQL into PostgreSQL).
set -euo pipefail

root="$(cd "$(dirname "$0")/.." && pwd)"
force=0
if [ "${1:-}" = "--force" ]; then force=1; shift; fi
src="${1:?usage: scripts/restore.sh [--force] <backup-folder>}"
data_dir="$(realpath -m "${DATA_DIR:-./data}")"
[ -f "$src/backup.txt" ] || { echo "restore: $src is not a backup made by scripts/backup.sh (no backup.txt)" >&2; exit 1; }
kind="$(sed -n 's/^kind=//p' "$src/backup.txt")"
storage="$(sed -n 's/^storage=//p' "$src/backup.txt")"

refuse() {
  echo "restore: $1 is not empty; refusing to overwrite it. Restore into a fresh one, or pass --force to replace what is there." >&2
  exit 1
}
if [ -e "$data_dir/pg/postmaster.pid" ]; then
  echo "restore: the app is running on $data_dir (found pg/postmaster.pid): stop it first" >&2
  exit 1
fi

if [ "$kind" = embedded ]; then
  [ -z "${DATABASE_URL:-}" ] || { echo "restore: this backup is of the embedded database; unset DATABASE_URL to restore it" >&2; exit 1; }
  if [ -d "$data_dir" ] && [ -n "$(ls -A "$data_dir")" ]; then
    [ "$force" = 1 ] || refuse "DATA_DIR $data_dir"
    find "$data_dir" -mindepth 1 -maxdepth 1 -exec rm -rf {} +
  fi
  mkdir -p "$data_dir"
  chmod 711 "$data_dir"
  tar -C "$data_dir" -xpf "$src/data-dir.tar"
elif [ "$kind" = postgres ]; then
  [ -n "${DATABASE_URL:-}" ] || { echo "restore: this backup is of PostgreSQL; set DATABASE_URL to the database to restore into" >&2; exit 1; }
  tables="$(psql "$DATABASE_URL" -Atc "select count(*) from information_schema.tables where table_schema = 'public'")"
  if [ "$tables" != 0 ]; then
    [ "$force" = 1 ] || refuse "the database at DATABASE_URL ($tables tables)"
    pg_restore --clean --if-exists --no-owner --no-privileges --dbname="$DATABASE_URL" "$src/database.dump"
  else
    pg_restore --no-owner --no-privileges --dbname="$DATABASE_URL" "$src/database.dump"
  fi
  if [ "$storage" = local ] && [ -d "$src/objects" ]; then
    if [ -d "$data_dir/objects" ] && [ -n "$(ls -A "$data_dir/objects")" ]; then
      [ "$force" = 1 ] || refuse "the object folder $data_dir/objects"
      rm -rf "$data_dir/objects"
    fi
    mkdir -p "$data_dir"
    cp -a "$src/objects" "$data_dir/objects"
  fi
else
  echo "restore: unknown backup kind '$kind' in $src/backup.txt" >&2
  exit 1
fi

if [ "$storage" = s3 ]; then
  [ -n "${S3_BUCKET:-}" ] || { echo "restore: this backup holds an S3 bucket's objects; set S3_BUCKET (and its endpoint and keys)" >&2; exit 1; }
  count="$(cd "$root" && bun scripts/objects.ts count)"
  [ "$count" = 0 ] || [ "$force" = 1 ] || refuse "the bucket $S3_BUCKET ($count objects)"
  (cd "$root" && bun scripts/objects.ts import "$src/objects")
fi
echo "restore: done from $src"

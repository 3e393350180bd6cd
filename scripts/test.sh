#!/usr/bin/env bash
# The README's test command: install what the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup-test-env.sh
if [ -z "${TEST_DATABASE_URL:-}" ] && command -v pg_isready >/dev/null 2>&1 && pg_isready -q -h 127.0.0.1 2>/dev/null; then
  export TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres
fi
exec bun run test "$@"

#!/usr/bin/env bash
# Runs a command with DATABASE_URL set: the caller's, or a fresh throwaway project-local
# PostgreSQL in .data/pg-test (stopped and removed afterwards). Used by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${DATABASE_URL:-}" ]; then
  exec "$@"
fi

dir=${TEST_DATA_DIR:-.data/pg-test}
port=${TEST_PG_PORT:-54330}
deploy/local-postgres.sh stop "$dir" 2>/dev/null || true
rm -rf "$dir"
# A throwaway cluster: durability is not needed, speed is.
export PG_EXTRA_OPTS="-c fsync=off -c synchronous_commit=off -c full_page_writes=off ${PG_EXTRA_OPTS:-}"
DATABASE_URL=$(deploy/local-postgres.sh start "$dir" "$port")
export DATABASE_URL
status=0
"$@" || status=$?
deploy/local-postgres.sh stop "$dir" || true
rm -rf "$dir"
exit "$status"

#!/usr/bin/env bash
# Runs a command with DATABASE_URL set: the caller's, or a fresh throwaway project-local
# PostgreSQL in .data/pg-test (stopped and removed afterwards). Used by `make test`.
set -euo pipefail
cd "$(dirname "$0")/.."

if [ -n "${DATABASE_URL:-}" ]; then
  exec "$@"
fi

dir=${TEST_DATA_DIR:-.data/pg-test}

# The first free port from 54330 on, unless TEST_PG_PORT says which.
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
port=${TEST_PG_PORT:-}
if [ -z "$port" ]; then
  port=54330
  while port_in_use "$port"; do
    port=$((port + 1))
    [ "$port" -lt 54430 ] || { echo "no free port for the test database" >&2; exit 1; }
  done
fi
deploy/local-postgres.sh stop "$dir" 2>/dev/null || true
rm -rf "$dir"
# A throwaway cluster: durability is not needed, speed is.
export PG_EXTRA_OPTS="-c fsync=off -c synchronous_commit=off -c full_page_writes=off ${PG_EXTRA_OPTS:-}"
DATABASE_URL=$(deploy/local-postgres.sh start "$dir" "$port")
export DATABASE_URL
# The production set-up SQL runs here too, so CI proves it (the tests use its role).
deploy/local-postgres.sh app-url "$dir" "$port" >/dev/null
status=0
"$@" || status=$?
deploy/local-postgres.sh stop "$dir" || true
rm -rf "$dir"
exit "$status"

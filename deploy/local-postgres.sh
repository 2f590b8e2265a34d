#!/usr/bin/env bash
# The embedded default database: a project-local PostgreSQL cluster in a git-ignored folder,
# on its own port, used by `make run` and `make test` when DATABASE_URL is not set.
#
#   deploy/local-postgres.sh start DIR PORT   start (initdb first if needed); prints a superuser URL
#   deploy/local-postgres.sh app-url DIR PORT sets up the least-privilege role and database
#                                             (deploy/sql/setup-database.sql); prints its URL
#   deploy/local-postgres.sh stop DIR         stop it if it runs
#   deploy/local-postgres.sh status DIR       exit 0 when it runs
#
# Server binaries come from PATH or /usr/lib/postgresql/*/bin. As root, initdb and pg_ctl run as
# the `postgres` user (initdb refuses root). Extra server settings: PG_EXTRA_OPTS.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cmd=${1:?usage: local-postgres.sh start|stop|status DIR [PORT]}
dir=${2:?data folder required}
port=${3:-54329}

find_bin() {
  if command -v "$1" >/dev/null 2>&1; then command -v "$1"; return; fi
  local candidate
  for candidate in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
    if [ -x "$candidate/$1" ]; then echo "$candidate/$1"; return; fi
  done
  echo "PostgreSQL server program '$1' not found: install PostgreSQL 15+ server binaries or set DATABASE_URL" >&2
  exit 1
}

mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
data="$dir/data"
sock="$dir/sock"
log="$dir/postgres.log"

case "$cmd" in
  start)
    initdb=$(find_bin initdb)
    pg_ctl=$(find_bin pg_ctl)
    if [ "$(id -u)" = 0 ]; then
      id postgres >/dev/null 2>&1 || { echo "running as root needs a 'postgres' system user" >&2; exit 1; }
      chown postgres "$dir"
    fi
    if [ ! -f "$data/PG_VERSION" ]; then
      as_owner mkdir -p "$data"
      as_owner "$initdb" -D "$data" --auth=trust -U postgres -E UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    fi
    as_owner mkdir -p "$sock"
    if ! as_owner "$pg_ctl" -D "$data" status >/dev/null 2>&1; then
      opts="-p $port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$sock -c max_connections=300 ${PG_EXTRA_OPTS:-}"
      if [ "$(id -u)" = 0 ]; then touch "$log"; chown postgres "$log"; fi
      # A backend keeps a file open for each relation it used, up to `max_files_per_process`
      # and within its soft open-files limit, which PostgreSQL 15 leaves as it finds it: the
      # server starts with that limit raised to the hard one, as PostgreSQL 18 does itself.
      as_owner bash -c 'ulimit -n "$(ulimit -Hn)" 2>/dev/null; exec "$@"' bash \
        "$pg_ctl" -D "$data" -l "$log" -o "$opts" -w -t 60 start >/dev/null \
        || { tail -20 "$log" >&2; exit 1; }
    fi
    echo "postgres://postgres@127.0.0.1:$port/postgres"
    ;;
  app-url)
    psql "postgres://postgres@127.0.0.1:$port/postgres" -q -f "$(dirname "$0")/sql/setup-database.sql" >/dev/null
    echo "postgres://loyalty_app@127.0.0.1:$port/loyalty"
    ;;
  stop)
    if [ -f "$data/PG_VERSION" ]; then
      pg_ctl=$(find_bin pg_ctl)
      if as_owner "$pg_ctl" -D "$data" status >/dev/null 2>&1; then
        as_owner "$pg_ctl" -D "$data" -m fast -w stop >/dev/null
      fi
    fi
    ;;
  status)
    pg_ctl=$(find_bin pg_ctl)
    as_owner "$pg_ctl" -D "$data" status >/dev/null 2>&1
    ;;
  *)
    echo "unknown command: $cmd" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# PgBouncer on this machine in front of a PostgreSQL, keeping one backend for each of the
# server's pooled connections across the server's restarts (docs/operations.md, "Backends that
# outlive a restart"); `make bench` uses it with BENCH_POOLER=pgbouncer.
#
#   deploy/pgbouncer-local.sh start DIR PORT PG_PORT CONNECTIONS [DATABASE [USER]]
#   deploy/pgbouncer-local.sh stop DIR
#
# `start` renders DIR/pgbouncer.ini and runs it: on 127.0.0.1:PORT it offers the databases
# loyalty_0 to loyalty_<CONNECTIONS - 1>, each the database DATABASE (`loyalty`) at
# 127.0.0.1:PG_PORT with a pool of one backend, to USER (`loyalty_app`): the server's
# DB_POOL_URL postgres://loyalty_app@127.0.0.1:PORT/loyalty_{n} then gives its nth connection
# the backend its nth connection had before. Trust authentication, as the local PostgreSQL of
# deploy/local-postgres.sh. PgBouncer refuses to run as root: as root it runs as `postgres`.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/common.sh"

cmd=${1:?usage: pgbouncer-local.sh start|stop DIR ...}
dir=${2:?folder required}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)

render() {
  local port=$1 pg_port=$2 connections=$3 database=$4 user=$5 n
  {
    echo "[databases]"
    for n in $(seq 0 $((connections - 1))); do
      echo "loyalty_$n = host=127.0.0.1 port=$pg_port dbname=$database pool_size=1"
    done
    cat <<INI
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = trust
auth_file = $dir/userlist.txt
logfile = $dir/pgbouncer.log
pidfile = $dir/pgbouncer.pid
; A client keeps its backend for as long as it stays connected, as the server's own pool does
; with its connections; when it goes, the backend waits for the next client of its database.
pool_mode = session
; The backend's prepared statements go when its client does (the next client would name its
; own the same); its catalog entries and its foreign keys' checks, which a client's reset with
; the default DISCARD ALL would throw away too, stay.
server_reset_query = DEALLOCATE ALL
; Backends are kept until the pooler stops or a day has passed: the server retires its own
; connections (DB_CONN_MAX_AGE_SECS), the backends behind them retire here.
server_lifetime = 86400
server_idle_timeout = 0
max_client_conn = 100
INI
  } >"$dir/pgbouncer.ini"
  echo "\"$user\" \"\"" >"$dir/userlist.txt"
}

case "$cmd" in
  start)
    [ $# -ge 5 ] || { echo "usage: $0 start DIR PORT PG_PORT CONNECTIONS [DATABASE [USER]]" >&2; exit 2; }
    bin=$(command -v pgbouncer || ls /usr/sbin/pgbouncer 2>/dev/null || true)
    [ -n "$bin" ] || { echo "pgbouncer is not installed" >&2; exit 1; }
    render "$3" "$4" "$5" "${6:-loyalty}" "${7:-loyalty_app}"
    [ "$(id -u)" = 0 ] && chown -R postgres "$dir"
    as_owner "$bin" -q -d "$dir/pgbouncer.ini"
    for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$3") 2>/dev/null && exit 0; sleep 0.1; done
    echo "pgbouncer did not start: $dir/pgbouncer.log" >&2
    exit 1
    ;;
  stop)
    if [ -f "$dir/pgbouncer.pid" ]; then
      kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
      rm -f "$dir/pgbouncer.pid"
    fi
    ;;
  *)
    echo "unknown command: $cmd" >&2; exit 2 ;;
esac

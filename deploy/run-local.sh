#!/usr/bin/env bash
# `make run`: the whole product on one machine. Uses DATABASE_URL when set, otherwise the
# embedded project-local PostgreSQL in .data/pg. Migrates, makes sure the demo super admin and
# demo company exist, and serves on BIND_ADDR (default 127.0.0.1:8080) until Ctrl-C or `make stop`.
set -euo pipefail
cd "$(dirname "$0")/.."

data_dir=${DATA_DIR:-.data}
bin=${LOYALTY_BIN:-target/debug/loyalty}
super_user=${DEMO_SUPER_ADMIN:-superadmin}
super_password=${DEMO_SUPER_PASSWORD:-superadmin123}
export BIND_ADDR=${BIND_ADDR:-127.0.0.1:8080}
mkdir -p "$data_dir"

started_pg=""
cleanup() {
  rm -f "$data_dir/server.pid"
  if [ -n "$started_pg" ]; then deploy/local-postgres.sh stop "$data_dir/pg" || true; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

if [ -z "${DATABASE_URL:-}" ]; then
  deploy/local-postgres.sh start "$data_dir/pg" "${PG_PORT:-54329}" >/dev/null
  DATABASE_URL=$(deploy/local-postgres.sh app-url "$data_dir/pg" "${PG_PORT:-54329}")
  export DATABASE_URL
  started_pg=1
fi

"$bin" migrate
"$bin" create-super-admin --username "$super_user" --password "$super_password" >/dev/null
"$bin" seed-demo

cat <<BANNER

  Loyalty is running at http://$BIND_ADDR

  Demo logins (username / password):
    super admin        $super_user / $super_password
    company admin      admin@demo / admin123
    supervisor         supervisor@demo / super123
    cashier            cajero@demo / cajero123   (also cajero2, cajero3, cajero4)

  Ctrl-C (or 'make stop' from another terminal) stops the server and the database.

BANNER

"$bin" serve --demo-secret-file "$data_dir/jwt_secret" &
pid=$!
echo "$pid" > "$data_dir/server.pid"
wait "$pid"

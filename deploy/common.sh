# Shared by the deploy/*-local.sh scripts, which source it.

# Runs a command as the owner of the local services: as root, the `postgres` user (initdb,
# PostgreSQL and PgBouncer refuse to run as root); otherwise the caller.
as_owner() {
  if [ "$(id -u)" = 0 ]; then
    runuser -u postgres -- "$@"
  else
    "$@"
  fi
}

#!/usr/bin/env bash
# High-availability soak (`make soak-ha`): PostgreSQL under pg_auto_failover (a monitor, a
# primary and a synchronous standby on loopback ports, made by the test in a scratch folder) and
# the real `loyalty serve` on a multi-host DATABASE_URL with target_session_attrs=read-write.
# Under an accredit/redeem load the primary's node is killed (kill -9) HA_ROUNDS times; the test
# checks that every request answered 200 is in the ledger exactly once and every balance equals
# its ledger, on the primary and the standby. See docs/reliability.md and docs/operations.md.
#
#   soak/ha.sh                         fast failure detection (the test's monitor settings)
#   HA_MONITOR_DEFAULTS=1 soak/ha.sh   pg_auto_failover's default failure detection
#   HA_ROUNDS=5 soak/ha.sh             more failovers (default 3)
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v pg_autoctl >/dev/null 2>&1; then
  major=$(ls /usr/lib/postgresql 2>/dev/null | sort -n | tail -1)
  if [ "$(id -u)" = 0 ] && [ -n "$major" ]; then
    echo "installing postgresql-$major-auto-failover"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "postgresql-$major-auto-failover" >/dev/null
  else
    echo "soak/ha.sh needs pg_autoctl: apt-get install postgresql-<major>-auto-failover" >&2
    exit 1
  fi
fi
pg_autoctl --version | head -1

export HA_ROUNDS=${HA_ROUNDS:-3}
${CARGO:-cargo} test --test api -- --ignored --nocapture --exact \
  crash::ha::the_server_rides_through_failovers_of_the_primary_without_losing_an_answered_request

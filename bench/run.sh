#!/usr/bin/env bash
# `make bench`: the benchmarks of docs/performance.md, on a throwaway PostgreSQL cluster of their
# own (durable settings, as in production), against a release build of the server.
#
#   1. points throughput: BENCH_TENANTS companies x BENCH_CUSTOMERS customers, accredit and
#      redeem over HTTP at BENCH_CONCURRENCY;
#   2. the same transactions' SQL through pgbench at the same concurrency, and the ratio; 1 and 2
#      take turns, BENCH_ROUNDS rounds of BENCH_ROUND_SECONDS each;
#   3. tenant scale: provisioning up to BENCH_SCALE_TENANTS companies, BENCH_PROVISION_CONCURRENCY
#      at a time; migrate over all of them (nothing pending, then one trivial migration);
#      throughput spread over all of them; the server's and PostgreSQL's memory;
#      BENCH_OPERATOR_COMPANIES more companies at an operator's pace; a restart of the server
#      and the first minute's throughput after it (behind BENCH_POOLER, if set, its backends kept);
#   4. read paths at BENCH_READ_TRANSACTIONS transactions and BENCH_READ_CUSTOMERS customers;
#   5. the client bundle's gzip size per chunk;
#   6. the phone: Chromium with a slowed-down CPU and a slow network (BENCH_PHONE_PROFILE)
#      logging in as the demo cashier, first and repeat visit, BENCH_PHONE_RUNS times, on the
#      server alone and behind deploy/nginx/loyalty.conf (e2e/bench/phone.ts);
#   7. import of customers (docs/import.md): BENCH_IMPORT_ROWS rows timed (goal < 10 s), then
#      BENCH_IMPORT_BIG_ROWS rows with the server's peak memory before and after.
#
# Figures go to the terminal and to .data/bench/results.txt; query plans to .data/bench/explain.txt.
set -euo pipefail
cd "$(dirname "$0")/.."

TENANTS=${BENCH_TENANTS:-10}
CUSTOMERS=${BENCH_CUSTOMERS:-10000}
CONCURRENCY=${BENCH_CONCURRENCY:-16}
RUN_SECONDS=${BENCH_SECONDS:-20}
# Steps 1 and 2 take turns, this many rounds of this many seconds each.
ROUNDS=${BENCH_ROUNDS:-3}
ROUND_SECONDS=${BENCH_ROUND_SECONDS:-10}
SCALE_TENANTS=${BENCH_SCALE_TENANTS:-1000}
PROVISION_CONCURRENCY=${BENCH_PROVISION_CONCURRENCY:-3}
# Step 3 serves every company this many times before its rounds.
SWEEP=${BENCH_SWEEP:-2}
# Step 3 then creates this many companies more, one a second, as an operator would.
OPERATOR_COMPANIES=${BENCH_OPERATOR_COMPANIES:-20}
# The server's WARM_UP_SECS, the seconds a start (step 3's restart) may spend warming its
# connections before it listens: the default 15; at 10,000 companies some 90 s reach them all
# (docs/performance.md, "A sale rehearsed at start-up").
WARM_UP=${BENCH_WARM_UP_SECS:-15}
# Spare schemas the server keeps (SPARE_SCHEMAS): twice the operator's companies, so that
# the operator's creations take spares made before them, as a platform that expects that many
# companies in a busy hour would be set up (docs/decisions.md).
SPARES=${BENCH_SPARE_SCHEMAS:-$(( 2 * OPERATOR_COMPANIES ))}
# The server's connections (DB_POOL_SIZE): the default 16. More connections, each home to fewer
# companies, served more sales in a short trial, but the whole phase with 64 left the machine
# short of memory (tasks stalled a third of each minute) and served fewer: the database's
# catalogs (4.2 GB), its files and the backends' caches do not all fit in 24 GB
# (docs/performance.md, "The connections of a large platform, measured whole").
POOL=${BENCH_DB_POOL_SIZE:-16}
# BENCH_POOLER=pgbouncer puts PgBouncer (deploy/pgbouncer-local.sh) between the server's request
# pool and PostgreSQL, keeping a backend for each of its connections: step 3's restart then
# meets the backends the server's run before warmed (docs/operations.md, "Backends that outlive
# a restart"). Unset, the server connects to PostgreSQL directly.
POOLER=${BENCH_POOLER:-}
# The statements each pooled connection keeps (DB_STATEMENTS_PER_CONNECTION): room for the
# companies one connection serves at step 3's scale, about 25 statements each for the sales
# (memory for speed: the default 4,000 re-prepared a sale's statements at 10,000 companies and
# served a fifth fewer sales); never below the default.
STATEMENTS=${BENCH_STATEMENTS_PER_CONNECTION:-$(( SCALE_TENANTS * 25 / POOL > 4000 ? SCALE_TENANTS * 25 / POOL : 4000 ))}
READ_CUSTOMERS=${BENCH_READ_CUSTOMERS:-100000}
READ_TRANSACTIONS=${BENCH_READ_TRANSACTIONS:-1000000}
READ_REQUESTS=${BENCH_READ_REQUESTS:-100}
PHONE_PROFILE=${BENCH_PHONE_PROFILE:-lighthouse-mobile}
PHONE_RUNS=${BENCH_PHONE_RUNS:-5}
IMPORT_ROWS=${BENCH_IMPORT_ROWS:-100000}
IMPORT_BIG_ROWS=${BENCH_IMPORT_BIG_ROWS:-1000000}
# Which parts run (all by default): throughput (1 and 2), scale (3, needs throughput), reads,
# bundle, phone, import.
PHASES=${BENCH_PHASES:-throughput scale reads bundle phone import}
phase() { [[ " $PHASES " == *" $1 "* ]]; }

out=.data/bench
dir=$out/pg
mkdir -p "$out"
results=$out/results.txt
: >"$results"
began=$(date +%s)

say() { echo "$*" | tee -a "$results"; }
# A step's heading, with the time since the start.
step() { echo; say "== $* [$(( $(date +%s) - began )) s]"; }
# The value of key=value in a RESULT line.
field() { sed -n "s/^RESULT.* $2=\([^ ]*\).*/\1/p; s/^RESULT $2=\([^ ]*\).*/\1/p" <<<"$1" | head -1; }
median() { printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "n/a" }'; }
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
free_port() {
  local port=$1
  while port_in_use "$port"; do port=$((port + 1)); done
  echo "$port"
}

server_pid=
nginx_dir=$out/nginx
pooler_dir=$out/pgbouncer
cleanup() {
  if [ -n "${BENCH_KEEP:-}" ]; then
    echo "kept running (BENCH_KEEP): server $base (pid $server_pid), database $admin_url"
    return
  fi
  deploy/nginx-local.sh stop "$nginx_dir" 2>/dev/null || true
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  deploy/pgbouncer-local.sh stop "$pooler_dir" 2>/dev/null || true
  deploy/local-postgres.sh stop "$dir" 2>/dev/null || true
  rm -rf "$dir"
}
trap cleanup EXIT

step "building the release server, the load generator and the client"
# The client's packages download and build while cargo compiles.
make --no-print-directory --quiet client >"$out/client-build.log" 2>&1 &
client_build=$!
cargo build --release --quiet --bin loyalty --bin loyalty-bench
wait "$client_build" || { cat "$out/client-build.log"; exit 1; }
loyalty=target/release/loyalty
bench=target/release/loyalty-bench

step "starting a throwaway PostgreSQL (fsync and synchronous commit on)"
deploy/local-postgres.sh stop "$dir" 2>/dev/null || true
rm -rf "$dir"
pg_port=$(free_port 54440)
# A backend that serves many companies uses a file for each of their relations: up to 20,000
# stay open (within the machine's limit), not PostgreSQL's default 1,000 (docs/operations.md).
PG_EXTRA_OPTS="-c shared_buffers=1GB -c max_wal_size=4GB -c checkpoint_timeout=30min -c max_files_per_process=20000 ${BENCH_PG_OPTS:-}" \
  deploy/local-postgres.sh start "$dir" "$pg_port" >/dev/null
admin_url="postgres://postgres@127.0.0.1:$pg_port/loyalty"
app_url=$(deploy/local-postgres.sh app-url "$dir" "$pg_port")
# The request pool's URL (DB_POOL_URL) when a pooler keeps its backends; else none.
pool_url=
case "$POOLER" in
  "") ;;
  pgbouncer)
    pooler_port=$(free_port 16432)
    deploy/pgbouncer-local.sh start "$pooler_dir" "$pooler_port" "$pg_port" "$POOL"
    pool_url="postgres://loyalty_app@127.0.0.1:$pooler_port/loyalty_{n}"
    ;;
  *) echo "BENCH_POOLER: pgbouncer or nothing, not $POOLER" >&2; exit 2 ;;
esac
"$loyalty" migrate --database-url "$app_url" >/dev/null
super_password="bench-super-password-1"
"$loyalty" create-super-admin --database-url "$app_url" --username root --password "$super_password" >/dev/null

http_port=$(free_port 18400)
base="http://127.0.0.1:$http_port"
jwt_secret="bench-$(date +%s%N)-secret-0123456789abcdef"
# Starts the server (again, after a restart: the same secret, so the tokens stay good) and waits
# until it is ready: it listens once it has warmed its connections (WARM_UP_SECS at most).
start_server() {
  DATABASE_URL="$app_url" JWT_SECRET="$jwt_secret" BIND_ADDR="127.0.0.1:$http_port" DB_STATEMENTS_PER_CONNECTION="$STATEMENTS" \
    SPARE_SCHEMAS="$SPARES" DB_POOL_SIZE="$POOL" WARM_UP_SECS="$WARM_UP" \
    CLIENT_DIR=client/dist RUST_LOG=warn env ${pool_url:+"DB_POOL_URL=$pool_url"} "$loyalty" serve >>"$out/server.log" 2>&1 &
  server_pid=$!
  for _ in $(seq $(( (WARM_UP + 60) * 10 ))); do
    curl -fs "$base/readyz" >/dev/null 2>&1 && break
    sleep 0.1
  done
  curl -fs "$base/readyz" >/dev/null || { cat "$out/server.log"; exit 1; }
}
: >"$out/server.log"
start_server
# CPU time in clock ticks: a process's own; PostgreSQL's (postmaster, its finished children and
# its live backends).
tick_ms=$(awk -v t="$(getconf CLK_TCK)" 'BEGIN { print 1000 / t }')
proc_cpu() { awk '{ print $14 + $15 }' "/proc/$1/stat" 2>/dev/null || echo 0; }
pg_cpu() {
  local pm total child
  pm=$(head -1 "$dir/data/postmaster.pid")
  total=$(awk '{ print $14 + $15 + $16 + $17 }' "/proc/$pm/stat")
  for child in $(pgrep -P "$pm"); do total=$((total + $(proc_cpu "$child"))); done
  echo "$total"
}
# Milliseconds of CPU per request from a tick difference and a request count.
per_request() { awk -v d="$1" -v n="$2" -v ms="$tick_ms" 'BEGIN { if (n > 0) printf "%.2f", d * ms / n; else print "n/a" }'; }
# Runs a command; its user+system CPU seconds go to the file $cpu_file.
cpu_file=$out/cpu.txt
with_cpu() { local TIMEFORMAT='%U %S'; { time "$@" 2>&1; } 2>"$cpu_file.tmp"; awk '{ print $1 + $2 }' "$cpu_file.tmp" >"$cpu_file"; }
# The anonymous memory (what a backend allocated for itself: catalog caches, plans, sorts; not
# the shared buffers) of each PostgreSQL backend serving the server.
backend_memory() {
  psql "$admin_url" -Atc "select pid from pg_stat_activity where application_name = 'loyalty' and backend_type = 'client backend'" |
    while read -r pid; do awk '/^Anonymous:/ { print $2 }' "/proc/$pid/smaps_rollup" 2>/dev/null; done |
    awk '{ n++; sum += $1; if ($1 > max) max = $1 } END { if (n) printf "%d backends, %.1f MB each on average, %.1f MB at most, %.0f MB in all", n, sum / n / 1024, max / 1024, sum / 1024; else print "no backend" }'
}
# The database's size and its catalogs' (tables, their indexes and TOAST): at thousands of
# companies the catalogs are gigabytes that each backend reads as it meets the companies.
database_size() {
  psql "$admin_url" -Atc "select pg_size_pretty(pg_database_size(current_database())) || ', of it the catalogs ' ||
    pg_size_pretty(sum(pg_total_relation_size(oid))) from pg_class where relnamespace = 'pg_catalog'::regnamespace and relkind = 'r' and not relisshared"
}
# The relations of one company's schema (its TOAST tables and their indexes counted), each of
# which every backend meeting the company keeps and the catalogs hold (docs/performance.md,
# "Fewer relations a company").
company_relations() {
  psql "$admin_url" -Atc "with own as (select c.oid, c.relkind, c.reltoastrelid from pg_class c
      where c.relnamespace = (select schema_name from platform.companies order by id limit 1)::regnamespace),
    toast as (select reltoastrelid as oid from own where reltoastrelid <> 0
      union all select i.indexrelid from pg_index i join own on i.indrelid = own.reltoastrelid)
    select format('a company %s relations, %s of them indexes',
      (select count(*) from own) + (select count(*) from toast), (select count(*) from own where relkind = 'i'))"
}
# The share of the last minute in which some task waited for memory (the kernel's pressure
# stall information), when the kernel reports it: above a few percent, the machine is short of
# memory and the figures beside it read the disk.
memory_pressure() {
  if [ -r /proc/pressure/memory ]; then
    awk '/^some/ { sub("avg60=", "", $3); printf "memory pressure %s%% of the last minute", $3 }' /proc/pressure/memory
  else
    echo "memory pressure not reported by this kernel"
  fi
}
peak_rss() { awk '/VmHWM/ { peak = $2 } /VmRSS/ { now = $2 } END { printf "peak %.0f MB, now %.0f MB", peak / 1024, now / 1024 }' "/proc/$server_pid/status"; }
export BENCH_SUPER_PASSWORD=$super_password
# The password `loyalty-bench provision` gives each company's admin (its default).
bench_admin_password=bench-admin-pass-1
tokens=$out/tokens.tsv
: >"$tokens"

# Waits until the server's spare schemas are all made (it makes them a minute after the last
# company created, or at once when half or fewer are left), so that no measurement shares the
# machine with their DDL; at most two minutes.
wait_for_spares() {
  local ready
  for _ in $(seq 240); do
    ready=$(psql "$admin_url" -Atc "select count(*) from platform.spare_schemas")
    [ "$ready" -ge "$SPARES" ] && return 0
    sleep 0.5
  done
  say "   (the spares were not all made: $ready of $SPARES)"
}

# In slices of SEED_SLICE companies, each in a session of its own and two at a time: a backend
# keeps the catalog entries of every schema it met, and one session for 10,000 companies held
# gigabytes of them and read the catalogs from disk.
SEED_SLICE=500
seed_customers() {
  local companies
  companies=$(psql "$admin_url" -Atc "select count(*) from platform.companies where prefix ~ '^b[0-9]+$' and state = 'active'")
  seq 0 "$SEED_SLICE" "$((companies - 1))" | xargs -P 2 -I{} psql "$admin_url" -q -v ON_ERROR_STOP=1 \
    -c "set bench.customers = $1" -c "set bench.skip = {}" -c "set bench.slice = $SEED_SLICE" \
    -f bench/sql/seed-customers.sql
}

pgbench_bin=$(command -v pgbench || ls -d /usr/lib/postgresql/*/bin/pgbench 2>/dev/null | sort -V | tail -1)
[ -x "$pgbench_bin" ] || { echo "pgbench not found: install the PostgreSQL server binaries" >&2; exit 1; }
# pgbench's scripts, one of each per company (a company's schema is the one its platform row
# names, which a script cannot look up without a statement more than the server sends): the
# company's number and schema written in, each script of equal weight.
pgbench_scripts=()
write_pgbench_scripts() {
  local t schema kind
  pgbench_scripts=()
  for t in $(seq "$TENANTS"); do
    schema=$(psql "$admin_url" -Atc "select schema_name from platform.companies where prefix = 'b$t'")
    for kind in accredit redeem; do
      sed -e "s/^\\set t random(1, :tenants)$/\\set t $t/" -e "s/tenant_b:t/$schema/" \
        "bench/sql/$kind.pgbench" >"$out/$kind-b$t.pgbench"
      pgbench_scripts+=(-f "$out/$kind-b$t.pgbench@1")
    done
  done
}
run_pgbench() {
  local seconds=$1 prefix=$2
  "$pgbench_bin" "$app_url" -n -M simple -c "$CONCURRENCY" -j 2 -T "$seconds" \
    -D tenants="$TENANTS" -D customers="$CUSTOMERS" "${pgbench_scripts[@]}" \
    ${prefix:+-l --log-prefix="$prefix"} 2>&1
}

if phase throughput; then
step "1 and 2. points throughput: $TENANTS companies x $CUSTOMERS customers, concurrency $CONCURRENCY; the server over HTTP and the same SQL through pgbench (-M simple, in the round trips the server makes), taking turns: $ROUNDS rounds of ${ROUND_SECONDS} s each"
"$bench" --base "$base" provision --super-user root --stem b --from 1 --to "$TENANTS" --tokens-out "$tokens" \
  | grep -v '^RESULT' | sed 's/^/   /' | tee -a "$results"
seed_customers "$CUSTOMERS"
write_pgbench_scripts
wait_for_spares
first_tokens=$out/tokens-first.tsv
cp "$tokens" "$first_tokens"
# The two take turns so that a change in the machine's speed (it may be shared) falls on both;
# the figures are the rounds' medians, and CPU is summed over every round.
server_load() {
  "$bench" --base "$base" load --tokens "$first_tokens" --customers "$CUSTOMERS" \
    --concurrency "$CONCURRENCY" --seconds "$1" --warmup-seconds 0
}
server_load 3 >/dev/null
run_pgbench 3 "" >/dev/null
server_lines=(); server_rates=(); server_p99s=(); pgbench_lines=(); pgbench_rates=(); pgbench_p99s=(); round_ratios=()
server_ticks=0; server_pg_ticks=0; server_sent=0; server_failed=0; generator_cpu=0
pgbench_pg_ticks=0; pgbench_sent=0; pgbench_cpu=0; pgbench_failed=0
for round in $(seq "$ROUNDS"); do
  server_cpu0=$(proc_cpu "$server_pid"); pg_cpu0=$(pg_cpu)
  server_run=$(with_cpu server_load "$ROUND_SECONDS")
  server_cpu1=$(proc_cpu "$server_pid"); pg_cpu1=$(pg_cpu)
  result=$(grep '^RESULT' <<<"$server_run")
  server_lines+=("$(grep -v '^RESULT' <<<"$server_run")")
  server_rates+=("$(field "$result" rps)"); server_p99s+=("$(field "$result" p99_ms)")
  server_ticks=$((server_ticks + server_cpu1 - server_cpu0)); server_pg_ticks=$((server_pg_ticks + pg_cpu1 - pg_cpu0))
  server_sent=$((server_sent + $(field "$result" ok) + $(field "$result" errors)))
  server_failed=$((server_failed + $(field "$result" errors)))
  generator_cpu=$(awk -v a="$generator_cpu" -v b="$(cat "$cpu_file")" 'BEGIN { print a + b }')

  rm -f "$out"/pgbench_log*
  pg_cpu0=$(pg_cpu)
  pgbench_out=$(with_cpu run_pgbench "$ROUND_SECONDS" "$out/pgbench_log")
  pg_cpu1=$(pg_cpu)
  tps=$(sed -n 's/^tps = \([0-9.]*\).*/\1/p' <<<"$pgbench_out" | head -1)
  processed=$(sed -n 's/^number of transactions actually processed: \([0-9]*\).*/\1/p' <<<"$pgbench_out" | head -1)
  failed=$(sed -n 's/^number of failed transactions: \([0-9]*\).*/\1/p' <<<"$pgbench_out" | head -1)
  percentiles=$(cat "$out"/pgbench_log* | awk '{ print $3 }' | sort -n | awk '
    { v[NR] = $1 }
    END { printf "p50 %.2f ms, p99 %.2f ms, p99.9 %.2f ms", v[int(NR * 0.5)] / 1000, v[int(NR * 0.99)] / 1000, v[int(NR * 0.999)] / 1000 }')
  pgbench_lines+=("$(printf '%.1f' "$tps") transactions/s, ${failed:-0} failed; latency $percentiles")
  pgbench_rates+=("$tps"); pgbench_p99s+=("$(sed 's/.*p99 \([0-9.]*\) ms,.*/\1/' <<<"$percentiles")")
  pgbench_pg_ticks=$((pgbench_pg_ticks + pg_cpu1 - pg_cpu0)); pgbench_sent=$((pgbench_sent + ${processed:-0}))
  pgbench_cpu=$(awk -v a="$pgbench_cpu" -v b="$(cat "$cpu_file")" 'BEGIN { print a + b }')
  pgbench_failed=$((pgbench_failed + ${failed:-0}))
  round_ratios+=("$(ratio "${server_rates[-1]}" "$tps")")
  say "   round $round: server ${server_rates[-1]}/s, p99 ${server_p99s[-1]} ms, $(field "$result" errors) failed; pgbench $(printf '%.1f' "$tps")/s, p99 ${pgbench_p99s[-1]} ms, ${failed:-0} failed; ratio ${round_ratios[-1]}"
done
server_rps=$(median "${server_rates[@]}")
pgbench_tps=$(median "${pgbench_rates[@]}")
say "   server, median round: $(for i in "${!server_rates[@]}"; do [ "${server_rates[$i]}" = "$server_rps" ] && { echo "${server_lines[$i]}"; break; }; done)"
say "   CPU per request: server $(per_request "$server_ticks" "$server_sent") ms, PostgreSQL $(per_request "$server_pg_ticks" "$server_sent") ms, load generator $(awk -v c="$generator_cpu" -v n="$server_sent" 'BEGIN { printf "%.2f", c * 1000 / n }') ms; ${server_failed} of ${server_sent} requests failed"
say "   server memory (RSS): $(peak_rss)"
say "   pgbench, median round: $(for i in "${!pgbench_rates[@]}"; do [ "${pgbench_rates[$i]}" = "$pgbench_tps" ] && { echo "${pgbench_lines[$i]}"; break; }; done)"
say "   CPU per transaction: PostgreSQL $(per_request "$pgbench_pg_ticks" "$pgbench_sent") ms, pgbench $(awk -v c="$pgbench_cpu" -v n="$pgbench_sent" 'BEGIN { printf "%.2f", c * 1000 / n }') ms; ${pgbench_failed} failed"
say "   RATIO server / pgbench throughput: $(median "${round_ratios[@]}") (median of the rounds' ${round_ratios[*]}; goal >= 0.8); p99 medians: server $(median "${server_p99s[@]}") ms (goal < 25 ms), pgbench $(median "${pgbench_p99s[@]}") ms"

fi

if phase throughput && phase scale; then
step "3. tenant scale: provisioning companies $((TENANTS + 1)) to $SCALE_TENANTS through the API, $PROVISION_CONCURRENCY at a time"
say "   the server: DB_POOL_SIZE=$POOL, DB_STATEMENTS_PER_CONNECTION=$STATEMENTS, SPARE_SCHEMAS=$SPARES, $(if [ -n "$POOLER" ]; then echo "its request pool through $POOLER, a backend kept for each connection"; else echo "its connections straight to PostgreSQL"; fi)"
# Their admins' tokens are signed by the bench with the server's secret, the claims a login
# gives: 10,000 logins were 10,000 argon2 checks, minutes of the phase that measured nothing it
# reports (step 1's companies and the operator's still log in).
provision_out=$(BENCH_JWT_SECRET=$jwt_secret "$bench" --base "$base" provision --super-user root --stem b \
  --from "$((TENANTS + 1))" --to "$SCALE_TENANTS" --concurrency "$PROVISION_CONCURRENCY" --database-url "$app_url" \
  --tokens-out "$tokens")
grep -v '^RESULT' <<<"$provision_out" | sed 's/^/   /' | tee -a "$results"
per_company=$(( CUSTOMERS * TENANTS / SCALE_TENANTS ))
[ "$per_company" -ge 1 ] || per_company=1
seed_started=$(date +%s)
seed_customers "$per_company"
say "   $per_company customers each seeded in $(( $(date +%s) - seed_started )) s (their tables vacuumed only from 50 rows up, as autovacuum would)"

timed() { local t0 t1; t0=$(date +%s.%N); "$@" >"$out/last-command.log" 2>&1; t1=$(date +%s.%N); awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }'; }
say "   loyalty migrate, nothing pending: $(timed "$loyalty" migrate --database-url "$app_url") s over $SCALE_TENANTS companies"
say "   loyalty migrate, one trivial migration: $(timed "$loyalty" migrate --database-url "$app_url" \
  --rehearse-tenant-migrations bench/rehearsal) s ($(tail -1 "$out/last-command.log"))"

# `phase_load TOKENS ARGS...`: the load over the companies of TOKENS, each with the phase's
# customers, at the bench's concurrency; ARGS say for how long (or how many sweeps).
phase_load() {
  "$bench" --base "$base" load --tokens "$1" --customers "$per_company" --concurrency "$CONCURRENCY" "${@:2}"
}
# The first run right after provisioning, while each database connection still meets most
# companies for the first time. `scale_load LABEL SECONDS WARMUP` prints the run's lines under
# LABEL (none when LABEL is empty); its requests per second, p99 and failed requests go to
# $scale_rps, $scale_p99, $scale_failed.
scale_load() {
  local run
  run=$(phase_load "$tokens" --seconds "$2" --warmup-seconds "$3")
  [ -z "$1" ] || grep -v '^RESULT' <<<"$run" | sed "s/^/   server, $1: /" | tee -a "$results"
  scale_rps=$(field "$(grep '^RESULT' <<<"$run")" rps)
  scale_p99=$(field "$(grep '^RESULT' <<<"$run")" p99_ms)
  scale_failed=$(field "$(grep '^RESULT' <<<"$run")" errors)
}
wait_for_spares
scale_load "first run" "$RUN_SECONDS" 3
first_rps=$scale_rps
# A timed run meets only some of ten thousand companies (at 800 requests a second, 20 s is 1.6
# requests a company): before the rounds, every company is served $SWEEP times, accreditations
# and redemptions in turn, so that "once warm" means each connection has met the companies it
# serves and both of their sales (two passes of the alternating mix left about half of the
# companies without one or the other, met in the first rounds).
sweep_run=$(phase_load "$tokens" --sweep "$SWEEP")
say "   warming: every company served $SWEEP times, accreditations and redemptions in turn: $(grep -v '^RESULT' <<<"$sweep_run" | head -1)"
# Then, with those catalog caches built, all the companies and the first ones alone take turns
# as steps 1 and 2 do, so that the machine's drift falls on both; the ratio is the rounds' median.
# Each round also serves $HUNDRED of the phase's own companies alone, as small as the rest: set
# beside all of them, it tells what their number costs beyond a hundred; set beside the first
# ones, what a sale of many small companies costs against one of a few large ones.
HUNDRED=100
hundred_tokens=$out/tokens-hundred.tsv
sed -n "$((TENANTS + 1)),$((TENANTS + HUNDRED))p" "$tokens" >"$hundred_tokens"
warm_rates=(); scale_ratios=(); hundred_ratios=()
for round in $(seq "$ROUNDS"); do
  scale_load "" "$ROUND_SECONDS" 0
  warm_rates+=("$scale_rps")
  hundred=$(grep '^RESULT' <<<"$(phase_load "$hundred_tokens" --seconds "$ROUND_SECONDS" --warmup-seconds 0)")
  hundred_ratios+=("$(ratio "$scale_rps" "$(field "$hundred" rps)")")
  alone=$(grep '^RESULT' <<<"$(server_load "$ROUND_SECONDS")")
  scale_ratios+=("$(ratio "$scale_rps" "$(field "$alone" rps)")")
  say "   round $round: $SCALE_TENANTS companies ${scale_rps}/s, p99 ${scale_p99} ms, ${scale_failed} failed; $HUNDRED of them $(field "$hundred" rps)/s, $(field "$hundred" errors) failed; $TENANTS companies $(field "$alone" rps)/s, p99 $(field "$alone" p99_ms) ms, $(field "$alone" errors) failed; ratio ${scale_ratios[-1]}"
done
say "   RATIO $SCALE_TENANTS-company / $TENANTS-company throughput (goal >= 0.9): $(median "${scale_ratios[@]}") once the connections know the companies (median of the rounds' ${scale_ratios[*]}); first run after provisioning $(ratio "$first_rps" "$server_rps") (to step 1's median; the rounds' median to it: $(ratio "$(median "${warm_rates[@]}")" "$server_rps"))"
say "   $SCALE_TENANTS companies / $HUNDRED of them, as small: $(median "${hundred_ratios[@]}") (median of the rounds' ${hundred_ratios[*]}; a reading, no goal)"
say "   server memory (RSS) after $SCALE_TENANTS companies: $(peak_rss) (bound: 512 MB)"
say "   PostgreSQL memory of the server's connections: $(backend_memory)"
say "   the database: $(database_size) ($(company_relations)); $(memory_pressure)"

# An operator creating companies on the full platform: one at a time, a second apart, each
# taking a spare schema made ahead (SPARE_SCHEMAS) while the burst above mostly built its own;
# before the restart, whose first minute ends as the daily job starts its walk over every company.
wait_for_spares
operator_out=$("$bench" --base "$base" provision --super-user root --stem op --from 1 --to "$OPERATOR_COMPANIES" \
  --pause-ms 1000 --tokens-out "$out/operator-tokens.tsv")
grep -v '^RESULT' <<<"$operator_out" | head -1 | sed 's/^/   an operator at '"$SCALE_TENANTS"' companies: /' | tee -a "$results"
say "   provisioning p50 at an operator's pace (goal < 50 ms): $(field "$(grep '^RESULT' <<<"$operator_out")" p50_ms) ms; in the burst: $(field "$(grep '^RESULT' <<<"$provision_out")" p50_ms) ms"

# A restart: the server's new connections meet every company afresh (statements to prepare,
# catalog entries to build), the most recently active first before it listens (WARM_UP_SECS),
# the rest at their first request. The first minute's throughput once ready, in 10-second
# slices, against step 1; and the minute from the restart, the time before ready counted as
# serving nothing. Behind a pooler (BENCH_POOLER) the new connections meet the backends the
# server's run before warmed: their catalog entries and foreign keys' checks kept, only the
# statements to prepare again.
wait_for_spares
kill "$server_pid"; wait "$server_pid" 2>/dev/null || true
restart_started=$(date +%s.%N)
start_server
ready_seconds=$(awk -v a="$restart_started" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }')
restart_run=$(phase_load "$tokens" --seconds 60 --warmup-seconds 0 --timeline)
slices=$(grep '^  second' <<<"$restart_run" | awk '{ n = int($2 / 10); if (n < 6) ok[n] += $3 } END { for (i = 0; i in ok; i++) printf "%s%.0f", (i ? ", " : ""), ok[i] / 10 }')
restart_rps=$(field "$(grep '^RESULT' <<<"$restart_run")" rps)
say "   restart: ready in $ready_seconds s (WARM_UP_SECS=$WARM_UP); the first minute over $SCALE_TENANTS companies ${restart_rps}/s, p99 $(field "$(grep '^RESULT' <<<"$restart_run")" p99_ms) ms, $(field "$(grep '^RESULT' <<<"$restart_run")" errors) failed; per 10 s: $slices requests/s"
from_restart_rps=$(grep '^  second' <<<"$restart_run" | awk -v ready="$ready_seconds" '$2 < 60 - ready { ok += $3 } END { printf "%.1f", ok / 60 }')
say "   RATIO first minute after a restart / $TENANTS-company throughput (goal >= 0.75): $(ratio "$restart_rps" "$server_rps") once ready; $(ratio "$from_restart_rps" "$server_rps") over the minute from the restart ($from_restart_rps/s)"
say "   PostgreSQL memory of the server's connections after that minute: $(backend_memory); $(memory_pressure)"

fi

if phase reads; then
step "4. read paths: one company with $READ_CUSTOMERS customers and $READ_TRANSACTIONS transactions"
"$bench" --base "$base" provision --super-user root --stem r --from 1 --to 1 --tokens-out "$out/read-token.tsv" >/dev/null
seed_started=$(date +%s)
# The company's schema, as its platform row names it (one made from a spare keeps the spare's).
read_schema=$(psql "$admin_url" -Atc "select schema_name from platform.companies where prefix = 'r1'")
psql "$admin_url" -q -v ON_ERROR_STOP=1 -v schema="$read_schema" -c "set bench.read_customers = $READ_CUSTOMERS" \
  -c "set bench.read_transactions = $READ_TRANSACTIONS" -f bench/sql/seed-reads.sql
say "   seeded in $(( $(date +%s) - seed_started )) s"
read_token=$(tail -1 "$out/read-token.tsv" | cut -f2)
month_ago=$(date -u -d '30 days ago' +%F)
today=$(date -u +%F)
read_out=$("$bench" --base "$base" read --token "$read_token" --requests "$READ_REQUESTS" \
  --path "dashboard=/api/stats/dashboard" \
  --path "report_page1=/api/transactions/search?page=1&pageSize=25" \
  --path "report_page40=/api/transactions/search?page=40&pageSize=25" \
  --path "report_filtered=/api/transactions/search?type=redemption&posId=3&from=$month_ago&to=$today&pageSize=25" \
  --path "report_cashier=/api/transactions/search?cashier=cajero2&from=$month_ago&to=$today&pageSize=50" \
  --path "report_customer_text=/api/transactions/search?text=rojas&pageSize=25" \
  --path "report_rare_name=/api/transactions/search?text=valentina%20torres&pageSize=25" \
  --path "report_one_letter=/api/transactions/search?text=a&pageSize=25" \
  --path "customers_page1=/api/customers/search?page=1&pageSize=25" \
  --path "customers_name=/api/customers/search?text=valentina%20torres&pageSize=25" \
  --path "customers_document=/api/customers/search?text=1000050&pageSize=25" \
  --path "customers_first_letter=/api/customers/search?text=a&pageSize=25")
grep -v '^RESULT' <<<"$read_out" | sed 's/^/   /' | tee -a "$results"
say "   (goal: p99 < 50 ms each)"
psql "$admin_url" -q -v ON_ERROR_STOP=1 -v month_ago="$month_ago" -v schema="$read_schema" -f bench/sql/explain-reads.sql >"$out/explain.txt"
say "   query plans: $out/explain.txt"

fi

if phase bundle; then
step "5. client bundle (gzip)"
for f in client/dist/assets/*.js client/dist/assets/*.css; do
  printf '   %-48s %7.1f kB\n' "$(basename "$f")" "$(gzip -9c "$f" | wc -c | awk '{ print $1 / 1024 }')"
done | sort -k2 -n -r | tee -a "$results"
initial=$(grep -oE '(src|href)="/assets/[^"]+\.(js|css)"' client/dist/index.html | sed -E 's/.*"\/assets\/([^"]+)"/\1/' | sort -u)
# gzip -9 kB of the files named, summed.
gzip_kb() {
  local f kb=0
  for f in "$@"; do kb=$(awk -v a="$kb" -v b="$(gzip -9c "$f" | wc -c)" 'BEGIN { printf "%.1f", a + b / 1024 }'); done
  echo "$kb"
}
initial_js_kb=$(gzip_kb $(printf 'client/dist/assets/%s\n' $initial | grep '\.js$'))
initial_css_kb=$(gzip_kb $(printf 'client/dist/assets/%s\n' $initial | grep '\.css$'))
say "   initial JavaScript (index.html's scripts and their preloads): $initial_js_kb kB gzip (goal < 150 kB); styles $initial_css_kb kB"
# The first part of each language's texts is a chunk the entry fetches before the first render;
# the later part follows it (client/src/i18n/parts.ts).
for lang in es en; do
  texts=$(ls client/dist/assets/"$lang"-first-*.js 2>/dev/null | head -1)
  later=$(ls client/dist/assets/"$lang"-later-*.js 2>/dev/null | head -1)
  [ -n "$texts" ] && [ -n "$later" ] || continue
  say "   with the $lang texts the entry fetches before the first render: $(awk -v a="$initial_js_kb" -v b="$(gzip_kb "$texts")" 'BEGIN { printf "%.1f", a + b }') kB (goal < 150 kB; $(basename "$texts") $(gzip_kb "$texts") kB; then $(basename "$later") $(gzip_kb "$later") kB)"
done

fi

if phase phone; then
step "6. phone ($PHONE_PROFILE): the demo cashier logs in on a fresh browser, again with its cache, and reloads the dashboard; $PHONE_RUNS runs"
"$loyalty" seed-demo --database-url "$app_url" >/dev/null
if [ ! -d e2e/node_modules ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  (cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null)
fi
# `phone LABEL URL [OPTION...]`: the measurement's lines under LABEL.
phone() {
  (cd e2e && node --import tsx bench/phone.ts --base "$2" --label "$1" --profile "$PHONE_PROFILE" --runs "$PHONE_RUNS" \
    --user cajero@demo --password cajero123 "${@:3}") | grep -v '^RESULT' | sed 's/^/   /' | tee -a "$results"
}
# What the entry script goes out as, asked the way Chromium asks.
entry_headers() {
  local script
  script=$(grep -oE 'src="/assets/[^"]+\.js"' client/dist/index.html | head -1 | sed -E 's/src="([^"]+)"/\1/')
  say "   $script: $(curl -ksS -o /dev/null -D - -H 'Accept-Encoding: gzip, deflate, br, zstd' "$1$script" \
    | grep -iE '^(content-encoding|content-length|cache-control):' | tr -d '\r' | tr '\n' ' ')"
}
entry_headers "$base"
phone "server alone" "$base"
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  https_port=$(free_port 18443)
  deploy/nginx-local.sh start "$nginx_dir" "$http_port" "$https_port" "$(free_port $((https_port + 1)))"
  entry_headers "https://127.0.0.1:$https_port"
  phone "behind nginx (deploy/nginx/loyalty.conf, HTTP/2 and TLS)" "https://127.0.0.1:$https_port" \
    --trust-spki "$(deploy/nginx-local.sh spki "$nginx_dir")"
  deploy/nginx-local.sh stop "$nginx_dir"
else
  say "   nginx not installed: no measurement behind it (apt-get install nginx)"
fi

fi

if phase import; then
step "7. import of customers: $IMPORT_ROWS rows timed, then $IMPORT_BIG_ROWS rows with the server's memory"
"$bench" --base "$base" provision --super-user root --stem imp --from 1 --to 1 --tokens-out "$out/import-token.tsv" >/dev/null
import_token=$(tail -1 "$out/import-token.tsv" | cut -f2)
# `import_file ROWS FIRST FILE`: a CSV of ROWS customers, documents from FIRST, every field filled.
import_file() {
  awk -v n="$1" -v first="$2" 'BEGIN {
    print "documento;nombre;correo;telefono;direccion;fecha_nacimiento;puntos;consentimiento"
    for (i = 0; i < n; i++) {
      d = first + i
      printf "%d;Cliente %d Pérez Gómez;cliente%d@example.com;300%07d;Calle %d # %d-%d;19%02d-%02d-%02d;%d;store\n", d, d, d, i % 10000000, i % 200, i % 90, i % 50, 40 + i % 60, 1 + i % 12, 1 + i % 28, i % 5000
    }
  }' >"$3"
}
# `import_run FILE`: posts FILE as a real import; prints seconds and the answer's counts.
import_run() {
  local t0 t1 answer
  t0=$(date +%s.%N)
  answer=$(curl -sS -X POST -H "Authorization: Bearer $import_token" -H 'Content-Type: text/csv' \
    --data-binary "@$1" "$base/api/customers/import?dryRun=false")
  t1=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f s", b - a }'
  printf ' (%s)\n' "$(sed -E 's/"errors":\[.*\]/"errors":[...]/' <<<"$answer" | cut -c1-200)"
}
import_file "$IMPORT_ROWS" 10000000 "$out/import-small.csv"
say "   $IMPORT_ROWS rows ($(du -h "$out/import-small.csv" | cut -f1)): $(import_run "$out/import-small.csv") (goal < 10 s)"
import_file "$IMPORT_BIG_ROWS" 20000000 "$out/import-big.csv"
rss_before=$(peak_rss)
say "   $IMPORT_BIG_ROWS rows ($(du -h "$out/import-big.csv" | cut -f1)): $(import_run "$out/import-big.csv")"
say "   server memory (RSS) before: $rss_before; after: $(peak_rss) (bound: peak below 512 MB, growing by less than 64 MB)"
# The same 100,000 rows through the screen, into a company of their own, as an admin would.
"$bench" --base "$base" provision --super-user root --stem imp --from 2 --to 2 --tokens-out "$out/import-token.tsv" >/dev/null
if [ ! -d e2e/node_modules ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then
  (cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund >/dev/null)
fi
(cd e2e && node --import tsx bench/import-screen.ts --base "$base" --user admin@imp2 --password "$bench_admin_password" \
  --file "$PWD/../$out/import-small.csv") | grep -v '^RESULT' | sed "s/^/   $IMPORT_ROWS rows through the screen, /" | tee -a "$results"
rm -f "$out/import-small.csv" "$out/import-big.csv"

fi

echo; say "== done in $(( $(date +%s) - began )) s; figures in $results"

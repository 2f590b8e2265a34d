# Two commands for a fresh machine: `make run` (the whole product on an embedded database)
# and `make test` (every test). See README.md.

SHELL := /bin/bash
CARGO ?= cargo
DATA_DIR ?= .data

.PHONY: run stop test build server client client-deps e2e-deps lint api-types api-types-check test-deploy test-server test-client test-e2e test-fuzz test-all soak soak-all soak-fuzz soak-ha bench clean-data

run: build
	@DATA_DIR=$(DATA_DIR) deploy/run-local.sh

stop:
	@if [ -f $(DATA_DIR)/server.pid ]; then kill $$(cat $(DATA_DIR)/server.pid) 2>/dev/null || true; rm -f $(DATA_DIR)/server.pid; fi
	@deploy/local-postgres.sh stop $(DATA_DIR)/pg 2>/dev/null || true
	@echo "stopped"

build: server client

server:
	$(CARGO) build --bin loyalty

client-deps:
	@if [ -f client/package.json ]; then \
	  if [ ! -d client/node_modules ] || [ client/package-lock.json -nt client/node_modules/.package-lock.json ]; then \
	    (cd client && npm ci --no-audit --no-fund); \
	  fi; \
	fi

client: client-deps
	@if [ -f client/package.json ]; then (cd client && npm run build); fi

# The API's TypeScript types (client/src/api/schema.d.ts, used by the client and the browser
# tests), generated from the server's OpenAPI document; the check fails while the file is stale.
api-types: client-deps
	@client/scripts/api-types.sh

api-types-check: client-deps
	@client/scripts/api-types.sh --check

test: build
	@deploy/with-database.sh $(MAKE) --no-print-directory test-all

TEST_PHASES := lint test-deploy test-server test-client test-fuzz test-e2e

# Every phase in turn, each with the seconds it took (CI's log shows where its time goes).
test-all:
	@for phase in $(TEST_PHASES); do \
	  start=$$(date +%s); \
	  $(MAKE) --no-print-directory $$phase || exit 1; \
	  echo "== $$phase: $$(( $$(date +%s) - start )) s"; \
	done

# The house format and lints: rustfmt, clippy with every warning denied, eslint and the
# TypeScript compiler over the client and the browser suite, and the generated API types.
lint: client-deps e2e-deps
	$(CARGO) fmt --all -- --check
	$(CARGO) clippy --workspace --all-targets --quiet -- -D warnings
	@client/scripts/api-types.sh --check
	cd client && npx eslint . && npx tsc -b --noEmit
	cd e2e && npm run --silent typecheck

test-deploy:
	@for f in deploy/*.sh .ci/run; do bash -n "$$f"; done
	@deploy/check-nginx.sh

test-server:
	$(CARGO) test --workspace

test-client: client-deps
	@if [ -f client/package.json ]; then (cd client && npm test); fi

e2e-deps:
	@if [ ! -d e2e/node_modules ] || [ e2e/package-lock.json -nt e2e/node_modules/.package-lock.json ]; then \
	  (cd e2e && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund); \
	fi

test-e2e: e2e-deps
	cd e2e && npx playwright test

# API fuzzing with schemathesis, a bounded number of examples per operation and role.
test-fuzz:
	@fuzz/run.sh quick

# The long runs: fuzzing with many more examples, and the high-availability failover test.
soak: build
	@deploy/with-database.sh $(MAKE) --no-print-directory soak-all

soak-all: soak-fuzz soak-ha

soak-fuzz:
	@fuzz/run.sh long

soak-ha:
	@soak/ha.sh

# Benchmarks on a throwaway database: throughput against pgbench, 1,000 tenants, read paths,
# client bundle sizes. See docs/performance.md.
bench:
	@bench/run.sh

clean-data: stop
	rm -rf $(DATA_DIR)

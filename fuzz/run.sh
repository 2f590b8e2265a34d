#!/usr/bin/env bash
# API fuzzing with schemathesis: every operation of /api/openapi.json with a token of each role,
# against the real `loyalty serve` on a database of its own. See fuzz/fuzz.py.
#
#   fuzz/run.sh quick   a bounded number of examples per operation and role (`make test`)
#   fuzz/run.sh long    many more (`make soak`)
#
# Needs DATABASE_URL (a superuser URL: `make test` and `make soak` run this inside
# deploy/with-database.sh) and target/debug/loyalty (`make build`). The Python packages of
# fuzz/requirements.txt go into fuzz/.venv, made again only when that file changes.
set -euo pipefail
cd "$(dirname "$0")/.."

venv=fuzz/.venv
want=$(sha256sum fuzz/requirements.txt | cut -d' ' -f1)
if [ ! -x "$venv/bin/python" ] || [ "$(cat "$venv/requirements.sha256" 2>/dev/null)" != "$want" ]; then
  echo "fuzz: installing fuzz/requirements.txt into $venv"
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check --no-input -r fuzz/requirements.txt
  echo "$want" >"$venv/requirements.sha256"
fi

exec "$venv/bin/python" fuzz/fuzz.py "$@"

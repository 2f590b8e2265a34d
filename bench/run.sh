#!/usr/bin/env bash
# placeholder: being built
set -euo pipefail
echo "bench/run.sh: not built yet"

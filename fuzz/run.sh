#!/usr/bin/env bash
# placeholder: being built
set -euo pipefail
echo "fuzz/run.sh: not built yet"

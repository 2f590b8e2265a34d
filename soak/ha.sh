#!/usr/bin/env bash
# placeholder: being built
set -euo pipefail
echo "soak/ha.sh: not built yet"

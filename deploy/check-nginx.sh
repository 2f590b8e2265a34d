#!/usr/bin/env bash
# Checks deploy/nginx/loyalty.conf with `nginx -t`, inside a throwaway main configuration and
# with a throwaway self-signed certificate (deploy/nginx-local.sh). Skips (exit 0) where nginx
# is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

nginx_bin=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -z "$nginx_bin" ]; then
  echo "nginx not installed: skipping the configuration check"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
conf=$(deploy/nginx-local.sh render "$tmp" 8080 8443 8081)
"$nginx_bin" -t -q -c "$conf" -p "$tmp"
echo "nginx configuration: ok"

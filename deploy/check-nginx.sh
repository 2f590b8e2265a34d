#!/usr/bin/env bash
# Checks deploy/nginx/loyalty.conf with `nginx -t`, inside a throwaway main configuration and
# with a throwaway self-signed certificate. Skips (exit 0) where nginx is not installed.
set -euo pipefail
cd "$(dirname "$0")/.."

nginx_bin=$(command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true)
if [ -z "$nginx_bin" ]; then
  echo "nginx not installed: skipping the configuration check"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=loyalty.test" \
  -keyout "$tmp/privkey.pem" -out "$tmp/fullchain.pem" >/dev/null 2>&1
sed -e "s#/etc/ssl/loyalty/#$tmp/#g" deploy/nginx/loyalty.conf > "$tmp/site.conf"
cat > "$tmp/nginx.conf" <<CONF
pid $tmp/nginx.pid;
error_log $tmp/error.log;
events {}
http {
  access_log off;
  client_body_temp_path $tmp/body;
  proxy_temp_path $tmp/proxy;
  include $tmp/site.conf;
}
CONF
"$nginx_bin" -t -q -c "$tmp/nginx.conf" -p "$tmp"
echo "nginx configuration: ok"

#!/usr/bin/env bash
# deploy/nginx/loyalty.conf on this machine, unprivileged ports and a throwaway self-signed
# certificate, for the configuration check (deploy/check-nginx.sh) and `make bench`.
#
#   deploy/nginx-local.sh render DIR UPSTREAM_PORT HTTPS_PORT HTTP_PORT   # DIR/nginx.conf, certificate
#   deploy/nginx-local.sh start  DIR UPSTREAM_PORT HTTPS_PORT HTTP_PORT   # renders, then runs nginx
#   deploy/nginx-local.sh stop   DIR
#   deploy/nginx-local.sh spki   DIR   # the certificate's SPKI hash, for a browser to trust it
#
# The site listens on 127.0.0.1 only, proxies to the server at 127.0.0.1:UPSTREAM_PORT, and
# answers https://127.0.0.1:HTTPS_PORT (the port-80 redirect on HTTP_PORT).
set -euo pipefail
cd "$(dirname "$0")/.."

nginx_bin() { command -v nginx || ls /usr/sbin/nginx 2>/dev/null || true; }

render() {
  local dir=$1 upstream=$2 https=$3 http=$4
  mkdir -p "$dir"
  dir=$(cd "$dir" && pwd)
  [ -f "$dir/privkey.pem" ] || openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=loyalty.test" \
    -keyout "$dir/privkey.pem" -out "$dir/fullchain.pem" >/dev/null 2>&1
  sed -e "s#/etc/ssl/loyalty/#$dir/#g" \
    -e "s#server 127.0.0.1:8080 #server 127.0.0.1:$upstream #" \
    -e "s#listen 443 ssl#listen 127.0.0.1:$https ssl#" \
    -e "s#listen 80;#listen 127.0.0.1:$http;#" \
    -e '/listen \[::\]/d' \
    deploy/nginx/loyalty.conf >"$dir/site.conf"
  # As root, nginx's workers would run as `nobody` and could not write to DIR.
  cat >"$dir/nginx.conf" <<CONF
$([ "$(id -u)" = 0 ] && echo "user root;")
pid $dir/nginx.pid;
error_log $dir/error.log;
events {}
http {
  access_log off;
  client_body_temp_path $dir/body;
  proxy_temp_path $dir/proxy;
  fastcgi_temp_path $dir/fastcgi;
  uwsgi_temp_path $dir/uwsgi;
  scgi_temp_path $dir/scgi;
  include $dir/site.conf;
}
CONF
  echo "$dir/nginx.conf"
}

command=${1:-}
case "$command" in
  render)
    [ $# -eq 5 ] || { echo "usage: $0 render DIR UPSTREAM_PORT HTTPS_PORT HTTP_PORT" >&2; exit 2; }
    render "$2" "$3" "$4" "$5"
    ;;
  start)
    [ $# -eq 5 ] || { echo "usage: $0 start DIR UPSTREAM_PORT HTTPS_PORT HTTP_PORT" >&2; exit 2; }
    bin=$(nginx_bin)
    [ -n "$bin" ] || { echo "nginx is not installed" >&2; exit 1; }
    conf=$(render "$2" "$3" "$4" "$5")
    "$bin" -q -c "$conf" -p "$(dirname "$conf")"
    ;;
  stop)
    [ $# -eq 2 ] || { echo "usage: $0 stop DIR" >&2; exit 2; }
    bin=$(nginx_bin)
    dir=$(cd "$2" && pwd)
    if [ -n "$bin" ] && [ -f "$dir/nginx.pid" ]; then
      "$bin" -q -c "$dir/nginx.conf" -p "$dir" -s quit || true
      for _ in $(seq 50); do [ -f "$dir/nginx.pid" ] || break; sleep 0.1; done
    fi
    ;;
  spki)
    [ $# -eq 2 ] || { echo "usage: $0 spki DIR" >&2; exit 2; }
    openssl x509 -in "$2/fullchain.pem" -pubkey -noout | openssl pkey -pubin -outform der \
      | openssl dgst -sha256 -binary | base64
    ;;
  *)
    echo "usage: $0 render|start|stop|spki DIR [UPSTREAM_PORT HTTPS_PORT HTTP_PORT]" >&2
    exit 2
    ;;
esac

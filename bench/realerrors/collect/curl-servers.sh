#!/usr/bin/env bash
# The loopback servers curl's cases talk to (curl.conf starts them):
# python3's http.server on 127.0.0.1:18931 serving /tmp/re/curl-www, and
# `openssl s_server -www` on 127.0.0.1:18932 with a self-signed certificate.
# usage: curl-servers.sh start|stop     (pids in /tmp/re/curl-servers.pids)
set -u
www=/tmp/re/curl-www; pids=/tmp/re/curl-servers.pids
case "${1:-start}" in
start)
  if [ -s "$pids" ] && kill -0 $(cat "$pids") 2>/dev/null; then exit 0; fi
  mkdir -p "$www/dir"
  printf 'hello\n' > "$www/small.txt"; printf 'inner\n' > "$www/dir/index.html"
  head -c 100000 /dev/zero > "$www/big.bin"
  [ -f "$www/key.pem" ] || openssl req -x509 -newkey rsa:2048 -nodes -subj /CN=localhost \
      -keyout "$www/key.pem" -out "$www/cert.pem" -days 3650 >/dev/null 2>&1
  setsid python3 -m http.server 18931 --bind 127.0.0.1 --directory "$www" >/dev/null 2>&1 < /dev/null &
  echo $! > "$pids"
  setsid openssl s_server -accept 127.0.0.1:18932 -cert "$www/cert.pem" -key "$www/key.pem" -www -quiet >/dev/null 2>&1 < /dev/null &
  echo $! >> "$pids"
  sleep 1;;
stop)
  [ -s "$pids" ] && kill $(cat "$pids") 2>/dev/null; rm -f "$pids";;
esac

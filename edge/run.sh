#!/usr/bin/env bash
# make edge: the service with its embedded database, and nginx in front of it
# on loopback with a self-signed certificate: https://127.0.0.1:8443/events,
# http://127.0.0.1:8080 redirecting there. Ctrl-C stops both.
# Everything it writes stays in .data/edge (EDGE_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

dir="$PWD/${EDGE_DIR:-.data/edge}"
port="${PORT:-3000}"

nginx=$(command -v nginx || true)
if [ -z "$nginx" ] && [ -x /usr/sbin/nginx ]; then nginx=/usr/sbin/nginx; fi
if [ -z "$nginx" ]; then
  echo "make edge needs nginx: install your system's nginx package (apt-get install nginx on Debian and Ubuntu, brew install nginx on macOS)." >&2
  exit 1
fi
command -v curl >/dev/null 2>&1 || { echo "make edge needs curl to see when the service is ready: install your system's curl package." >&2; exit 1; }
command -v openssl >/dev/null 2>&1 || { echo "make edge needs openssl to make its certificate: install your system's openssl package." >&2; exit 1; }

mkdir -p "$dir/acme/.well-known/acme-challenge"
# A certificate for 127.0.0.1 and localhost, made once and again when it
# is about to expire; browsers will warn that nobody vouches for it.
if ! openssl x509 -checkend 86400 -noout -in "$dir/cert.pem" >/dev/null 2>&1; then
  echo "making a self-signed certificate in $dir"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 30 \
    -subj "/CN=events edge (make edge)" -addext "subjectAltName=IP:127.0.0.1,DNS:localhost" \
    -keyout "$dir/key.pem" -out "$dir/cert.pem" 2>/dev/null
fi

# As root, nginx's workers would run as nobody, who may not enter this
# folder (a home folder is often closed); on loopback, root workers are fine.
user=""
if [ "$(id -u)" = 0 ]; then user="-user=root"; fi
bin/events edge-config -https 127.0.0.1:8443 -http 127.0.0.1:8080 -upstream "127.0.0.1:$port" \
  -cert "$dir/cert.pem" -key "$dir/key.pem" -prefix "$dir" \
  -access-log "$dir/access.log" -error-log "$dir/error.log" ${user:+"$user"} >"$dir/nginx.conf"
"$nginx" -t -q -p "$dir" -c "$dir/nginx.conf" -e stderr

# Ctrl-C reaches the service and nginx as well (they are in the terminal's
# process group): each stops by itself, the service after its requests in
# flight and its database; the script waits for them. A second signal would
# cut the service short, so the script sends none then.
pids=()
finish() { # $1: the signal to send, if any
  trap - INT TERM EXIT
  if [ -n "${1:-}" ] && [ ${#pids[@]} -gt 0 ]; then kill "-$1" "${pids[@]}" 2>/dev/null || true; fi
  wait 2>/dev/null || true
}
trap 'finish; exit 130' INT
trap 'finish TERM; exit 143' TERM
trap 'finish TERM' EXIT # one of the two stopped, or the start failed: stop the other

HOST=127.0.0.1 PORT="$port" bin/events serve &
pids+=($!)
for _ in $(seq 300); do # the first start creates the database: a few seconds
  if curl -sf "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then break; fi
  kill -0 "${pids[0]}" 2>/dev/null || { echo "the service did not start" >&2; exit 1; }
  sleep 0.2
done
"$nginx" -p "$dir" -c "$dir/nginx.conf" -e stderr -g 'daemon off;' &
pids+=($!)
echo "events behind nginx: https://127.0.0.1:8443/events (self-signed: accept the browser's warning, or curl -k)"
echo "nginx's logs: $dir/access.log and error.log; Ctrl-C stops both"
while kill -0 "${pids[0]}" 2>/dev/null && kill -0 "${pids[1]}" 2>/dev/null; do sleep 1; done

#!/usr/bin/env bash
# make edge: the service with its embedded database, and nginx in front of it
# on loopback with a self-signed certificate: https://127.0.0.1:8443/events
# (EDGE_HTTPS_PORT), http://127.0.0.1:8080 (EDGE_HTTP_PORT) redirecting there;
# the service itself on PORT (3000). Ctrl-C stops both. When either cannot
# start or stops, the other is stopped and the script exits non-zero.
# Ctrl-C ends both cleanly and exits 0.
# Everything it writes stays in .data/edge (EDGE_DIR).
set -euo pipefail
cd "$(dirname "$0")/.."

dir="$PWD/${EDGE_DIR:-.data/edge}"
port="${PORT:-3000}"
https_port="${EDGE_HTTPS_PORT:-8443}"
http_port="${EDGE_HTTP_PORT:-8080}"

# A port another program holds stops the start here, before the service
# and its database start, with the variable that moves it.
for setting in "EDGE_HTTPS_PORT=$https_port" "EDGE_HTTP_PORT=$http_port" "PORT=$port"; do
  name="${setting%%=*}" n="${setting#*=}"
  if [[ ! "$n" =~ ^[0-9]{1,5}$ ]] || ((10#$n < 1 || 10#$n > 65535)); then
    echo "make edge: $name must be a port number from 1 to 65535, not \"$n\"." >&2
    exit 1
  fi
  if (exec 3<>"/dev/tcp/127.0.0.1/$n") 2>/dev/null; then
    echo "make edge: port $n is in use: stop the other program or start with $name=$((10#$n % 65535 + 1)) make edge" >&2
    exit 1
  fi
done
if [ "$https_port" = "$http_port" ]; then
  echo "make edge: EDGE_HTTPS_PORT and EDGE_HTTP_PORT are both $https_port: give them different ports." >&2
  exit 1
fi

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

# A password, as on a server: a service without one answers only this
# machine, and edge-config refuses to front it. Unless the environment
# brings credentials (or EVENTS_AUTH=off), a random password is made once
# and kept in $dir/password; the service gets its hash and a session key.
if [ -z "${EVENTS_PASSWORD_HASH:-}${EVENTS_API_TOKENS:-}" ] && [ "${EVENTS_AUTH:-on}" != off ]; then
  if [ ! -s "$dir/auth.env" ] || [ ! -s "$dir/password" ]; then
    (
      umask 077
      openssl rand -base64 18 >"$dir/password"
      hash=$(bin/events hash-password <"$dir/password")
      printf "EVENTS_PASSWORD_HASH='%s'\nEVENTS_SESSION_KEY='%s'\n" "$hash" "$(openssl rand -base64 32)" >"$dir/auth.env"
    )
  fi
  set -a
  . "$dir/auth.env"
  set +a
  echo "log in with the password in $dir/password"
fi

# As root, nginx's workers would run as nobody, who may not enter this
# folder (a home folder is often closed); on loopback, root workers are fine.
user=""
if [ "$(id -u)" = 0 ]; then user="-user=root"; fi
bin/events edge-config -https "127.0.0.1:$https_port" -http "127.0.0.1:$http_port" -upstream "127.0.0.1:$port" \
  -cert "$dir/cert.pem" -key "$dir/key.pem" -prefix "$dir" \
  -access-log "$dir/access.log" -error-log "$dir/error.log" ${user:+"$user"} >"$dir/nginx.conf"
"$nginx" -t -q -p "$dir" -c "$dir/nginx.conf" -e stderr

# Ctrl-C reaches the service and nginx as well (they are in the terminal's
# process group): each stops by itself, the service after its requests in
# flight and its database; the script waits for them, says so in one line
# and exits 0, as a clean stop (make runs it as a job of its own, so that
# make, which would die of the signal, never sees it). A second signal
# would cut the service short, so the script sends none then.
pids=()
finish() { # $1: the signal to send, if any
  trap - INT TERM EXIT
  if [ -n "${1:-}" ] && [ ${#pids[@]} -gt 0 ]; then kill "-$1" "${pids[@]}" 2>/dev/null || true; fi
  wait 2>/dev/null || true
}
trap 'finish; echo "make edge: stopped; the service and nginx have ended cleanly."; exit 0' INT
trap 'finish TERM; exit 143' TERM
trap 'finish TERM' EXIT # one of the two stopped, or the start failed: stop the other

HOST=127.0.0.1 PORT="$port" bin/events serve &
pids+=($!)
ready="" deadline=$((SECONDS + 120))
while ((SECONDS < deadline)); do # the first start creates the database: a few seconds
  if curl -sf --max-time 5 "http://127.0.0.1:$port/readyz" >/dev/null 2>&1; then ready=1; break; fi
  kill -0 "${pids[0]}" 2>/dev/null || { echo "make edge: the service did not start (its message is above)." >&2; exit 1; }
  sleep 0.2
done
[ -n "$ready" ] || { echo "make edge: the service did not answer /readyz within two minutes." >&2; exit 1; }
"$nginx" -p "$dir" -c "$dir/nginx.conf" -e stderr -g 'daemon off;' &
pids+=($!)
# nginx exits at once when it cannot listen (a port taken since the check
# above, or one below 1024 without root); until its HTTPS port answers,
# the edge has not started.
ready=""
for _ in $(seq 100); do
  if curl -sk --max-time 2 -o /dev/null "https://127.0.0.1:$https_port/healthz" 2>/dev/null; then ready=1; break; fi
  kill -0 "${pids[1]}" 2>/dev/null || break
  sleep 0.1
done
if [ -z "$ready" ]; then
  echo "make edge: nginx did not start (its message is above); the service is stopped too." >&2
  exit 1
fi
echo "events behind nginx: https://127.0.0.1:$https_port/events (self-signed: accept the browser's warning, or curl -k)"
echo "nginx's logs: $dir/access.log and error.log; Ctrl-C stops both"
while kill -0 "${pids[0]}" 2>/dev/null && kill -0 "${pids[1]}" 2>/dev/null; do sleep 1; done
if kill -0 "${pids[0]}" 2>/dev/null; then
  echo "make edge: nginx stopped (its message is above); the service is stopped too." >&2
else
  echo "make edge: the service stopped (its message is above); nginx is stopped too." >&2
fi
exit 1

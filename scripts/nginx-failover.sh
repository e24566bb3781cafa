#!/usr/bin/env bash
# nginx (Debian) in front of two `mathaloud serve` processes on loopback, under load (wrk), while one
# backend is drained (SIGTERM) and restarted and then the other is killed (SIGKILL) and restarted. Passes
# when no request fails (nginx retries what a backend refused or dropped: deploy/nginx.conf) and the
# drained backend finished the requests it had in flight — among them a batch whose body was still
# arriving when SIGTERM came — and exited 0.
#
# Usage: scripts/nginx-failover.sh [MATHALOUD_BINARY] [SECONDS]
#   default binary .build/release/mathaloud (else .build/debug/mathaloud); SECONDS (default 12) sets the
#   pace: a is drained after a sixth of it, b killed a sixth after a takes traffic again, and the load
#   goes on a sixth after b is back.
# Needs nginx, wrk, curl and python3 (scripts/install-deps.sh installs them). Traffic stays on 127.0.0.1;
# every process it starts is stopped on exit.
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-}
seconds=${2:-12}
if [[ -z $binary ]]; then
  binary=.build/release/mathaloud
  [[ -x $binary ]] || binary=.build/debug/mathaloud
fi
[[ -x $binary ]] || { echo "nginx-failover: no mathaloud binary at $binary (swift build first)" >&2; exit 2; }
for tool in nginx wrk curl python3; do
  command -v "$tool" >/dev/null || [[ -x /usr/sbin/$tool ]] || { echo "nginx-failover: $tool is missing (scripts/install-deps.sh)" >&2; exit 2; }
done
nginx_bin=$(command -v nginx || echo /usr/sbin/nginx)

work=$(mktemp -d "${TMPDIR:-/tmp}/mathaloud-failover.XXXXXX")
pids=()
cleanup() {
  [[ -f $work/nginx.pid ]] && kill "$(cat "$work/nginx.pid")" 2>/dev/null || true
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  wait 2>/dev/null || true
  if [[ ${KEEP:-0} != 1 ]]; then rm -rf "$work"; else echo "nginx-failover: kept $work" >&2; fi
}
trap cleanup EXIT
log() { echo "nginx-failover: $*" >&2; }

# Each backend takes its port from the kernel (--port 0) the first time, and the port is read from its
# own log: a port chosen by binding and releasing a socket here could be taken by another program (other
# tests of the suite open servers on port 0 at the same time) before the backend binds it, and that
# program would then answer in its place. A restart binds the same port again, and the script checks
# that the process it started is the one listening.
start_backend() {   # NAME PORT(0: any) → pid in $backend_pid, port in $backend_port
  local before
  before=$(grep -c 'listening on http' "$work/$1.log" 2>/dev/null || true)
  "$binary" serve --port "$2" --threads 1 --drain-grace 10 --log-format json >>"$work/$1.log" 2>&1 &
  backend_pid=$!
  pids+=("$backend_pid")
  backend_port=
  for _ in $(seq 1 600); do
    if (( $(grep -c 'listening on http' "$work/$1.log" || true) > ${before:-0} )); then
      backend_port=$(grep -o 'listening on http://127.0.0.1:[0-9]*' "$work/$1.log" | tail -1 | sed 's/.*://')
      break
    fi
    kill -0 "$backend_pid" 2>/dev/null || { log "backend $1 exited before it listened"; cat "$work/$1.log" >&2; exit 1; }
    sleep 0.05
  done
  [[ -n $backend_port ]] || { log "backend $1 did not start listening"; cat "$work/$1.log" >&2; exit 1; }
  for _ in $(seq 1 200); do
    curl -fsS "http://127.0.0.1:$backend_port/readyz" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  log "backend $1 did not become ready"; cat "$work/$1.log" >&2; exit 1
}

start_backend a 0; pid_a=$backend_pid; port_a=$backend_port
start_backend b 0; pid_b=$backend_pid; port_b=$backend_port

# nginx needs its port in its configuration: one is picked by binding and releasing a socket, and
# another is tried when nginx cannot bind it.
nginx_started=0
for _ in 1 2 3 4 5; do
  port_n=$(python3 -c '
import socket
s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()')
  sed -e "s/10\.0\.0\.11:8080/127.0.0.1:$port_a/" -e "s/10\.0\.0\.12:8080/127.0.0.1:$port_b/" \
      -e "s|listen 80;|listen 127.0.0.1:$port_n;|" -e "s|^pid .*|pid $work/nginx.pid;|" \
      -e "s|^error_log .*|error_log $work/nginx-error.log warn;|" -e "s/^worker_processes auto;/worker_processes 1;/" \
      deploy/nginx.conf >"$work/nginx.conf"
  if "$nginx_bin" -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log" 2>>"$work/nginx-start.log"; then
    nginx_started=1; break
  fi
done
[[ $nginx_started == 1 ]] || { log "nginx did not start"; cat "$work/nginx-start.log" >&2; exit 1; }
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port_n/healthz" >/dev/null 2>&1 && break
  sleep 0.05
done

cat >"$work/post.lua" <<'EOF'
wrk.method = "POST"
wrk.body = [[{"tex":"x^2+\\frac{a}{b}"}]]
wrk.headers["Content-Type"] = "application/json"
EOF
# The load runs until the last phase is over (wrk prints its summary on SIGINT), so both failovers
# happen under load however long the restarts take on a slow machine. A background job of a script
# inherits SIGINT ignored (and a test runner may block it), so wrk is started with SIGINT unblocked and
# at its default, for its own handler to take over.
load_start=$(date +%s.%N)
python3 -c 'import os, signal, sys
signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGINT])
signal.signal(signal.SIGINT, signal.SIG_DFL)
os.execvp(sys.argv[1], sys.argv[1:])' wrk -t1 -c8 -d"$((seconds * 20))s" -s "$work/post.lua" "http://127.0.0.1:$port_n/v1/speech" >"$work/wrk.txt" 2>&1 &
wrk_pid=$!
pids+=("$wrk_pid")

# A batch sent straight to backend a, its body arriving slowly, is in flight when a is told to stop.
python3 - "$port_a" >"$work/batch.txt" 2>&1 <<'EOF' &
import socket, sys, time
lines = [b'{"id": %d, "tex": "x_{%d}"}\n' % (i, i) for i in range(200)]
body = b"".join(lines)
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"POST /v1/speech:batch HTTP/1.1\r\nHost: a\r\nContent-Type: application/x-ndjson\r\nContent-Length: %d\r\n\r\n" % len(body))
for i in range(0, len(body), len(body) // 20 + 1):
    s.sendall(body[i:i + len(body) // 20 + 1])
    time.sleep(0.1)
data = b""
while True:
    chunk = s.recv(65536)
    if not chunk: break
    data += chunk
head, _, out = data.partition(b"\r\n\r\n")
print(head.split(b"\r\n")[0].decode(), len([l for l in out.split(b"\n") if l.startswith(b'{"diagnostics"')]))
EOF
batch_pid=$!

third=$((seconds * 1000 / 6))
sleep "$(python3 -c "print($third / 1000)")"
log "SIGTERM backend a (drain) at about $((third / 1000)) s"
kill -TERM "$pid_a"
status_a=0
wait "$pid_a" || status_a=$?
log "backend a exited with status $status_a"
start_backend a "$port_a"; pid_a=$backend_pid
[[ $backend_port == "$port_a" ]] || { log "backend a came back on another port"; exit 1; }
log "backend a restarted"
# nginx takes a backend back one probe after fail_timeout (1 s), and clears its failures only when a
# probe succeeds in a later second than the last failure, so a backend that answered its first probe in
# the second of its last refused connection stays out up to 2 s longer. Stopping the other backend
# before nginx has taken this one back would leave no live upstream: an operator restarting backends one
# by one waits for the same sign, the restarted one answering its share of the traffic again.
served_before=$(grep -c '"status":200' "$work/a.log" || true)
for _ in $(seq 1 200); do
  (( $(grep -c '"status":200' "$work/a.log" || true) > served_before + 100 )) && break
  sleep 0.05
done
if (( $(grep -c '"status":200' "$work/a.log" || true) > served_before + 100 )); then
  log "backend a takes traffic again"
else
  log "backend a took no traffic within 10 s of its restart"
fi
sleep "$(python3 -c "print($third / 1000)")"
log "SIGKILL backend b"
kill -KILL "$pid_b"
wait "$pid_b" 2>/dev/null || true
sleep 0.5
start_backend b "$port_b"; pid_b=$backend_pid
[[ $backend_port == "$port_b" ]] || { log "backend b came back on another port"; exit 1; }
log "backend b restarted"
sleep "$(python3 -c "print($third / 1000)")"
kill -INT "$wrk_pid" 2>/dev/null || true
for _ in $(seq 1 100); do kill -0 "$wrk_pid" 2>/dev/null || break; sleep 0.05; done
kill -0 "$wrk_pid" 2>/dev/null && { log "wrk did not stop on SIGINT"; kill -TERM "$wrk_pid" 2>/dev/null || true; }
wait "$wrk_pid" || true
load_seconds=$(python3 -c "import time; print(round(time.time() - $load_start, 1))")
wait "$batch_pid" || true

requests=$(awk '/requests in/ {print $1}' "$work/wrk.txt")
non2xx=$(awk -F': *' '/Non-2xx or 3xx responses/ {print $2}' "$work/wrk.txt")
socket_errors=$(grep -o 'Socket errors:.*' "$work/wrk.txt" || true)
batch=$(cat "$work/batch.txt")
drain_line=$(grep '"event":"draining"' "$work/a.log" | head -1)
stopped_line=$(grep '"event":"stopped"' "$work/a.log" | head -1)
in_flight=$(sed -n 's/.*"inFlight":"\([0-9]*\)".*/\1/p' <<<"$drain_line")
cut_off=$(sed -n 's/.*"cutOff":"\([0-9]*\)".*/\1/p' <<<"$stopped_line")
served_a=$(grep -c '"status":200' "$work/a.log" || true)
served_b=$(grep -c '"status":200' "$work/b.log" || true)

echo "nginx-failover: $requests requests through nginx in $load_seconds s; non-2xx: ${non2xx:-0}; ${socket_errors:-socket errors: none}"
echo "nginx-failover: backend a drained with ${in_flight:-?} requests in flight, cut off ${cut_off:-?}, exit status $status_a; b killed and restarted"
echo "nginx-failover: batch in flight on a during its drain: ${batch:-no answer} (of 200 lines)"
echo "nginx-failover: answered 200 by a: $served_a, by b: $served_b (both runs of each)"
failed=0
[[ -n $requests && $requests -gt 0 ]] || { log "FAIL: no requests"; failed=1; }
[[ -z $non2xx ]] || { log "FAIL: $non2xx requests failed"; failed=1; }
[[ -z $socket_errors ]] || { log "FAIL: $socket_errors"; failed=1; }
[[ $status_a == 0 ]] || { log "FAIL: backend a exited $status_a after SIGTERM"; failed=1; }
[[ $cut_off == 0 ]] || { log "FAIL: backend a cut off $cut_off requests"; failed=1; }
[[ $batch == "HTTP/1.1 200 OK 200" ]] || { log "FAIL: the batch in flight did not finish: $batch"; failed=1; }
if [[ $failed == 1 ]]; then
  # What made nginx give up: its error lines by upstream and cause, and every answer other than 200
  # that each backend logged, with the time line of the run (start, drain, restarts, kill).
  log "nginx errors by upstream and cause (a is $port_a, b is $port_b):"
  sed -n 's/.*\] [0-9]*#[0-9]*: \*[0-9]* \(.*\), client:.*upstream: "http:\/\/\([^/]*\)\/.*/\2 \1/p; s/.*\] [0-9]*#[0-9]*: \*[0-9]* \(no live upstreams\).*/all \1/p' \
    "$work/nginx-error.log" | sort | uniq -c >&2 || true
  grep -m3 'no live upstreams' "$work/nginx-error.log" | cut -c1-40 >&2 || true
  for b in a b; do
    log "backend $b, events and answers other than 200:"
    grep -v '"status":200' "$work/$b.log" | sed -E 's/"id":"[0-9a-f]*",//' | cut -c1-160 | head -20 >&2 || true
  done
  cat "$work/wrk.txt" >&2
  exit 1
fi
echo "nginx-failover: passed"

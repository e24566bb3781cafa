#!/usr/bin/env bash
# nginx (Debian) in front of two `mathaloud serve` processes on loopback, under load (wrk), while one
# backend is drained (SIGTERM) and restarted and then the other is killed (SIGKILL) and restarted. Passes
# when no request fails (nginx retries what a backend refused or dropped: deploy/nginx.conf) and the
# drained backend finished the requests it had in flight — among them a batch whose body was still
# arriving when SIGTERM came — and exited 0.
#
# Usage: scripts/nginx-failover.sh [MATHALOUD_BINARY] [SECONDS]
#   default binary .build/release/mathaloud (else .build/debug/mathaloud); default 12 s of load.
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

read -r port_a port_b port_n < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(3)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])
for s in ss: s.close()')

start_backend() {   # NAME PORT → pid in $backend_pid
  "$binary" serve --port "$2" --threads 1 --drain-grace 10 --log-format json >>"$work/$1.log" 2>&1 &
  backend_pid=$!
  pids+=("$backend_pid")
  for _ in $(seq 1 200); do
    curl -fsS "http://127.0.0.1:$2/readyz" >/dev/null 2>&1 && return 0
    sleep 0.05
  done
  log "backend $1 did not become ready"; cat "$work/$1.log" >&2; exit 1
}

start_backend a "$port_a"; pid_a=$backend_pid
start_backend b "$port_b"; pid_b=$backend_pid

sed -e "s/10\.0\.0\.11:8080/127.0.0.1:$port_a/" -e "s/10\.0\.0\.12:8080/127.0.0.1:$port_b/" \
    -e "s|listen 80;|listen 127.0.0.1:$port_n;|" -e "s|^pid .*|pid $work/nginx.pid;|" \
    -e "s|^error_log .*|error_log $work/nginx-error.log warn;|" -e "s/^worker_processes auto;/worker_processes 1;/" \
    deploy/nginx.conf >"$work/nginx.conf"
"$nginx_bin" -p "$work" -c "$work/nginx.conf" -e "$work/nginx-error.log"
for _ in $(seq 1 100); do
  curl -fsS "http://127.0.0.1:$port_n/healthz" >/dev/null 2>&1 && break
  sleep 0.05
done

cat >"$work/post.lua" <<'EOF'
wrk.method = "POST"
wrk.body = [[{"tex":"x^2+\\frac{a}{b}"}]]
wrk.headers["Content-Type"] = "application/json"
EOF
wrk -t1 -c8 -d"${seconds}s" -s "$work/post.lua" "http://127.0.0.1:$port_n/v1/speech" >"$work/wrk.txt" 2>&1 &
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
log "backend a restarted"
sleep "$(python3 -c "print($third / 1000)")"
log "SIGKILL backend b"
kill -KILL "$pid_b"
wait "$pid_b" 2>/dev/null || true
sleep 0.5
start_backend b "$port_b"; pid_b=$backend_pid
log "backend b restarted"
wait "$wrk_pid" || true
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

echo "nginx-failover: $requests requests through nginx in ${seconds} s; non-2xx: ${non2xx:-0}; ${socket_errors:-socket errors: none}"
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
  tail -5 "$work/nginx-error.log" >&2 || true
  cat "$work/wrk.txt" >&2
  exit 1
fi
echo "nginx-failover: passed"

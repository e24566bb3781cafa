#!/usr/bin/env bash
# Soak test (on demand, not in CI): `mathaloud serve` under mixed routes at about half its maximum rate
# for a long run (default 10 minutes), on loopback with wrk. Passes with 0 failed requests, resident
# memory flat (growth from the end of the first minute to the end under 5 %) and no descriptor leak
# (open descriptors at the end, once idle, no more than at the start plus 2).
#
# Usage: scripts/soak.sh [SECONDS] [RATE]   (default 600 s; RATE requests/s, default: half of a 5 s
#        full-rate run of the same mix). Builds the release binary when missing.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-600}
binary=.build/release/mathaloud
[[ -x $binary ]] || swift build -c release --static-swift-stdlib --product mathaloud
command -v wrk >/dev/null || { echo "soak.sh: wrk missing (scripts/install-deps.sh)" >&2; exit 2; }

work=$(mktemp -d "${TMPDIR:-/tmp}/mathaloud-soak.XXXXXX")
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done; wait 2>/dev/null || true; rm -rf "$work"' EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --port "$port" --log-format off >"$work/server.log" 2>&1 &
server=$!; pids+=("$server")
for _ in $(seq 1 200); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.05; done

# The mix: speech 50 %, labels 10 %, parse 10 %, render (SVG) 15 %, a 20-line batch 5 %, styles, metrics,
# health 10 %; formulas vary so the caches see new ones all the time.
cat >"$work/mix.lua" <<'EOF'
local n = 0
local pause = tonumber(os.getenv("PACE_MS") or "0")
local batch = {}
for i = 1, 20 do batch[#batch + 1] = '{"id":' .. i .. ',"tex":"x_{' .. i .. [[}+\\frac{1}{]] .. i .. '}"}' end
local batchBody = table.concat(batch, "\n") .. "\n"
local json = {["Content-Type"] = "application/json"}
request = function()
  n = n + 1
  local k = n % 20
  local tex = 'a_{' .. (n % 5000) .. [[}+\\sqrt{]] .. (n % 997) .. '}'
  if k < 10 then return wrk.format("POST", "/v1/speech", json, '{"tex":"' .. tex .. '"}')
  elseif k < 12 then return wrk.format("POST", "/v1/labels", json, '{"tex":"' .. tex .. '","template":"Math: {speech}"}')
  elseif k < 14 then return wrk.format("POST", "/v1/parse", json, '{"tex":"' .. tex .. '","format":"json"}')
  elseif k < 17 then return wrk.format("POST", "/v1/render", json, '{"tex":"' .. tex .. '"}')
  elseif k < 18 then return wrk.format("POST", "/v1/speech:batch", {["Content-Type"] = "application/x-ndjson"}, batchBody)
  elseif k < 19 then return wrk.format("GET", "/v1/styles")
  else return wrk.format("GET", (n % 2 == 0) and "/metrics" or "/healthz") end
end
if pause > 0 then function delay() return pause end end
EOF

rss() { awk '/VmRSS/ {print $2}' "/proc/$server/status"; }
fds() { ls "/proc/$server/fd" | wc -l; }
fd_start=$(fds)
if [[ -n ${2:-} ]]; then
  rate=$2
else
  wrk -t2 -c32 -d5s -s "$work/mix.lua" "http://127.0.0.1:$port" >"$work/full.txt" 2>&1
  rate=$(( $(awk '/Requests\/sec/ {printf "%d", $2}' "$work/full.txt") / 2 ))
fi
# Connections pausing 2 ms each, as many as the rate needs (wrk's pause is about 1 ms longer than asked).
conns=$(python3 -c "print(max(2, min(512, round($rate * 3 / 1000))))")
echo "soak.sh: ${seconds} s of mixed routes at about $rate requests/s ($conns connections), server pid $server"
PACE_MS=2 wrk -t2 -c"$conns" -d"${seconds}s" --latency -s "$work/mix.lua" "http://127.0.0.1:$port" >"$work/soak.txt" 2>&1 &
load=$!; pids+=("$load")
samples=()
start=$(date +%s)
while kill -0 "$load" 2>/dev/null; do
  sleep 10
  elapsed=$(( $(date +%s) - start ))
  samples+=("$elapsed:$(rss):$(fds)")
done
wait "$load" || true
sleep 2
fd_end=$(fds)
base=""
for s in "${samples[@]}"; do
  IFS=: read -r t r f <<<"$s"
  if [[ -z $base && $t -ge 60 ]]; then base=$r; fi
  last=$r; peak_fd=$f
done
base=${base:-${samples[0]#*:}}; base=${base%%:*}
growth=$(python3 -c "print(f'{(${last:-0} - ${base:-1}) / max(1, ${base:-1}) * 100:.1f}')")
requests=$(awk '/requests in/ {print $1}' "$work/soak.txt")
errors=$(grep -E 'Non-2xx|Socket errors' "$work/soak.txt" | tr -s ' ' | tr '\n' ';' || true)
echo "soak.sh: $requests requests, $(awk '/Requests\/sec/ {print $2}' "$work/soak.txt") req/s, p99 $(awk '$1 == "99%" {print $2}' "$work/soak.txt"); errors: ${errors:-none}"
echo "soak.sh: RSS $((base / 1024)) MiB after the first minute, $((last / 1024)) MiB at the end (${growth} %); descriptors $fd_start at the start, ${peak_fd} during the last sample, $fd_end at the end"
echo "soak.sh: RSS samples (s:KiB:fds): ${samples[*]}"
status=0
[[ -z $errors ]] || { echo "soak.sh: FAIL: failed requests" >&2; status=1; }
python3 -c "import sys; sys.exit(0 if $growth < 5 else 1)" || { echo "soak.sh: FAIL: RSS grew ${growth} %" >&2; status=1; }
(( fd_end <= fd_start + 2 )) || { echo "soak.sh: FAIL: descriptors $fd_start -> $fd_end" >&2; status=1; }
[[ $status == 0 ]] && echo "soak.sh: passed"
exit "$status"

#!/usr/bin/env bash
# OpenAPI contract test: schemathesis (PyPI, in .build/python-tools) generates requests from the served
# /openapi.json — property-based, valid and invalid bodies, every route — and checks every answer:
# no server error (5xx), a status the document lists for the route, the documented content type and
# headers, and a body that matches the documented schema. Passes with 0 failures and at least
# MIN_REQUESTS generated requests.
#
# Usage: scripts/contract-test.sh [MATHALOUD_BINARY] [MAX_EXAMPLES]   (defaults: the release binary,
#        else the debug one; 120 examples per operation and phase). Environment: MIN_REQUESTS (1000).
set -euo pipefail
cd "$(dirname "$0")/.."
binary=${1:-}
examples=${2:-120}
min=${MIN_REQUESTS:-1000}
if [[ -z $binary ]]; then
  binary=.build/release/mathaloud
  [[ -x $binary ]] || binary=.build/debug/mathaloud
fi
st=.build/python-tools/bin/st
[[ -x $st ]] || { echo "contract-test: schemathesis is missing (scripts/install-deps.sh installs it)" >&2; exit 2; }
work=$(mktemp -d "${TMPDIR:-/tmp}/mathaloud-contract.XXXXXX")
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
"$binary" serve --port "$port" --log-format off --request-timeout 2 >"$work/server.log" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$work"' EXIT
for _ in $(seq 1 200); do curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && break; sleep 0.05; done

status=0
PYTHONPATH=scripts SCHEMATHESIS_HOOKS=schemathesis_hooks "$st" run "http://127.0.0.1:$port/openapi.json" \
  --checks not_a_server_error,status_code_conformance,content_type_conformance,response_headers_conformance,response_schema_conformance \
  --max-examples "$examples" --seed 20261201 --request-timeout 10 --suppress-health-check all \
  --phases examples,coverage,fuzzing >"$work/st.txt" 2>&1 || status=$?
generated=$(grep -oE '[0-9]+ generated' "$work/st.txt" | tail -1 | grep -oE '[0-9]+' || echo 0)
summary=$(grep -E '^=+ .* in [0-9.]+s =+$' "$work/st.txt" | tail -1 | tr -d '=' | sed 's/^ *//; s/ *$//')
alive=$(curl -fsS "http://127.0.0.1:$port/healthz" 2>/dev/null || echo "no answer")
echo "contract-test: $generated generated requests; schemathesis: ${summary:-no summary}; server afterwards: $alive"
if [[ $status -ne 0 || $generated -lt $min || $alive != '{"status":"ok"}' ]]; then
  sed -n '/FAILURES/,$p' "$work/st.txt" | head -120 >&2
  [[ $generated -ge $min ]] || echo "contract-test: FAIL: fewer than $min requests" >&2
  exit 1
fi
echo "contract-test: passed"

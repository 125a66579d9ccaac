#!/usr/bin/env bash
# Fuzz every target (or those named) for SECONDS each, with the limits errbook promises on any
# input: no panic, no input taking over 2 s, no more than 1 GB of memory, inputs up to 1 MB.
#
#   bash fuzz/run.sh 60                  # every target, a minute each (CI runs a short one)
#   bash fuzz/run.sh 3600 entry article  # an hour each for two targets
#
# New inputs go to a temporary corpus (the repository's fuzz/corpus/<target>/ is read as seeds
# and left as it is; `cargo fuzz cmin` it by hand to keep new finds). A crash, timeout or
# memory blow-up fails the run and leaves the input under fuzz/artifacts/<target>/.
#
# Only the stable toolchain exists here: RUSTC_BOOTSTRAP=1 lets cargo-fuzz's nightly flags
# through, and no sanitizer is used (`-s none`): safe Rust needs none to find panics, hangs and
# memory blow-ups, and it runs several times faster.
set -euo pipefail
cd "$(dirname "$0")/.."

SECONDS_EACH="${1:-60}"
shift || true
if ! command -v cargo-fuzz >/dev/null 2>&1; then
  echo "fuzz: installing cargo-fuzz"
  cargo install cargo-fuzz --locked --version 0.13.2
fi
export RUSTC_BOOTSTRAP=1
if [ "$#" -gt 0 ]; then TARGETS="$*"; else TARGETS="$(cargo fuzz list)"; fi

cargo fuzz build -s none
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for t in $TARGETS; do
  mkdir -p "$work/$t" "fuzz/corpus/$t"
  dict=()
  if [ -f "fuzz/dicts/$t.dict" ]; then dict=("-dict=fuzz/dicts/$t.dict"); fi
  echo "fuzz: $t for ${SECONDS_EACH}s"
  cargo fuzz run -s none "$t" "$work/$t" "fuzz/corpus/$t" -- \
    -max_total_time="$SECONDS_EACH" -max_len=1048576 -timeout=2 \
    -rss_limit_mb=1024 -malloc_limit_mb=1024 -print_final_stats=1 "${dict[@]}" 2>&1 |
    grep -E "^(#[0-9]+.*(DONE|INITED)|stat::|==[0-9]+==|SUMMARY|ERROR|Test unit written|panicked|Done)" || true
  status=${PIPESTATUS[0]}
  if [ "$status" -ne 0 ]; then
    echo "fuzz: $t failed (status $status); the input is under fuzz/artifacts/$t/" >&2
    exit 1
  fi
done
echo "fuzz: no crash, timeout or memory blow-up in: $TARGETS"

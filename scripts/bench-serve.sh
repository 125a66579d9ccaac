#!/usr/bin/env bash
# `errbook serve`'s edit-to-visible-page latency in headless Chromium (scripts/bench-serve.mjs),
# on this repository's catalog and on a 10,000-page synthetic one (errbook-synth, as
# scripts/bench.sh makes it), in Chromium and without a browser (scripts/bench-serve-http.py: the
# server's part alone). Needs chromium and `npm ci` in tests/browser (see .ci/browser.sh).
# Targets: under 200 ms here, under 500 ms at 10,000 pages. Prints figures; asserts nothing.
#
#   bash scripts/bench-serve.sh            # RUNS=20 PAGES=10000 SEED=1
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${RUNS:-20}
PAGES=${PAGES:-10000}
SEED=${SEED:-1}
cargo build --release --locked --quiet
export ERRBOOK_BIN=${ERRBOOK_BIN:-"${CARGO_TARGET_DIR:-$PWD/target}/release/errbook"}
SYNTH="${CARGO_TARGET_DIR:-$PWD/target}/release/errbook-synth"
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
node scripts/bench-serve.mjs "" "$RUNS"
mkdir "$WORK/repo" && cp -r content verify book.toml "$WORK/repo/"
python3 scripts/bench-serve-http.py "$ERRBOOK_BIN" "$WORK/repo" "$RUNS"   # without a browser
"$SYNTH" --out "$WORK" --entries $((PAGES - PAGES / 20)) --articles $((PAGES / 20)) --seed "$SEED" \
  --sites errbook --theme "$PWD/themes/default" 2>/dev/null
node scripts/bench-serve.mjs "$WORK/errbook" "$RUNS"
python3 scripts/bench-serve-http.py "$ERRBOOK_BIN" "$WORK/errbook" "$RUNS"

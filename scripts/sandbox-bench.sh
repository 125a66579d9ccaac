#!/usr/bin/env bash
# What the sandbox costs a run: the same catalog of N trivial snippets (`print(i)`) verified
# with --sandbox none and with bubblewrap, one run at a time (--jobs 1) so that the figure is
# per run, REPEAT times each; prints the wall time of each session and the mean per run.
#
#   bash scripts/sandbox-bench.sh                 # N=40 REPEAT=3, target/release/errbook
#   N=100 REPEAT=5 ERRBOOK=path/to/errbook bash scripts/sandbox-bench.sh
#   BWRAP=target/dist/bwrap ERRBOOK=target/dist/errbook bash scripts/sandbox-bench.sh  # no bwrap on PATH
set -euo pipefail
cd "$(dirname "$0")/.."
N=${N:-40}
REPEAT=${REPEAT:-3}
ERRBOOK=${ERRBOOK:-target/release/errbook}
BWRAP=${BWRAP:-$(command -v bwrap || true)}
[ -x "$ERRBOOK" ] || cargo build --release --quiet
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/content/articles"
printf '[site]\ntitle = "sandbox bench"\n' > "$work/book.toml"
{
  printf -- '---\ntitle: "Trivial runs"\ndate: "2025-01-30"\nid: "bench"\n---\n'
  for i in $(seq "$N"); do printf '\n```python run id=s%d\nprint(%d)\n```\n' "$i" "$i"; done
} > "$work/content/articles/bench.md"
echo "errbook: $ERRBOOK; $N snippets, one at a time; $(nproc) cores; $("$BWRAP" --version 2>/dev/null || echo 'no bwrap')"
for mode in none bwrap; do
  for r in $(seq "$REPEAT"); do
    rm -rf "$work/verify"
    start=$(date +%s.%N)
    "$ERRBOOK" --root "$work" verify --sandbox "$mode" ${BWRAP:+--bwrap "$BWRAP"} --jobs 1 --gpus none >/dev/null 2>&1
    end=$(date +%s.%N)
    awk -v m="$mode" -v r="$r" -v s="$start" -v e="$end" -v n="$N" \
      'BEGIN { printf "%-6s run %d: %6.2f s, %5.1f ms per snippet\n", m, r, e - s, (e - s) * 1000 / n }'
  done
done

#!/usr/bin/env bash
# Fuzz with targets built elsewhere, on a machine with many cores and no Rust toolchain: every
# target at once, each with its share of the cores, for SECONDS, under the same limits as
# fuzz/run.sh (no panic, no input over 2 s, no more than 1 GB, inputs up to 1 MB).
#
#   bash fuzz/run.sh 1 && bash fuzz/pack-built.sh     # here: fuzz/built.tar.xz, stripped targets
#   bash fuzz/run-built.sh fuzz/built.tar.xz 540 OUTDIR   # there
#
# OUTDIR receives each target's log and final stats, the inputs it found that fail (crashes,
# timeouts, out of memory: artifacts/<target>/) and its new corpus (corpus-<target>.tar.gz) to
# minimise with `cargo fuzz cmin` back here. Exits 1 when any target found a failing input.
set -uo pipefail
cd "$(dirname "$0")/.."

PACK=${1:?usage: run-built.sh PACK SECONDS OUTDIR}
SECONDS_EACH=${2:?usage}
OUT=${3:?usage}
mkdir -p "$OUT"
bin=$(mktemp -d)
tar -xJf "$PACK" -C "$bin"
targets=$(ls "$bin")
n=$(echo "$targets" | wc -w)
cores=$(nproc)
share=$(( cores / n )); [ "$share" -lt 1 ] && share=1

for t in $targets; do
  mkdir -p "$OUT/artifacts/$t" "$OUT/new/$t"
  seeds=()
  [ -d "fuzz/corpus/$t" ] && seeds=("fuzz/corpus/$t")   # a missing folder would stop libFuzzer
  dict=()
  [ -f "fuzz/dicts/$t.dict" ] && dict=("-dict=fuzz/dicts/$t.dict")
  # -fork runs `share` worker processes; a failing input stops only its worker (-ignore_*).
  "$bin/$t" "$OUT/new/$t" "${seeds[@]}" -fork="$share" -ignore_crashes=1 -ignore_timeouts=1 \
    -ignore_ooms=1 -max_total_time="$SECONDS_EACH" -max_len=1048576 -timeout=2 \
    -rss_limit_mb=1024 -malloc_limit_mb=1024 -print_final_stats=1 \
    -artifact_prefix="$OUT/artifacts/$t/" "${dict[@]}" >"$OUT/$t.log" 2>&1 &
done
wait

found=0
for t in $targets; do
  execs=$(grep -o 'exec/s: [0-9]*' "$OUT/$t.log" | tail -1)
  last=$(grep -E '^#[0-9]+' "$OUT/$t.log" | tail -1 | cut -c1-120)
  failing=$(ls "$OUT/artifacts/$t" | wc -l)
  [ "$failing" -gt 0 ] && found=1
  echo "$t: ${share} workers, ${SECONDS_EACH}s; failing inputs: $failing; last: $last ($execs)"
  tar -czf "$OUT/corpus-$t.tar.gz" -C "$OUT/new" "$t"
done
rm -rf "$OUT/new"
exit $found

#!/usr/bin/env bash
# Verify this catalog on a GPU host with the portable binary, as the committed records were made:
# what the host is, every runnable snippet it can run (`--force`), the session's report (plan,
# packing timeline, verdicts), the log, and the records (a tarball), all under OUT to bring back and commit.
#
#   bash scripts/dist.sh                              # here: target/dist/errbook
#   OUT=/tmp/h100 bash scripts/verify-gpu-host.sh     # there, in a copy of this repository
#   SEQUENTIAL=1 OUT=... bash scripts/verify-gpu-host.sh   # first a baseline, one run per GPU
#   BASELINE_ARGS="--sandbox none" SEQUENTIAL=1 ...          # the baseline unconfined, to compare
#
# Extra arguments go to `errbook verify` (`--only TEXT`, `--gpus 0`, ...). ERRBOOK names another
# binary. The baseline runs in a copy of the catalog, so only the packed session's records stay.
set -euo pipefail
cd "$(dirname "$0")/.."

BIN="${ERRBOOK:-target/dist/errbook}"
OUT="${OUT:-target/gpu-host}"
mkdir -p "$OUT"

nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv | tee "$OUT/gpus.csv"
python3 -c 'import sys, torch; print("python", sys.version.split()[0], "torch", torch.__version__, "cuda", torch.version.cuda, "gpus", torch.cuda.device_count())' |
  tee "$OUT/python.txt"
"$BIN" --version | tee "$OUT/errbook-version.txt"

if [ "${SEQUENTIAL:-0}" = 1 ]; then
  base="$(mktemp -d)"
  cp -r book.toml content verify "$base/"
  echo "== baseline: one run per GPU at a time"
  "$BIN" --root "$base" verify --force --allow-contradictions --gpu-mem-cap 0 \
    --report "$OUT/report-one-per-gpu.json" "$@" ${BASELINE_ARGS:-} >"$OUT/verify-one-per-gpu.log" 2>&1
  tail -5 "$OUT/verify-one-per-gpu.log"
  tar -czf "$OUT/records-one-per-gpu.tar.gz" -C "$base" verify
  rm -rf "$base"
fi

echo "== packed by GPU memory"
"$BIN" verify --force --allow-contradictions --report "$OUT/report.json" "$@" 2>&1 |
  tee "$OUT/verify.log"
tar -czf "$OUT/records.tar.gz" verify

#!/usr/bin/env bash
# The fuzz targets that fuzz/run.sh built, stripped and packed into fuzz/built.tar.xz (ignored)
# for fuzz/run-built.sh on another machine (same architecture, glibc at least this one's).
set -euo pipefail
cd "$(dirname "$0")"
dir=target/x86_64-unknown-linux-gnu/release
stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT
for t in $(ls fuzz_targets | sed -n 's/\.rs$//p' | grep -v '^common$'); do
  strip -o "$stage/$t" "$dir/$t"
done
tar -cJf built.tar.xz -C "$stage" .
ls -la built.tar.xz

#!/usr/bin/env bash
# Debian's bubblewrap for a machine without a package manager (a GPU host), taken out of the
# packages without installing them (apt-get download, dpkg-deb -x), into target/dist/ (ignored):
#
#   target/dist/bwrap.debian   the binary exactly as Debian ships it
#   target/dist/lib/           the shared libraries it needs beyond glibc (libcap, libselinux,
#                              libpcre2-8), from the same Debian release
#   target/dist/bwrap          the same binary with RUNPATH=$ORIGIN/lib (patchelf), so that it
#                              finds those libraries beside it on a host that lacks them
#
# Copy target/dist/ (with errbook) to the host and point errbook at it: `verify.bwrap =
# "/path/dist/bwrap"` in book.toml or `--bwrap /path/dist/bwrap`; check it there with
# scripts/sandbox-check.sh. The host needs glibc 2.34 or newer (printed below).
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${OUT:-$PWD/target/dist}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export DEBIAN_FRONTEND=noninteractive
if ! command -v patchelf >/dev/null; then
  apt-get install -y --no-install-recommends patchelf >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y --no-install-recommends patchelf >/dev/null; }
fi
(cd "$work" && apt-get download bubblewrap libcap2 libselinux1 libpcre2-8-0 >/dev/null)
for deb in "$work"/*.deb; do dpkg-deb -x "$deb" "$work/root"; done
mkdir -p "$OUT/lib"
cp "$work/root/usr/bin/bwrap" "$OUT/bwrap.debian"
for lib in libcap.so.2 libselinux.so.1 libpcre2-8.so.0; do
  cp -L "$work/root/lib/x86_64-linux-gnu/$lib" "$OUT/lib/$lib" 2>/dev/null \
    || cp -L "$work/root/usr/lib/x86_64-linux-gnu/$lib" "$OUT/lib/$lib"
done
cp "$OUT/bwrap.debian" "$OUT/bwrap"
patchelf --set-rpath '$ORIGIN/lib' "$OUT/bwrap"
chmod 755 "$OUT/bwrap" "$OUT/bwrap.debian"
echo "== $(ls "$work"/*.deb | xargs -n1 basename | tr '\n' ' ')"
echo "== $OUT/bwrap: $("$OUT/bwrap" --version)"
echo "== shared libraries (ldd $OUT/bwrap.debian):"
ldd "$OUT/bwrap.debian" | sed 's/^/   /'
echo "== newest glibc symbol version it needs:"
objdump -T "$OUT/bwrap.debian" "$OUT"/lib/*.so.* 2>/dev/null | grep -o 'GLIBC_[0-9.]*' | sort -uV | tail -1 | sed 's/^/   /'

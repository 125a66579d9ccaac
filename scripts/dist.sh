#!/usr/bin/env bash
# The portable release binary: target/dist/errbook, for x86_64 Linux hosts with glibc 2.17 or
# newer (CentOS 7, the older distributions GPU clusters still run), with nothing else to install:
# the default theme is built in, and verify needs only Python (and nvidia-smi for GPUs).
#
#   bash scripts/dist.sh            # builds target/dist/errbook and checks its glibc symbols
#   GLIBC=2.28 bash scripts/dist.sh # another floor
#
# How: cargo-zigbuild links with zig's linker against glibc 2.17's symbol versions, through the
# toolchain's own x86_64-unknown-linux-gnu target (no other Rust target or toolchain is needed).
# Both tools come from PyPI, pinned, into a virtual environment under target/ (nothing is
# installed system-wide); DIST_TOOLS names another folder for it.
set -euo pipefail
cd "$(dirname "$0")/.."

GLIBC="${GLIBC:-2.17}"
TARGET="x86_64-unknown-linux-gnu"
TOOLS="${DIST_TOOLS:-target/dist-tools}"
ZIGBUILD_VERSION="0.24.0"
ZIG_VERSION="0.17.1"

if [ ! -x "$TOOLS/bin/cargo-zigbuild" ] || [ ! -x "$TOOLS/bin/python-zig" ]; then
  echo "dist: installing cargo-zigbuild $ZIGBUILD_VERSION and ziglang $ZIG_VERSION from PyPI into $TOOLS"
  python3 -m venv "$TOOLS"
  "$TOOLS/bin/pip" install --quiet --disable-pip-version-check \
    "cargo-zigbuild==$ZIGBUILD_VERSION" "ziglang==$ZIG_VERSION"
fi
export PATH="$(cd "$TOOLS/bin" && pwd):$PATH"

echo "dist: cargo zigbuild --release --target $TARGET.$GLIBC"
cargo zigbuild --release --locked --target "$TARGET.$GLIBC" --bin errbook

mkdir -p target/dist
# Symbols and line tables stay in the build folder's copy; the one to ship is stripped (10 MB).
if command -v strip >/dev/null; then
  strip -o target/dist/errbook "target/$TARGET/release/errbook"
else
  cp "target/$TARGET/release/errbook" target/dist/errbook
fi

# The newest glibc symbol version the binary asks for must not pass the floor.
newest="$(objdump -T target/dist/errbook | grep -o 'GLIBC_[0-9.]*' | sed 's/GLIBC_//' | sort -V | tail -1)"
lowest="$(printf '%s\n%s\n' "$newest" "$GLIBC" | sort -V | head -1)"
if [ "$lowest" != "$newest" ] && [ "$newest" != "$GLIBC" ]; then
  echo "dist: target/dist/errbook needs glibc $newest, more than $GLIBC" >&2
  exit 1
fi
size="$(du -h target/dist/errbook | cut -f1)"
echo "dist: target/dist/errbook ($size), needs glibc $newest at most (floor $GLIBC)"
target/dist/errbook --version

#!/usr/bin/env bash
# The browser tests (tests/browser/*.test.mjs) in real headless Chromium: errbook's search, hosted
# (errbook serve) and offline (file://), and script injection (every page of a catalog of
# payloads, under both). Called by .ci/run after `cargo test`; runs alone too:
#
#   bash .ci/browser.sh                                      # builds target/debug/errbook
#   ERRBOOK_BIN=target/release/errbook bash .ci/browser.sh   # uses that binary
#
# Needs Debian's chromium (installed here with apt-get when /usr/bin/chromium is missing; as
# root, or through sudo) and Node 20+ with npm (playwright-core's minimum). playwright-core
# drives chromium and never downloads a browser.
set -euo pipefail
cd "$(dirname "$0")/.."

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

apt_install() {
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@"
}

export CHROMIUM_BIN="${CHROMIUM_BIN:-/usr/bin/chromium}"
if [ ! -x "$CHROMIUM_BIN" ]; then
  echo "browser tests: installing Debian's chromium"
  apt_install chromium
fi
if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
  echo "browser tests: installing node and npm"
  apt_install nodejs npm
fi
if [ "$(node -p 'process.versions.node.split(".")[0]')" -lt 20 ]; then
  echo "browser tests: node $(node --version) is too old, playwright-core needs 20 or later" >&2
  exit 1
fi
"$CHROMIUM_BIN" --version 2>/dev/null || echo "browser tests: $CHROMIUM_BIN --version failed"

echo "browser tests: npm ci"
(cd tests/browser && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error)

if [ -z "${ERRBOOK_BIN:-}" ]; then
  cargo build --quiet
  ERRBOOK_BIN="$PWD/target/debug/errbook"
fi
if [ ! -x "$ERRBOOK_BIN" ]; then
  echo "browser tests: no errbook binary at $ERRBOOK_BIN" >&2
  exit 1
fi
export ERRBOOK_BIN

echo "browser tests: node --test (errbook: $ERRBOOK_BIN)"
# A hang fails the run instead of holding CI: every wait in the tests has its own limit, and
# the whole suite gets 10 minutes (it takes about 3: the injection tests open every page of
# a 429-page catalog twice).
timeout --kill-after=10 600 node --test --test-reporter=spec tests/browser/*.test.mjs

#!/usr/bin/env bash
# The tools the tests run besides the services: node (the search's JavaScript, checked against
# the Rust ranking by tests/it/search_parity.rs) and `script` (a terminal for
# tests/it/build_progress.rs; Debian's bsdutils). Installs what is missing from Debian's
# packages (as root, or through sudo) and prints the variables that make their tests required.
set -euo pipefail

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

missing=()
command -v node >/dev/null || missing+=(nodejs npm)
command -v script >/dev/null || missing+=(bsdutils)
if [ ${#missing[@]} -gt 0 ]; then
  echo "tools: installing ${missing[*]}" >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >&2
fi
node --version >&2
script --version >&2
echo "export ERRBOOK_TEST_NODE=1 ERRBOOK_TEST_SCRIPT=1"

#!/usr/bin/env bash
# The editor tests of `errbook lsp`: Neovim headless on a copy of the seed catalog
# (tests/editor/lsp.lua), and the VS Code extension (editors/vscode/) packaged with vsce.
# Called by .ci/run after the browser tests; runs alone too:
#
#   bash .ci/editor.sh                                      # builds target/debug/errbook
#   ERRBOOK_BIN=target/release/errbook bash .ci/editor.sh   # uses that binary
#
# Installs Debian's neovim when it is missing (scripts/services/neovim.sh); needs node and npm.
set -euo pipefail
cd "$(dirname "$0")/.."

bash scripts/services/neovim.sh
if [ -z "${ERRBOOK_BIN:-}" ]; then
  cargo build -q -p errbook
  ERRBOOK_BIN="${CARGO_TARGET_DIR:-target}/debug/errbook"
fi
export ERRBOOK_BIN="$(realpath "$ERRBOOK_BIN")"
CATALOG="$(mktemp -d)"
export CATALOG
trap 'rm -rf "$CATALOG"' EXIT
cp -r book.toml content themes verify "$CATALOG/"

echo "== editor: Neovim"
timeout 300 nvim --headless --clean -c "luafile tests/editor/lsp.lua"

echo "== editor: VS Code extension (vsce package)"
(cd editors/vscode && npm ci --no-audit --no-fund --loglevel=error && npx --no-install vsce package --out errbook.vsix)
ls -l editors/vscode/errbook.vsix

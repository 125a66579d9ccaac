#!/usr/bin/env bash
# Install Debian's Neovim when it is missing (as root, or through sudo): the editor of the
# end-to-end tests of `errbook lsp` (tests/editor/, run by .ci/editor.sh). A developer can run
# it by hand. Neovim 0.7 (Debian 12) has the LSP client built in, which the tests use.
set -euo pipefail
as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}
if ! command -v nvim >/dev/null; then
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim >/dev/null 2>&1 \
    || { as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq \
      && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends neovim >/dev/null; }
fi
echo "neovim: $(nvim --version | head -1)"

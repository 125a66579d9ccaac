#!/usr/bin/env bash
# Install Debian's bubblewrap when it is missing (as root) and check that it can make the
# sandbox errbook makes: what CI runs before the sandbox tests, and what a developer can run.
set -euo pipefail
if ! command -v bwrap >/dev/null; then
  if [ "$(id -u)" != 0 ]; then
    echo "bwrap.sh: bubblewrap is missing; install it (as root: apt-get install bubblewrap)" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y --no-install-recommends bubblewrap >/dev/null 2>&1 \
    || { apt-get update -qq && apt-get install -y --no-install-recommends bubblewrap >/dev/null; }
fi
bwrap --unshare-all --cap-drop ALL --die-with-parent --new-session --ro-bind / / \
  --dev /dev --proc /proc --tmpfs /tmp -- true
echo "bwrap: $(bwrap --version) makes sandboxes here"

#!/usr/bin/env bash
# A private sshd on 127.0.0.1 for errbook's SSH runner tests, runnable by hand:
#
#   bash scripts/services/sshd.sh start    # installs openssh-server if missing (as root)
#   export ERRBOOK_TEST_SSH_CONFIG=$PWD/target/services/sshd/ssh_config
#   cargo test --test it ssh
#   bash scripts/services/sshd.sh stop
#
# It generates a host key and a client key in its state folder (target/services/sshd, or
# $STATE), authorizes the key for the current user only, and writes an ssh client config in which
# `localhost` means this sshd (its port, the key, a known_hosts file holding its host key, strict
# host key checking). Nothing outside the state folder is touched but the package install and
# /run/sshd (the privilege separation folder sshd wants when started as root).
set -euo pipefail
cd "$(dirname "$0")/../.."
STATE=${STATE:-$PWD/target/services/sshd}
PORT=${PORT:-2222}

start() {
  if [ ! -x /usr/sbin/sshd ]; then
    if [ "$(id -u)" != 0 ]; then
      echo "sshd.sh: /usr/sbin/sshd is missing; install openssh-server (as root: apt-get install openssh-server)" >&2
      exit 1
    fi
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y --no-install-recommends openssh-server openssh-client >/dev/null 2>&1 \
      || { apt-get update -qq && apt-get install -y --no-install-recommends openssh-server openssh-client >/dev/null; }
  fi
  stop >/dev/null 2>&1 || true
  mkdir -p "$STATE"
  chmod 700 "$STATE"
  [ -f "$STATE/host_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$STATE/host_key"
  [ -f "$STATE/client_key" ] || ssh-keygen -q -t ed25519 -N '' -f "$STATE/client_key"
  cp "$STATE/client_key.pub" "$STATE/authorized_keys"
  chmod 600 "$STATE/authorized_keys"
  cat > "$STATE/sshd_config" <<CONF
Port $PORT
ListenAddress 127.0.0.1
HostKey $STATE/host_key
AuthorizedKeysFile $STATE/authorized_keys
PidFile $STATE/sshd.pid
PasswordAuthentication no
KbdInteractiveAuthentication no
PubkeyAuthentication yes
PermitRootLogin prohibit-password
AllowUsers $(id -un)
StrictModes no
UsePAM no
Subsystem sftp internal-sftp
CONF
  echo "[127.0.0.1]:$PORT $(cat "$STATE/host_key.pub")" > "$STATE/known_hosts"
  # Two names for the one sshd, so that tests can share a plan between two "hosts".
  cat > "$STATE/ssh_config" <<CONF
Host localhost errbook-b
  HostName 127.0.0.1
  Port $PORT
  User $(id -un)
  IdentityFile $STATE/client_key
  IdentitiesOnly yes
  UserKnownHostsFile $STATE/known_hosts
  StrictHostKeyChecking yes
  BatchMode yes
CONF
  if [ "$(id -u)" = 0 ]; then mkdir -p /run/sshd; fi
  /usr/sbin/sshd -f "$STATE/sshd_config" -E "$STATE/sshd.log"
  for _ in $(seq 50); do
    if ssh -F "$STATE/ssh_config" localhost true 2>/dev/null; then
      echo "sshd: up on 127.0.0.1:$PORT; ssh -F $STATE/ssh_config localhost"
      echo "export ERRBOOK_TEST_SSH_CONFIG=$STATE/ssh_config"
      return 0
    fi
    sleep 0.1
  done
  echo "sshd.sh: sshd did not answer; its log:" >&2
  cat "$STATE/sshd.log" >&2 || true
  exit 1
}

stop() {
  if [ -f "$STATE/sshd.pid" ]; then
    kill "$(cat "$STATE/sshd.pid")" 2>/dev/null || true
    rm -f "$STATE/sshd.pid"
  fi
}

case "${1:-start}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Does errbook's sandbox work on this machine? Run it on a GPU host before verifying there:
#
#   bash scripts/sandbox-check.sh [--bwrap PATH] [--errbook PATH] [--python CMD] [--user NAME]
#                                 [--seed CATALOG [--out DIR]]
#
# --bwrap    the bubblewrap binary (default: bwrap on PATH; scripts/dist-bwrap.sh makes a copy
#            for hosts without a package manager, target/dist/bwrap)
# --errbook  the errbook binary (default: target/release/errbook, else target/debug/errbook)
# --python   the Python with PyTorch (default: python3)
# --user     the unprivileged user for the checks run as one, when run as root (default: nobody)
# --seed     after the checks, verify this catalog sandboxed (errbook's default) with --force and
#            print, snippet by snippet, the verdict its records held before (unsandboxed runs)
#            beside the sandboxed run's; --out DIR receives the records (DIR/verify.tar.gz),
#            the session's --report (DIR/verify-report.json) and its output (DIR/verify.txt)
#
# It checks bubblewrap itself (runs, its libraries, user namespaces, a sandbox as this user and
# as an unprivileged one, a read-only root, no network, its own PID namespace), the GPU (with
# each /dev/nvidia* bound, PyTorch sees CUDA inside a sandbox with no network and a read-only
# root; without the binds it sees none), cgroup v2 with the memory and pids controllers, and
# errbook end to end (a GPU snippet confirmed in the sandbox, 10 GB stopped by a 1 GiB limit,
# the record's sandbox line). It prints one table of PASS/FAIL/WARN/SKIP/INFO and exits 1 on a
# FAIL. WARN: as an unprivileged user without a cgroup of its own, runs get no memory limit
# (errbook says so and records it).
set -uo pipefail
cd "$(dirname "$0")/.."

BWRAP=$(command -v bwrap || true)
ERRBOOK=""
PYTHON=python3
RUNAS=nobody
SEED=""
SEED_OUT=""
while [ $# -gt 0 ]; do
  case "$1" in
    --bwrap) BWRAP=$2; shift 2 ;;
    --errbook) ERRBOOK=$2; shift 2 ;;
    --python) PYTHON=$2; shift 2 ;;
    --user) RUNAS=$2; shift 2 ;;
    --seed) SEED=$2; shift 2 ;;
    --out) SEED_OUT=$2; shift 2 ;;
    *) echo "usage: $0 [--bwrap PATH] [--errbook PATH] [--python CMD] [--user NAME] [--seed CATALOG [--out DIR]]" >&2; exit 2 ;;
  esac
done
if [ -z "$ERRBOOK" ]; then
  for e in target/release/errbook target/debug/errbook; do [ -x "$e" ] && ERRBOOK=$e && break; done
fi
PY=$(command -v "$PYTHON" || echo "$PYTHON")
WORK=$(mktemp -d)
chmod 755 "$WORK"
trap 'rm -rf "$WORK"' EXIT

# How a command runs as $RUNAS (as root): setpriv, else runuser (both util-linux).
if command -v setpriv >/dev/null; then
  AS_USER=(setpriv --reuid="$RUNAS" --regid="$(id -g "$RUNAS" 2>/dev/null)" --clear-groups --)
else
  AS_USER=(runuser -u "$RUNAS" --)
fi

ROWS=()
FAILED=0
row() { # status, check, detail
  ROWS+=("$1|$2|$3")
  [ "$1" = FAIL ] && FAILED=1
  return 0
}
one_line() { tr '\n' ' ' | sed 's/  */ /g; s/ $//' | cut -c1-150; }

# The sandbox errbook makes, less what a check varies.
BASE=(--unshare-all --cap-drop ALL --die-with-parent --new-session --ro-bind / / --dev /dev
      --tmpfs /dev/shm --proc /proc --tmpfs /tmp)
GPU_BINDS=()
for d in /dev/nvidia*; do [ -e "$d" ] && GPU_BINDS+=(--dev-bind "$d" "$d"); done

check_bwrap() {
  if [ -z "$BWRAP" ] || ! [ -x "$BWRAP" ]; then
    row FAIL "bwrap runs" "no bubblewrap binary (--bwrap PATH, or scripts/dist-bwrap.sh)"
    return 1
  fi
  local v
  if v=$("$BWRAP" --version 2>&1); then row PASS "bwrap runs" "$BWRAP: $v"; else
    row FAIL "bwrap runs" "$(echo "$v" | one_line)"; return 1; fi
  local missing
  missing=$(ldd "$BWRAP" 2>&1 | grep 'not found' | one_line)
  if [ -n "$missing" ]; then row FAIL "bwrap's libraries" "missing: $missing"; else
    row PASS "bwrap's libraries" "$(ldd "$BWRAP" | awk '/=>/ {print $1}' | one_line)"; fi
  local ns="user.max_user_namespaces=$(cat /proc/sys/user/max_user_namespaces 2>/dev/null || echo ?)"
  [ -f /proc/sys/kernel/unprivileged_userns_clone ] && ns="$ns kernel.unprivileged_userns_clone=$(cat /proc/sys/kernel/unprivileged_userns_clone)"
  [ -f /proc/sys/kernel/apparmor_restrict_unprivileged_userns ] && ns="$ns kernel.apparmor_restrict_unprivileged_userns=$(cat /proc/sys/kernel/apparmor_restrict_unprivileged_userns)"
  row INFO "user namespaces" "$ns"
}

check_sandbox() {
  local out
  if out=$("$BWRAP" "${BASE[@]}" -- /bin/sh -c 'echo pid $$' 2>&1); then
    row PASS "sandbox as $(id -un)" "$out (its own PID namespace)"
  else
    row FAIL "sandbox as $(id -un)" "$(echo "$out" | one_line)"; return 1
  fi
  out=$("$BWRAP" "${BASE[@]}" -- /bin/sh -c 'touch /usr/.errbook-check 2>&1; touch /tmp/ok && echo tmp-writable' 2>&1)
  case "$out" in
    *"Read-only file system"*tmp-writable*) row PASS "read-only root" "/usr refused, /tmp writable" ;;
    *) row FAIL "read-only root" "$(echo "$out" | one_line)" ;;
  esac
  out=$("$BWRAP" "${BASE[@]}" -- /bin/sh -c "tail -n +3 /proc/net/dev | cut -d: -f1 | tr -d ' '" 2>&1)
  if [ "$(echo "$out" | one_line)" = lo ]; then row PASS "no network" "interfaces inside: lo"; else
    row FAIL "no network" "interfaces inside: $(echo "$out" | one_line)"; fi
}

check_unprivileged() {
  if [ "$(id -u)" != 0 ]; then
    row SKIP "sandbox as an unprivileged user" "already unprivileged (see above)"; return
  fi
  if ! id "$RUNAS" >/dev/null 2>&1; then row SKIP "sandbox as an unprivileged user" "no user $RUNAS"; return; fi
  # A copy the user may read, wherever the original lives (/root is private).
  mkdir -p "$WORK/bwrap"
  cp "$BWRAP" "$WORK/bwrap/bwrap"
  [ -d "$(dirname "$BWRAP")/lib" ] && cp -r "$(dirname "$BWRAP")/lib" "$WORK/bwrap/lib"
  chmod -R a+rX "$WORK/bwrap"
  local out
  if out=$("${AS_USER[@]}" "$WORK/bwrap/bwrap" "${BASE[@]}" -- /bin/sh -c 'id -un 2>/dev/null || id -u' 2>&1); then
    row PASS "sandbox as an unprivileged user" "as $RUNAS: $(echo "$out" | one_line)"
  else
    row FAIL "sandbox as an unprivileged user" "as $RUNAS: $(echo "$out" | one_line)"
  fi
}

TORCH='import torch
ok = torch.cuda.is_available()
print("cuda", ok, torch.cuda.device_count())
if ok:
    x = torch.ones(1024, device="cuda")
    print(torch.cuda.get_device_name(0), float(x.sum()))'

check_gpu() {
  if [ ${#GPU_BINDS[@]} -eq 0 ]; then
    row SKIP "GPU devices" "no /dev/nvidia* here"; return
  fi
  row INFO "GPU devices" "$(ls /dev/nvidia* | one_line)"
  [ -e /dev/nvidia-uvm ] || row FAIL "/dev/nvidia-uvm" "missing: a sandbox cannot create it; run nvidia-modprobe -u -c=0 or any CUDA program once"
  local out
  out=$("$BWRAP" "${BASE[@]}" "${GPU_BINDS[@]}" -- "$PY" -c "$TORCH" 2>&1)
  case "$out" in
    *"cuda True"*) row PASS "torch sees the GPU in a sandbox" "no network, read-only root: $(echo "$out" | one_line)" ;;
    *) row FAIL "torch sees the GPU in a sandbox" "$(echo "$out" | tail -3 | one_line)" ;;
  esac
  out=$("$BWRAP" "${BASE[@]}" -- "$PY" -c "$TORCH" 2>&1)
  case "$out" in
    *"cuda False"*) row PASS "no CUDA without the binds" "$(echo "$out" | grep '^cuda' | one_line)" ;;
    *) row FAIL "no CUDA without the binds" "$(echo "$out" | tail -3 | one_line)" ;;
  esac
}

check_cgroup() {
  local m c
  m=$(awk '$9 == "cgroup2" {print $5; exit}' /proc/self/mountinfo 2>/dev/null || true)
  if [ -z "$m" ]; then row FAIL "cgroup v2" "no cgroup2 mount"; return; fi
  c=$(cat "$m/cgroup.controllers" 2>/dev/null)
  case " $c " in
    *" memory "*" pids "*|*" pids "*" memory "*) row PASS "cgroup v2 memory and pids" "$m: $c" ;;
    *) row FAIL "cgroup v2 memory and pids" "$m: controllers '$c'" ;;
  esac
  row INFO "cgroup of this shell" "$(grep '^0::' /proc/self/cgroup 2>/dev/null); subtree_control at $m: '$(cat "$m/cgroup.subtree_control" 2>/dev/null)'"
}

# A catalog of three snippets: a GPU run, a CPU run, 10 GB.
catalog() {
  local root=$1
  mkdir -p "$root/content/articles"
  printf '[site]\ntitle = "sandbox check"\n\n[verify]\npython = "%s"\n' "$PY" > "$root/book.toml"
  cat > "$root/content/articles/check.md" <<'MD'
---
title: "Sandbox check"
date: "2025-01-30"
id: "check"
---
```python run id=cpu
print("hello")
```

```python run gpus=1 id=gpu
import torch
assert torch.cuda.is_available(), "no CUDA in the sandbox"
x = torch.ones(1 << 20, device="cuda")
print(torch.cuda.get_device_name(0), float(x.sum()))
```

```python run id=big timeout=120
block = b"x" * (10 * 1024 ** 3)
print(len(block))
```
MD
}

record() { # root snippet field
  "$PY" - "$1" "$2" "$3" <<'PY'
import glob, json, sys
root, snippet, field = sys.argv[1:]
# verify/articles/<id>/<snippet>.<hash16>/<environment>.json: one environment here.
for p in glob.glob(f"{root}/verify/articles/check/{snippet}.*/*.json"):
    print(json.load(open(p)).get(field, ""))
PY
}

check_errbook() { # label, run-as prefix...
  local label=$1; shift
  if [ -z "$ERRBOOK" ] || ! [ -x "$ERRBOOK" ]; then row SKIP "errbook $label" "no errbook binary (--errbook PATH)"; return; fi
  local root="$WORK/catalog-$RANDOM"
  catalog "$root"
  chmod -R a+rwX "$root"
  local only=()
  [ ${#GPU_BINDS[@]} -eq 0 ] && only=(--gpus none)
  local out
  out=$("$@" "$ERRBOOK" --root "$root" verify --allow-contradictions --bwrap "$BWRAP" --memory-limit 1G "${only[@]}" 2>&1)
  local cpu gpu big
  cpu=$(record "$root" cpu verdict); gpu=$(record "$root" gpu verdict); big=$(record "$root" big verdict)
  if [ "$cpu" = confirmed ]; then row PASS "errbook $label: CPU run" "$(record "$root" cpu sandbox)"; else
    row FAIL "errbook $label: CPU run" "verdict '$cpu': $(echo "$out" | tail -4 | one_line)"; fi
  if [ ${#GPU_BINDS[@]} -eq 0 ]; then row SKIP "errbook $label: GPU run" "no GPU here"
  elif [ "$gpu" = confirmed ]; then row PASS "errbook $label: GPU run" "$(record "$root" gpu log | one_line)"
  else row FAIL "errbook $label: GPU run" "verdict '$gpu': $(record "$root" gpu finding | one_line)"; fi
  if [ "$big" = stopped_by_limit ]; then row PASS "errbook $label: 10 GB under 1 GiB" "$(record "$root" big finding)"
  elif [ "$big" = confirmed ] && record "$root" cpu sandbox | grep -q "no memory limit"; then
    # No cgroup this user may make (not root, no delegated subtree): errbook warned and
    # recorded "no memory limit", as documented; root, or a delegated cgroup, gives one.
    row WARN "errbook $label: 10 GB under 1 GiB" "not limited: no cgroup for this user, recorded as '$(record "$root" cpu sandbox | sed 's/.*, //')'"
  else
    row FAIL "errbook $label: 10 GB under 1 GiB" "verdict '$big': $(record "$root" big finding | one_line)"; fi
}

if check_bwrap; then
  check_sandbox
  check_unprivileged
  check_gpu
fi
check_cgroup
if [ -n "$BWRAP" ] && [ -x "$BWRAP" ]; then
  check_errbook "as $(id -un)"
  if [ "$(id -u)" = 0 ] && id "$RUNAS" >/dev/null 2>&1; then
    BWRAP_SAVED=$BWRAP
    [ -x "$WORK/bwrap/bwrap" ] && BWRAP=$WORK/bwrap/bwrap
    cp "$ERRBOOK" "$WORK/errbook" 2>/dev/null && chmod 755 "$WORK/errbook" && ERRBOOK_SAVED=$ERRBOOK && ERRBOOK=$WORK/errbook
    if "${AS_USER[@]}" "$PY" -c pass 2>/dev/null; then
      check_errbook "as $RUNAS" env HOME=/nonexistent "${AS_USER[@]}"
    else
      row SKIP "errbook as $RUNAS" "$RUNAS cannot run $PY (a Python under /root?); --python names one every user can run"
    fi
    BWRAP=$BWRAP_SAVED; ERRBOOK=${ERRBOOK_SAVED:-$ERRBOOK}
  fi
fi

# Verdicts of a catalog's records by snippet: "page/snippet environment verdict sandbox" lines.
verdicts() { # records-dir
  "$PY" - "$1" <<'PY'
import glob, json, os, sys
root = sys.argv[1]
for p in sorted(glob.glob(f"{root}/**/*.json", recursive=True)):
    try:
        r = json.load(open(p))
    except Exception:
        continue
    rel = os.path.relpath(os.path.dirname(os.path.dirname(p)), root)
    snippet = os.path.basename(os.path.dirname(p)).split(".")[0]
    env = os.path.basename(p)[: -len(".json")]
    print(f"{rel}/{snippet}", env, r.get("verdict", "?"), (r.get("sandbox") or "-").split()[0])
PY
}

# The seed catalog verified in the sandbox, each verdict beside the one recorded before.
verify_seed() {
  if [ -z "$ERRBOOK" ] || ! [ -x "$ERRBOOK" ]; then row FAIL "seed catalog" "no errbook binary"; return; fi
  local out=${SEED_OUT:-$WORK/seed-out}
  mkdir -p "$out"
  local records=$SEED/verify
  [ -d "$records" ] && cp -r "$records" "$WORK/before"
  mkdir -p "$WORK/before"
  "$ERRBOOK" --root "$SEED" verify --force --allow-contradictions --bwrap "$BWRAP" \
    --report "$out/verify-report.json" >"$out/verify.txt" 2>&1
  local rc=$?
  # One file (a device's $OUT brings back few files, and none deep in folders).
  [ -d "$records" ] && tar -czf "$out/verify.tar.gz" -C "$SEED" "$(basename "$records")"
  verdicts "$WORK/before" | sort > "$WORK/before.txt"
  verdicts "$records" | sort > "$WORK/after.txt"
  # This session's records: those whose sandbox is bwrap (the others were there before).
  local same=0 differ=0 new=0
  echo; echo "seed catalog, sandboxed (errbook verify exited $rc; output in $out/verify.txt):"
  printf '%-70s %-18s %-18s\n' SNIPPET BEFORE SANDBOXED
  while read -r snippet env verdict sandbox; do
    [ "$sandbox" = bwrap ] || continue
    local prev
    prev=$(awk -v s="$snippet" -v e="$env" '$1 == s && $2 == e {print $3}' "$WORK/before.txt")
    [ -n "$prev" ] || prev=$(awk -v s="$snippet" '$1 == s {print $3}' "$WORK/before.txt" | sort -u | paste -sd/ -)
    if [ -z "$prev" ]; then new=$((new + 1)); prev="(none)"
    elif [ "$prev" = "$verdict" ]; then same=$((same + 1)); else differ=$((differ + 1)); fi
    printf '%-70s %-18s %-18s\n' "$snippet" "$prev" "$verdict"
  done < "$WORK/after.txt"
  local status=PASS
  [ $((same + differ + new)) -gt 0 ] || status=FAIL
  [ "$differ" -eq 0 ] || status=FAIL
  row "$status" "seed catalog sandboxed" "$same as before, $differ differ, $new new; exit $rc"
}
[ -n "$SEED" ] && verify_seed

printf '\n%-6s %-40s %s\n' RESULT CHECK DETAIL
for r in "${ROWS[@]}"; do
  IFS='|' read -r status name detail <<<"$r"
  printf '%-6s %-40s %s\n' "$status" "$name" "$detail"
done
exit $FAILED

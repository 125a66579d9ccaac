#!/usr/bin/env bash
# The benchmark: errbook against Hugo and mdBook on the same synthetic catalogs.
#
#   scripts/bench.sh            # from a fresh clone; prints the table at the end
#
# It builds errbook (release), installs the peers when missing (Debian's `hugo` and `time` with
# apt-get, mdBook with `cargo install mdbook --locked`), writes the 1,000- and 10,000-page
# catalogs with `errbook-synth` (5% of the pages are articles), then builds each catalog with the
# three tools RUNS times, alternating tool by tool, each into an empty output folder. It prints
# median wall time, the errbook/peer ratio, median peak memory (RSS, /usr/bin/time %M) and output
# size; then a 100,000-entry errbook build (time, peak memory) and the incremental figure (edit
# of one entry to its page written by `errbook serve`).
#
# Environment: RUNS (default 3), SIZES (default "1000 10000"), BIG (default 100000, 0 skips),
# WORK (default /tmp/errbook-bench), SEED (default 1), SLOW_S (default 300: a tool whose first
# build takes longer is built once only), TOOLS (default "errbook hugo mdbook": the peers to
# build; `TOOLS=errbook` measures errbook alone), ERRBOOK_BIN (an errbook binary to measure
# instead of this checkout's, e.g. an older build for a before/after comparison), THEME (the
# theme copied into the catalogs; default themes/default, which an older binary may not read),
# ENTRY_JSON (files, domains or none: the catalogs' `build.entry_json`; unset, the default,
# one file per entry; `domains` gives about one file per page).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
RUNS=${RUNS:-3}
SIZES=${SIZES:-"1000 10000"}
BIG=${BIG:-100000}
WORK=${WORK:-/tmp/errbook-bench}
SEED=${SEED:-1}
SLOW_S=${SLOW_S:-300}
export PATH="$HOME/.cargo/bin:$PATH"

. "$REPO/scripts/lib.sh"

# --- tools ---------------------------------------------------------------------------------
TOOLS=${TOOLS:-"errbook hugo mdbook"}
THEME=${THEME:-"$REPO/themes/default"}
uses() { case " $TOOLS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
[ -x /usr/bin/time ] || apt_install time
command -v python3 >/dev/null || apt_install python3
if uses hugo; then command -v hugo >/dev/null || apt_install hugo; fi
if uses mdbook && ! command -v mdbook >/dev/null; then
  say "installing mdBook (cargo install mdbook --locked; a few minutes)"
  cargo install mdbook --locked --quiet
fi
say "building errbook (release)"
cargo build --release --locked --quiet
ERRBOOK=${ERRBOOK_BIN:-"${CARGO_TARGET_DIR:-$REPO/target}/release/errbook"}
SYNTH="${CARGO_TARGET_DIR:-$REPO/target}/release/errbook-synth"
[ -x "$ERRBOOK" ] || { echo "no errbook binary at $ERRBOOK" >&2; exit 1; }

mkdir -p "$WORK"
RESULTS="$WORK/results.tsv"
: > "$RESULTS"
CPUS=$(nproc)
peers=""
uses hugo && peers="$peers, $(hugo version | cut -d' ' -f1-2)"
uses mdbook && peers="$peers, mdbook $(mdbook --version | awk '{print $2}')"
say "machine: $CPUS cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)$peers; errbook $ERRBOOK ($(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?'))"

# --- catalogs ------------------------------------------------------------------------------
synth() { # pages dir [sites]
  local pages=$1 dir=$2 sites=${3:-$(echo $TOOLS | tr ' ' ',')}
  local articles=$((pages / 20)) entries=$((pages - pages / 20))
  rm -rf "$dir"
  "$SYNTH" --out "$dir" --entries "$entries" --articles "$articles" --seed "$SEED" \
    --sites "$sites" --theme "$THEME" 2>/dev/null
  entry_json "$dir/errbook"
}

entry_json() { # catalog root: set build.entry_json when ENTRY_JSON asks for it
  [ -z "${ENTRY_JSON:-}" ] || sed -i "s/^\[build\]$/[build]\nentry_json = \"$ENTRY_JSON\"/" "$1/book.toml"
}

# --- one timed build -----------------------------------------------------------------------
# measure SIZE TOOL OUTDIR CMD...: wall ms, peak RSS KiB, output bytes, output files -> RESULTS
measure() {
  local size=$1 tool=$2 out=$3; shift 3
  local t0 t1
  t0=$(date +%s%N)
  if ! /usr/bin/time -f '%M' -o "$WORK/mem" "$@" >"$WORK/log" 2>&1; then
    echo "$tool failed on $size pages:" >&2; tail -20 "$WORK/log" >&2; exit 1
  fi
  t1=$(date +%s%N)
  local bytes files
  bytes=$(du -sb "$out" | cut -f1)
  files=$(find "$out" -type f | wc -l)
  printf '%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$tool" $(((t1 - t0) / 1000000)) "$(tail -1 "$WORK/mem")" "$bytes" "$files" >>"$RESULTS"
}

build_once() { # size tool
  local size=$1 tool=$2 d="$WORK/$1"
  case $tool in
    # A cold build: no output and no kept staging folder (.out-errbook.prev) to reuse.
    errbook) rm -rf "$d/out-errbook" "$d/.out-errbook.prev"; measure "$size" errbook "$d/out-errbook" "$ERRBOOK" --root "$d/errbook" build -d "$d/out-errbook" ;;
    # A rebuild into existing output, as from the third `errbook build` on: the output and the
    # kept previous output (the staging folder) both exist, so unchanged files are not rewritten.
    errbook-rebuild)
      [ -d "$d/.out-errbook.prev" ] || "$ERRBOOK" --root "$d/errbook" build -d "$d/out-errbook" >/dev/null 2>&1
      measure "$size" errbook-rebuild "$d/out-errbook" "$ERRBOOK" --root "$d/errbook" build -d "$d/out-errbook" ;;
    hugo) rm -rf "$d/out-hugo"; measure "$size" hugo "$d/out-hugo" hugo --quiet --source "$d/hugo" --destination "$d/out-hugo" ;;
    mdbook) rm -rf "$d/out-mdbook"; measure "$size" mdbook "$d/out-mdbook" mdbook build "$d/mdbook" --dest-dir "$d/out-mdbook" ;;
  esac
}

for size in $SIZES; do
  say "catalog of $size pages: generating"
  synth "$size" "$WORK/$size"
  # One build each so every tool starts with warm file caches. It is not counted, except for a
  # tool that took longer than SLOW_S: that build is its one run (mdBook takes over ten minutes
  # on 10,000 pages; several runs of it would take the benchmark an hour).
  declare -A slow=()
  for tool in $TOOLS; do
    build_once "$size" "$tool"
    ms=$(tail -1 "$RESULTS" | cut -f3)
    if [ "$ms" -gt $((SLOW_S * 1000)) ]; then
      slow[$tool]=1
      say "$tool took $((ms / 1000)) s on $size pages: that build is its only run"
      tail -1 "$RESULTS" >> "$RESULTS.keep"
    fi
  done
  : > "$RESULTS.tmp"; grep -v "^$size	" "$RESULTS" > "$RESULTS.tmp" || true; mv "$RESULTS.tmp" "$RESULTS"
  [ -f "$RESULTS.keep" ] && { cat "$RESULTS.keep" >> "$RESULTS"; rm -f "$RESULTS.keep"; }
  for run in $(seq "$RUNS"); do
    say "catalog of $size pages: run $run/$RUNS"
    for tool in $TOOLS; do
      [ -n "${slow[$tool]:-}" ] || build_once "$size" "$tool"
    done
    # errbook again into its existing output (what `errbook build` does on a second call).
    build_once "$size" errbook-rebuild
  done
done

# --- 100,000 entries -----------------------------------------------------------------------
if [ "$BIG" -gt 0 ]; then
  say "catalog of $BIG entries: generating (errbook only)"
  d="$WORK/big"
  rm -rf "$d"
  "$SYNTH" --out "$d" --entries "$BIG" --articles $((BIG / 100)) --seed "$SEED" \
    --sites errbook --theme "$THEME" 2>/dev/null
  entry_json "$d/errbook"
  say "catalog of $BIG entries: building"
  rm -rf "$d/out"
  measure "big" errbook "$d/out" "$ERRBOOK" --root "$d/errbook" build -d "$d/out"
fi

# --- incremental ---------------------------------------------------------------------------
INCR="n/a"
last=${SIZES##* }
if "$ERRBOOK" serve --help >/dev/null 2>&1 && [ -d "$WORK/$last/errbook" ]; then
  say "incremental: serve on the $last-page catalog, edit one entry, wait for its page"
  INCR=$(python3 "$REPO/scripts/incremental.py" "$ERRBOOK" "$WORK/$last/errbook" 2>"$WORK/incremental.log") || INCR="n/a (see $WORK/incremental.log)"
fi

# --- table ---------------------------------------------------------------------------------
python3 - "$RESULTS" "$INCR" "$BIG" <<'PY'
import sys, statistics as st
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
incr, big = sys.argv[2], sys.argv[3]
data = {}
for size, tool, ms, kib, b, files in rows:
    data.setdefault((size, tool), []).append((int(ms), int(kib), int(b), int(files)))
def med(k, i): return st.median(r[i] for r in data[k])
def mb(kib): return f"{kib/1024:.0f} MB"
print()
print(f"{'pages':>7} {'tool':<16} {'runs':>4} {'median wall':>12} {'errbook/peer':>13} {'peak RSS':>10} {'output':>10} {'files':>7}")
for size in sorted({s for s, _ in data if s != "big"}, key=int):
    e = med((size, "errbook"), 0)
    for tool in ["errbook", "errbook-rebuild", "hugo", "mdbook"]:
        k = (size, tool)
        if k not in data: continue
        w = med(k, 0)
        ratio = f"{e / w:.3f}" if tool in ("hugo", "mdbook") else ""
        print(f"{int(size):>7} {tool:<16} {len(data[k]):>4} {w/1000:>11.3f}s {ratio:>13} {mb(med(k,1)):>10} {med(k,2)/1e6:>8.1f}MB {int(med(k,3)):>7}")
if ("big", "errbook") in data:
    w, kib, b, f = data[("big", "errbook")][0]
    print(f"\n{int(big):,} entries, errbook: {w/1000:.2f} s wall, peak RSS {mb(kib)}, output {b/1e6:.0f} MB in {f} files")
print(f"incremental (serve, one entry edited -> its page written), median of the edits: {incr}")
PY

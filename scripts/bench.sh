#!/usr/bin/env bash
# The benchmark: errbook against Zola, Hugo and mdBook on the same synthetic catalogs.
#
#   scripts/bench.sh            # from a fresh clone; prints the table at the end
#
# It builds errbook (release), installs the peers when missing (Debian's `hugo` and `time` with
# apt-get, mdBook with `cargo install mdbook --locked`, Zola from its source repository at the
# tag ZOLA_TAG with `cargo build --release --locked`, kept under WORK for the next run), writes the
# 1,000- and 10,000-page catalogs with `errbook-synth` (5% of the pages are articles), then builds
# each catalog with every tool RUNS times, alternating tool by tool, each into an empty output
# folder. Zola builds twice a run: without its search index and with it (`build_search_index`).
# It prints, per tool, median wall time, peak memory (RSS, /usr/bin/time %M), output bytes
# (du -sb, which counts each folder's own entry too, and "in files": the files' sizes summed,
# what a host stores) and files, and the errbook/peer ratios of all four (of the medians, then of each run);
# then the errbook-only BIG builds (time, memory, bytes, files), and the incremental figures
# (edit of one entry to its page served by `errbook serve`, and to the whole update).
#
# Environment: RUNS (default 3), SIZES (default "1000 10000"), BIG (default 100000: sizes in
# entries of errbook-only builds, e.g. "100000 1000000"; 0 skips; a size whose peak memory,
# scaled from the size before, would not fit in the available memory is skipped, saying so),
# WORK (default /tmp/errbook-bench), SEED (default 1), SLOW_S (default 300: a tool whose first
# build takes longer is built once only), TOOLS (default "errbook zola hugo mdbook": the peers to
# build; `TOOLS=errbook` measures errbook alone), ERRBOOK_BIN (an errbook binary to measure
# instead of this checkout's, e.g. an older build for a before/after comparison), THEME (the
# theme copied into the catalogs; default themes/default, which an older binary may not read),
# ENTRY_JSON (files, domains or none: the catalogs' `build.entry_json`; unset, the default,
# one file per entry; `domains` gives about one file per page), ZOLA_BIN (a Zola binary to use),
# ZOLA_SRC (a Zola git directory, bare or not, or a checkout, to build from instead of cloning
# https://github.com/getzola/zola), ZOLA_TAG (default v0.22.1, the newest release when this was
# written and the one issue #17 measured), FIRST_QUERIES (default 30: pasted and as many
# typed queries for scripts/search-bench/first-query.mjs on the largest of SIZES, hosted and
# from file:// (an --offline build of it); 0 skips; needs Chromium and node, installed when
# missing), FIRST_QUERIES_BIG (default 10: the same on each BIG site, hosted only,
# before it is deleted).
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
TOOLS=${TOOLS:-"errbook zola hugo mdbook"}
ZOLA_TAG=${ZOLA_TAG:-v0.22.1}
THEME=${THEME:-"$REPO/themes/default"}
uses() { case " $TOOLS " in *" $1 "*) return 0 ;; *) return 1 ;; esac; }
[ -x /usr/bin/time ] || apt_install time
command -v python3 >/dev/null || apt_install python3
if uses hugo; then command -v hugo >/dev/null || apt_install hugo; fi
if uses mdbook && ! command -v mdbook >/dev/null; then
  say "installing mdBook (cargo install mdbook --locked; a few minutes)"
  cargo install mdbook --locked --quiet
fi
# Zola: ZOLA_BIN, or built once from source at ZOLA_TAG into WORK/zola-TAG and kept there.
zola_bin() {
  if [ -n "${ZOLA_BIN:-}" ]; then
    [ -x "$ZOLA_BIN" ] || { echo "ZOLA_BIN=$ZOLA_BIN is not an executable" >&2; exit 1; }
    echo "$ZOLA_BIN"; return
  fi
  local dir="$WORK/zola-$ZOLA_TAG" src
  if [ ! -x "$dir/target/release/zola" ]; then
    mkdir -p "$dir"
    if [ -n "${ZOLA_SRC:-}" ] && [ -f "$ZOLA_SRC/Cargo.toml" ]; then
      src=$ZOLA_SRC # a checkout: built as it is
    else
      src="$dir/src"
      rm -rf "$src"; mkdir -p "$src"
      if [ -n "${ZOLA_SRC:-}" ]; then
        # A git directory: the tag's tree without docs/ (mirrors may lack its large images).
        git --git-dir="$ZOLA_SRC" archive "$ZOLA_TAG" -- . ':(exclude)docs' 2>"$dir/archive.log" | tar -x -C "$src"
      else
        git -c advice.detachedHead=false clone -q --depth 1 --branch "$ZOLA_TAG" https://github.com/getzola/zola "$src"
      fi
    fi
    [ -f "$src/Cargo.toml" ] || { echo "no Zola source at $src (ZOLA_SRC=${ZOLA_SRC:-})" >&2; exit 1; }
    say "building Zola $ZOLA_TAG from $src (cargo build --release --locked; 10+ minutes on 2 cores)"
    (cd "$src" && nice cargo build --release --locked --quiet --target-dir "$dir/target") >&2
  fi
  echo "$dir/target/release/zola"
}
mkdir -p "$WORK"
if uses zola; then ZOLA=$(zola_bin); fi
say "building errbook (release)"
cargo build --release --locked --quiet
ERRBOOK=${ERRBOOK_BIN:-"${CARGO_TARGET_DIR:-$REPO/target}/release/errbook"}
SYNTH="${CARGO_TARGET_DIR:-$REPO/target}/release/errbook-synth"
[ -x "$ERRBOOK" ] || { echo "no errbook binary at $ERRBOOK" >&2; exit 1; }

RESULTS="$WORK/results.tsv"
: > "$RESULTS"
: > "$WORK/first-query.tsv"
CPUS=$(nproc)
peers=""
uses hugo && peers="$peers, $(hugo version | cut -d' ' -f1-2)"
uses zola && peers="$peers, $("$ZOLA" --version)"
uses mdbook && peers="$peers, mdbook $(mdbook --version | awk '{print $2}')"
say "machine: $CPUS cores, $(awk '/MemTotal/ {printf "%.0f GiB", $2/1048576}' /proc/meminfo)$peers; errbook $ERRBOOK ($(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?'))"

# --- first queries ---------------------------------------------------------------------------
# first_query LABEL N HOSTED [OFFLINE]: what a page's first query fetches (gzip bytes) and how
# long it takes in Chromium (scripts/search-bench/first-query.mjs); one line to first-query.tsv.
FIRST_QUERIES=${FIRST_QUERIES:-30}
FIRST_QUERIES_BIG=${FIRST_QUERIES_BIG:-10}
first_query_tools() {
  [ -x "${CHROMIUM:-/usr/bin/chromium}" ] || apt_install chromium
  command -v node >/dev/null || apt_install nodejs
}
first_query() {
  local label=$1 n=$2 hosted=$3 offline=${4:-}
  [ "$n" -gt 0 ] || return 0
  first_query_tools
  say "first queries on $label: $n pasted, $n typed${offline:+, hosted and file://}"
  if ! node "$REPO/scripts/search-bench/first-query.mjs" --hosted "$hosted" ${offline:+--offline "$offline"} \
      --queries "$n" --after load,preload --json "$WORK/first-query.json" >"$WORK/first-query.log" 2>&1; then
    say "first-query.mjs failed on $label (see $WORK/first-query.log)"; return 0
  fi
  python3 - "$label" "$WORK/first-query.json" >>"$WORK/first-query.tsv" <<'PY'
import json, sys
rows = json.load(open(sys.argv[2]))["rows"]
for r in rows:
    print("\t".join(str(x) for x in (sys.argv[1], r["mode"], r["kind"], r["after"], r["bytes_median"], r["bytes_max"], round(r["ms_median"], 1), round(r["ms_p90"], 1))))
PY
}

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
# measure SIZE TOOL OUTDIR CMD...: wall ms, peak RSS KiB, output bytes (du -sb: files and the
# folders' own entries), output files, run number (RUN; 0 for the warm-up build), and the sum of
# the files' sizes (what a host stores) -> RESULTS
RUN=0
measure() {
  local size=$1 tool=$2 out=$3; shift 3
  local t0 t1
  t0=$(date +%s%N)
  if ! /usr/bin/time -f '%M' -o "$WORK/mem" "$@" >"$WORK/log" 2>&1; then
    echo "$tool failed on $size pages:" >&2; tail -20 "$WORK/log" >&2; exit 1
  fi
  t1=$(date +%s%N)
  local bytes files sum
  bytes=$(du -sb "$out" | cut -f1)
  files=$(find "$out" -type f | wc -l)
  sum=$(find "$out" -type f -printf '%s\n' | awk '{s += $1} END {printf "%d", s}')
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$size" "$tool" $(((t1 - t0) / 1000000)) "$(tail -1 "$WORK/mem")" "$bytes" "$files" "$RUN" "$sum" >>"$RESULTS"
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
    zola) rm -rf "$d/out-zola"; measure "$size" zola "$d/out-zola" "$ZOLA" --root "$d/zola" build --output-dir "$d/out-zola" ;;
    zola-search) rm -rf "$d/out-zola-search"; measure "$size" zola-search "$d/out-zola-search" "$ZOLA" --root "$d/zola" --config config-search.toml build --output-dir "$d/out-zola-search" ;;
    mdbook) rm -rf "$d/out-mdbook"; measure "$size" mdbook "$d/out-mdbook" mdbook build "$d/mdbook" --dest-dir "$d/out-mdbook" ;;
  esac
}

# The builds of a run: Zola twice, without and with its search index.
RUN_TOOLS=$(echo " $TOOLS " | sed 's/ zola / zola zola-search /' | xargs)

for size in $SIZES; do
  say "catalog of $size pages: generating"
  synth "$size" "$WORK/$size"
  # One build each so every tool starts with warm file caches. It is not counted, except for a
  # tool that took longer than SLOW_S: that build is its one run (mdBook takes over ten minutes
  # on 10,000 pages; several runs of it would take the benchmark an hour).
  declare -A slow=()
  RUN=0
  for tool in $RUN_TOOLS; do
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
  for RUN in $(seq "$RUNS"); do
    say "catalog of $size pages: run $RUN/$RUNS"
    for tool in $RUN_TOOLS; do
      [ -n "${slow[$tool]:-}" ] || build_once "$size" "$tool"
    done
    # errbook again into its existing output (what `errbook build` does on a second call).
    build_once "$size" errbook-rebuild
  done
  # The peers' outputs are not needed any more (a 10,000-page catalog's are over 1 GB).
  rm -rf "$WORK/$size"/out-{hugo,zola,zola-search,mdbook}
done

# The largest catalog's first queries, hosted and offline (its errbook output is still there).
last_size=${SIZES##* }
if [ "$FIRST_QUERIES" -gt 0 ] && [ -d "$WORK/$last_size/out-errbook" ]; then
  "$ERRBOOK" --root "$WORK/$last_size/errbook" build --offline -d "$WORK/$last_size/out-offline" >/dev/null 2>&1
  first_query "$last_size pages" "$FIRST_QUERIES" "$WORK/$last_size/out-errbook" "$WORK/$last_size/out-offline"
  rm -rf "$WORK/$last_size/out-offline"
fi

# --- errbook alone on larger catalogs -------------------------------------------------------
# Each size's peak memory and output bytes are estimated from the size before (linearly; the
# first from the largest of SIZES); a size that would not fit in the memory available now (or
# on the disk free now) is skipped, saying so, rather than swapping the machine to a halt.
avail_kib() { awk '/MemAvailable/ {print $2}' /proc/meminfo; }
free_bytes() { df -B1 --output=avail "$WORK" | tail -1; }
prev_n="" prev_kib="" prev_bytes=""
last=${SIZES##* }
if [ -n "$last" ] && grep -q "^$last	errbook	" "$RESULTS"; then
  prev_n=$((last - last / 20))
  prev_kib=$(grep "^$last	errbook	" "$RESULTS" | cut -f4 | sort -n | tail -1)
  prev_bytes=$(grep "^$last	errbook	" "$RESULTS" | cut -f5 | sort -n | tail -1)
fi
RUN=1
for n in $BIG; do
  [ "$n" -gt 0 ] || continue
  if [ -n "$prev_n" ]; then
    est_kib=$((prev_kib * n / prev_n)) est_bytes=$((prev_bytes * n / prev_n * 2))
    if [ "$est_kib" -gt "$(avail_kib)" ]; then
      say "skipping $n entries: peak memory estimated at $((est_kib / 1024)) MiB from $prev_n entries, $(($(avail_kib) / 1024)) MiB available"
      printf 'big-%s\tskipped-memory\t%s\t%s\t0\t0\t0\t0\n' "$n" 0 "$est_kib" >>"$RESULTS"
      continue
    fi
    # The catalog and the site (about the site again) must fit on the disk.
    if [ "$est_bytes" -gt "$(free_bytes)" ]; then
      say "skipping $n entries: catalog and site estimated at $((est_bytes / 1000000)) MB, $(($(free_bytes) / 1000000)) MB free"
      printf 'big-%s\tskipped-disk\t%s\t%s\t%s\t0\t0\t0\n' "$n" 0 0 "$est_bytes" >>"$RESULTS"
      continue
    fi
  fi
  say "catalog of $n entries: generating (errbook only)"
  d="$WORK/big"
  rm -rf "$d"
  "$SYNTH" --out "$d" --entries "$n" --articles $((n / 100)) --seed "$SEED" \
    --sites errbook --theme "$THEME" 2>/dev/null
  entry_json "$d/errbook"
  say "catalog of $n entries: building"
  measure "big-$n" errbook "$d/out" "$ERRBOOK" --root "$d/errbook" build -d "$d/out"
  first_query "$n entries" "$FIRST_QUERIES_BIG" "$d/out"
  prev_n=$n
  prev_kib=$(tail -1 "$RESULTS" | cut -f4)
  prev_bytes=$(tail -1 "$RESULTS" | cut -f5)
  rm -rf "$d"
done

# --- incremental ---------------------------------------------------------------------------
INCR="n/a"
if "$ERRBOOK" serve --help >/dev/null 2>&1 && [ -d "$WORK/$last/errbook" ]; then
  say "incremental: serve on the $last-page catalog, edit one entry, wait for its page"
  INCR=$(python3 "$REPO/scripts/incremental.py" "$ERRBOOK" "$WORK/$last/errbook" 2>"$WORK/incremental.log") || INCR="n/a (see $WORK/incremental.log)"
fi

# --- table ---------------------------------------------------------------------------------
python3 - "$RESULTS" "$INCR" "$last" "$WORK/first-query.tsv" <<'PY'
import re, sys, statistics as st
rows = [l.rstrip("\n").split("\t") for l in open(sys.argv[1]) if l.strip()]
incr, last = sys.argv[2], sys.argv[3]
firsts = [l.rstrip("\n").split("\t") for l in open(sys.argv[4]) if l.strip()]
data = {}
for size, tool, ms, kib, b, files, run, *rest in rows:
    data.setdefault((size, tool), []).append((int(ms), int(kib), int(b), int(files), int(run), int(rest[0]) if rest else 0))
def med(k, i): return st.median(r[i] for r in data[k])
def mib(kib): return f"{kib/1024:,.0f} MiB"
def ratio(a, b): return f"{a / b:.2f}" if b else "-"
order = ["errbook", "errbook-rebuild", "zola", "zola-search", "hugo", "mdbook"]
peers = ["zola", "zola-search", "hugo", "mdbook"]
sizes = sorted({s for s, _ in data if not s.startswith("big-")}, key=int)
print()
print(f"{'pages':>7} {'tool':<16} {'runs':>4} {'median wall':>12} {'peak RSS':>10} {'output':>10} {'in files':>10} {'files':>7}")
for size in sizes:
    for tool in order:
        k = (size, tool)
        if k not in data: continue
        print(f"{int(size):>7} {tool:<16} {len(data[k]):>4} {med(k,0)/1000:>11.3f}s {mib(med(k,1)):>10} {med(k,2)/1e6:>8.1f}MB {med(k,5)/1e6:>8.1f}MB {med(k,3):>7,.0f}")
print(f"\nerrbook/peer, of the medians (below 1: errbook takes less)")
print(f"{'pages':>7} {'peer':<16} {'wall':>6} {'memory':>7} {'bytes':>6} {'in files':>8} {'files':>6}")
for size in sizes:
    if (size, "errbook") not in data: continue
    for tool in peers:
        k = (size, tool)
        if k not in data: continue
        e = (size, "errbook")
        print(f"{int(size):>7} {tool:<16} " + " ".join(f"{ratio(med(e,i), med(k,i)):>{w}}" for i, w in [(0,6),(1,7),(2,6),(5,8),(3,6)]))
print(f"\nerrbook/peer, run by run (errbook's run k against the peer's run k of the same round; a peer built once against errbook's run 1)")
print(f"{'pages':>7} {'run':>3} {'peer':<16} {'wall':>6} {'memory':>7} {'bytes':>6} {'in files':>8} {'files':>6}")
for size in sizes:
    if (size, "errbook") not in data: continue
    ours = {r[4]: r for r in data[(size, "errbook")]}
    for tool in peers:
        for p in data.get((size, tool), []):
            e = ours.get(p[4]) or ours.get(1)
            if e is None: continue
            print(f"{int(size):>7} {p[4] or 1:>3} {tool:<16} " + " ".join(f"{ratio(e[i], p[i]):>{w}}" for i, w in [(0,6),(1,7),(2,6),(5,8),(3,6)]))
big = sorted((k for k in data if k[0].startswith("big-")), key=lambda k: int(k[0][4:]))
if big:
    print(f"\nerrbook alone, larger catalogs (1% articles)")
    print(f"{'entries':>9} {'wall':>10} {'peak RSS':>10} {'output':>10} {'in files':>10} {'files':>9}")
    for k in big:
        n = int(k[0][4:])
        w, kib, b, f, _, sb = data[k][0]
        if k[1] == "skipped-memory":
            print(f"{n:>9,} skipped: peak memory estimated at {mib(kib)}, more than was available")
        elif k[1] == "skipped-disk":
            print(f"{n:>9,} skipped: catalog and site estimated at {b/1e6:,.0f} MB, more than the disk had free")
        else:
            print(f"{n:>9,} {w/1000:>9.2f}s {mib(kib):>10} {b/1e6:>8.0f}MB {sb/1e6:>8.0f}MB {f:>9,}")
m = re.match(r"(\d+) ms \(edit -> page served, median of (\d+) edits; (\d+)\.\.(\d+) ms(?:; the whole update .* done in (\d+) ms)?\)", incr)
print(f"\nincremental: `errbook serve` on the {last}-page catalog, one entry's text edited", end="")
if m:
    print(f", median of {m[2]} edits")
    print(f"  edit -> its page served:       {m[1]} ms ({m[3]}..{m[4]} ms)")
    whole = f"{m[5]} ms" if m[5] else "n/a (serve logged no `built:` line)"
    print(f"  edit -> catalog analysed:      {whole} (serve's `built: N pages in M ms`; each page is made when asked)")
else:
    print(f": {incr}")
if firsts:
    print(f"\nfirst query in Chromium (scripts/search-bench/first-query.mjs: each query in a new Chromium once it has settled, no DevTools protocol attached, gzip bytes of the search files the page fetched, preloaded ones included; after: asked at the load event, or once the page preloaded)")
    print(f"{'site':<18} {'mode':<8} {'kind':<7} {'after':<8} {'bytes median':>13} {'max':>9} {'time median':>12} {'p90':>8}")
    for label, mode, kind, after, bmed, bmax, ms, p90 in firsts:
        print(f"{label:<18} {mode:<8} {kind:<7} {after:<8} {int(bmed)/1e6:>10.3f} MB {int(bmax)/1e6:>6.3f} MB {float(ms):>9.1f} ms {float(p90):>5.1f} ms")
PY

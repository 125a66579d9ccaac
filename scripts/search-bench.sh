#!/usr/bin/env bash
# The search benchmark: errbook's search against mdBook's on the same synthetic catalog, in
# Chromium. Not a timed test: it prints figures (scripts/search-bench/bench.mjs says which).
#
#   scripts/search-bench.sh        # from a fresh clone; prints the tables at the end
#
# It installs what is missing (Debian's chromium and nodejs/npm with apt-get, mdBook with
# `cargo install mdbook --locked`, playwright-core with `npm ci`, which downloads no browser),
# builds errbook (release), writes the catalog with `errbook-synth` (ENTRIES entries and
# ARTICLES articles, as an errbook catalog and an mdBook with the same pages), builds both
# sites, and runs bench.mjs: index size (raw, gzip) per entry, index load time over RELOADS
# page loads, and the latency and top-1 answer of QUERIES pasted messages in each tool; then the
# real pastes of bench/search-eval timed against errbook's index of the same catalog.
#
# mdBook takes about 12 minutes on 10,000 pages, so its output is built once and kept:
# $WORK/out-mdbook is reused while $WORK/catalog was made with the same ENTRIES, ARTICLES and
# SEED by the same generator (tools/synth); delete $WORK to start over; MDBOOK_OUT=DIR uses a build of your own instead (of the same
# catalog: `errbook-synth --entries ENTRIES --articles ARTICLES --seed SEED`).
#
# TOOLS=errbook measures errbook alone: no mdBook is installed or built (index size, load time
# and query latency of errbook's own search, as when comparing two errbook binaries).
#
# Environment: TOOLS (errbook,mdbook), ENTRIES (10000), ARTICLES (500), SEED (1, the catalog's), QUERIES (1000),
# QUERY_SEED (1), FIRST_QUERIES (30), RELOADS (10), WARMUP (100), WORK (/tmp/errbook-search-bench), MDBOOK_OUT,
# CHROMIUM (/usr/bin/chromium), ERRBOOK_BIN (an errbook binary to use instead of building one),
# THEME (the theme copied into the catalog, default themes/default: an older binary with its own
# search.js, for a before/after comparison).
# FIRST_QUERIES (30): pasted and as many typed queries for first-query.mjs (0 skips it).
# Extra arguments go to bench.mjs (e.g. --no-gzip).
#
# Then first-query.mjs: what a page's first query fetches (the index is in shards: gzip bytes of
# every file it needs) and how long it takes in Chromium, hosted and from file:// (an --offline
# build of the same catalog).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO=$(pwd)
ENTRIES=${ENTRIES:-10000}
ARTICLES=${ARTICLES:-500}
SEED=${SEED:-1}
QUERIES=${QUERIES:-1000}
QUERY_SEED=${QUERY_SEED:-1}
RELOADS=${RELOADS:-10}
WARMUP=${WARMUP:-100}
WORK=${WORK:-/tmp/errbook-search-bench}
TOOLS=${TOOLS:-errbook,mdbook}
case ",$TOOLS," in *,mdbook,*) WITH_MDBOOK=1 ;; *) WITH_MDBOOK= ;; esac
export CHROMIUM=${CHROMIUM:-/usr/bin/chromium}
export PATH="$HOME/.cargo/bin:$PATH"

. "$REPO/scripts/lib.sh"

# --- tools ---------------------------------------------------------------------------------
[ -x "$CHROMIUM" ] || { apt_install chromium; CHROMIUM=/usr/bin/chromium; }
command -v node >/dev/null && command -v npm >/dev/null || apt_install nodejs npm
if [ -n "$WITH_MDBOOK" ] && ! command -v mdbook >/dev/null; then
  say "installing mdBook (cargo install mdbook --locked; a few minutes)"
  cargo install mdbook --locked --quiet
fi
if [ ! -d scripts/search-bench/node_modules/playwright-core ]; then
  say "installing playwright-core (npm ci; no browser is downloaded)"
  (cd scripts/search-bench && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --silent)
fi
if [ -n "${ERRBOOK_BIN:-}" ]; then
  ERRBOOK=$ERRBOOK_BIN
else
  say "building errbook (release)"
  cargo build --release --locked --quiet
  ERRBOOK="${CARGO_TARGET_DIR:-$REPO/target}/release/errbook"
fi
SYNTH=${SYNTH_BIN:-$(dirname "$ERRBOOK")/errbook-synth}
[ -x "$ERRBOOK" ] || { echo "no errbook binary at $ERRBOOK" >&2; exit 1; }
say "$("$CHROMIUM" --version 2>/dev/null | tail -1), mdbook $( [ -n "$WITH_MDBOOK" ] && mdbook --version | awk '{print $2}' || echo '(not measured)'), node $(node --version), errbook $(git -C "$REPO" rev-parse --short HEAD 2>/dev/null || echo '?')"

# --- the catalog ---------------------------------------------------------------------------
# Regenerated when its arguments or the generator changed (a stamp of both); the mdBook build
# is kept only while the catalog is the same.
mkdir -p "$WORK"
STAMP="entries=$ENTRIES articles=$ARTICLES seed=$SEED synth=$(cat "$REPO"/tools/synth/*.rs | sha256sum | cut -c1-16)"
if [ ! -f "$WORK/catalog.stamp" ] || [ "$(cat "$WORK/catalog.stamp")" != "$STAMP" ]; then
  say "generating the catalog: $ENTRIES entries, $ARTICLES articles (seed $SEED)"
  rm -rf "$WORK/catalog" "$WORK/out-mdbook" "$WORK/out-mdbook.done" "$WORK/catalog.stamp"
  "$SYNTH" --out "$WORK/catalog" --entries "$ENTRIES" --articles "$ARTICLES" --seed "$SEED" \
    --sites errbook,mdbook --theme "$REPO/themes/default" >/dev/null
  echo "$STAMP" > "$WORK/catalog.stamp"
fi
# The errbook catalog carries a copy of the theme: refresh it, so search.js is this checkout's
# (or THEME's).
rm -rf "$WORK/catalog/errbook/themes/default"
cp -r "${THEME:-$REPO/themes/default}" "$WORK/catalog/errbook/themes/default"

# --- the sites -----------------------------------------------------------------------------
say "building the errbook site"
"$ERRBOOK" --root "$WORK/catalog/errbook" build -d "$WORK/out-errbook" >/dev/null
if [ -z "$WITH_MDBOOK" ]; then
  MD=
  say "TOOLS=$TOOLS: no mdBook"
elif [ -n "${MDBOOK_OUT:-}" ]; then
  MD="$MDBOOK_OUT"
  say "using the mdBook output in $MD"
else
  MD="$WORK/out-mdbook"
  # out-mdbook.done marks a build that finished (one cut short leaves a partial folder).
  if [ ! -f "$WORK/out-mdbook.done" ]; then
    say "building the mdBook site (once; about 12 minutes on 10,000 pages)"
    rm -rf "$MD"
    t0=$(date +%s)
    mdbook build "$WORK/catalog/mdbook" --dest-dir "$MD" >"$WORK/mdbook-build.log" 2>&1 ||
      { tail -c 2000 "$WORK/mdbook-build.log" >&2; exit 1; }
    echo "$STAMP" > "$WORK/out-mdbook.done"
    say "mdBook built in $(( $(date +%s) - t0 )) s"
  else
    say "reusing the mdBook output in $MD"
  fi
fi
[ -z "$MD" ] || ls "$MD"/searchindex*.js >/dev/null 2>&1 || { echo "no searchindex*.js in $MD" >&2; exit 1; }

# --- the benchmark -------------------------------------------------------------------------
say "running bench.mjs ($QUERIES queries, $RELOADS loads)"
node scripts/search-bench/bench.mjs --errbook "$WORK/out-errbook" ${MD:+--mdbook "$MD"} \
  --catalog "$WORK/catalog/errbook" --queries "$QUERIES" --seed "$QUERY_SEED" \
  --reloads "$RELOADS" --warmup "$WARMUP" --json "$WORK/results.json" --dump "$WORK/queries.json" \
  --pastes "$REPO/bench/search-eval/pastes.txt" "$@"
say "every figure and each query's time and answer: $WORK/results.json (queries: $WORK/queries.json)"

# --- a first query ---------------------------------------------------------------------------
FIRST_QUERIES=${FIRST_QUERIES:-30}
if [ "$FIRST_QUERIES" -gt 0 ]; then
  say "building the offline bundle of the same catalog"
  "$ERRBOOK" --root "$WORK/catalog/errbook" build --offline -d "$WORK/out-errbook-offline" >/dev/null
  say "first queries ($FIRST_QUERIES pasted, $FIRST_QUERIES typed), hosted and file://"
  node scripts/search-bench/first-query.mjs --hosted "$WORK/out-errbook" --offline "$WORK/out-errbook-offline" \
    --queries "$FIRST_QUERIES" --seed "$QUERY_SEED" --json "$WORK/first-query.json"
fi

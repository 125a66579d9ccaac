// A first query's cost in Chromium (not a timed test): what a page that has not searched yet
// fetches to answer one query (the manifest, term runs, document shards, ...: gzip bytes, as a
// host that compresses sends them), in how many rounds (after the manifest, each round waiting
// for the one before) and how long it takes, from the query to its answer,
// through the function the search box calls (window.errbookSearch.query). Hosted (a static
// HTTP server on 127.0.0.1) and offline (the --offline build opened from file://, the shards
// loaded by <script> tags: the bytes are what the page read from disk, gzipped for comparison).
//
//   node first-query.mjs --hosted OUT [--offline OUT] [--queries N] [--seed N] [--json FILE]
//                        [--after load|preload|load,preload]
//
// Without --offline only the hosted build is measured (a large catalog built once).
//
// Each query runs in a new browser context (nothing cached). `--after load` (the default): the
// query is asked as soon as the page's load event is seen ("cold"); `--after preload`: once the
// page has preloaded what every query needs (search.js does it when the page is idle or the box
// is reached for; the time it was ready, from navigation, is printed), a reader who pastes a
// moment after the page is up; `--after load,preload` runs both, alternately. Bytes and files
// count every search/ file the page fetched from its navigation on, preloaded ones included.
// Each query's time is also split into computing (the runs of search(), summed) and waiting
// for files (each round's, summed), where the page notes them.
// Queries:
// N pasted messages of entries drawn from the catalog (seeded), and N typed ones (the first
// words of a message, the last cut short: a prefix to complete).

import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import zlib from "node:zlib";
import { pathToFileURL, fileURLToPath } from "node:url";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf("--" + name); return i < 0 ? def : argv[i + 1]; };
const HOSTED = opt("hosted", null);
const OFFLINE = opt("offline", null);
const N = +opt("queries", 30);
const SEED = +opt("seed", 1);
const JSON_OUT = opt("json", null);
const AFTER = opt("after", "load").split(",");
if (AFTER.some((a) => a !== "load" && a !== "preload")) { console.error("--after: load, preload or load,preload"); process.exit(2); }
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
if (!HOSTED) { console.error("usage: first-query.mjs --hosted OUT [--offline OUT] [--queries N]"); process.exit(2); }

// ---- the queries ----------------------------------------------------------------------------
const manifest = JSON.parse(fs.readFileSync(path.join(HOSTED, "search/m.json"), "utf8"));
let s = SEED >>> 0;
const rand = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
const docAt = (d) => JSON.parse(fs.readFileSync(path.join(HOSTED, `search/d/${Math.floor(d / manifest.docs)}.json`), "utf8"))[d % manifest.docs];
const queries = [];
for (let k = 0; k < N; k++) {
  const msg = docAt(Math.floor(rand() * manifest.n))[1];
  queries.push({ kind: "pasted", text: msg });
}
for (let k = 0; k < N; k++) {
  const words = docAt(Math.floor(rand() * manifest.n))[1].split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w)).slice(0, 3);
  if (words.length) words[words.length - 1] = words[words.length - 1].slice(0, 4);
  queries.push({ kind: "typed", text: words.join(" ").toLowerCase() });
}

// ---- gzip sizes -----------------------------------------------------------------------------
const gzCache = new Map();
function gz(file) {
  if (!gzCache.has(file)) gzCache.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }).length);
  return gzCache.get(file);
}

// ---- a static server for the hosted build ---------------------------------------------------
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".css": "text/css", ".svg": "image/svg+xml" };
const server = http.createServer((req, res) => {
  let p = decodeURIComponent(new URL(req.url, "http://x").pathname);
  if (p.endsWith("/")) p += "index.html";
  const file = path.join(HOSTED, path.normalize(p));
  if (!file.startsWith(path.resolve(HOSTED)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  // Sent as they are: the bytes counted are each file's gzip -9 size (what a host that
  // precompresses sends), but compressing here, on a file's first request, would be counted in
  // the query's time (seconds on a large site's shards), which a precompressing host never pays.
  const body = fs.readFileSync(file);
  res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
  res.end(body);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const BASE = `http://127.0.0.1:${server.address().port}`;

// ---- one first query ------------------------------------------------------------------------
const browser = await chromium.launch({ executablePath: CHROMIUM, args: ["--no-sandbox", "--allow-file-access-from-files"] });
async function first(url, fileOf, q, after) {
  const ctx = await browser.newContext();
  const page = await ctx.newPage();
  const files = [];
  page.on("request", (r) => { const f = fileOf(r.url()); if (f) files.push(f); });
  await page.goto(url, { waitUntil: "load" });
  const out = await page.evaluate(async ([text, after]) => {
    const S = window.errbookSearch;
    // A page without preload (an older build) is measured cold either way.
    if (after === "preload" && S.preload) await S.preload();
    const ready = performance.now();
    const t0 = performance.now();
    const a = await S.query(text, 8);
    const ms = performance.now() - t0;
    // The ranking alone, once its shards are in: the same query again.
    const t1 = performance.now();
    S.search(S.state.idx, text, 8);
    const rank = performance.now() - t1;
    const ids = a.hits.map((h) => { const d = S.state.idx.doc(h.doc); return [d ? d[0] : h.doc, h.score]; });
    // Where the time went (search-rank.js's query() notes it; an older build does not).
    const sum = (xs) => (xs || []).reduce((n, x) => n + x, 0);
    const compute = a.timing ? sum(a.timing.compute) : null, wait = a.timing ? sum(a.timing.wait) : null;
    return { ms, rank, ready, compute, wait, steps: a.timing || null, rounds: a.rounds, top: a.hits.length ? S.state.idx.doc(a.hits[0].doc)[0] : null, hits: ids };
  }, [q.text, after]);
  await ctx.close();
  return { ...out, files: files.length, bytes: files.reduce((n, f) => n + gz(f), 0) };
}

const hostedFile = (u) => u.startsWith(BASE + "/search/") ? path.join(HOSTED, new URL(u).pathname) : null;
const offDir = OFFLINE ? pathToFileURL(path.resolve(OFFLINE)).href : null;
const offlineFile = (u) => offDir && u.startsWith(offDir + "/search/") ? fileURLToPath(u) : null;

const runs = { hosted: [], offline: [] };
for (const q of queries) {
  for (const after of AFTER) {
    runs.hosted.push({ kind: q.kind, after, ...(await first(`${BASE}/index.html`, hostedFile, q, after)) });
    if (offDir) runs.offline.push({ kind: q.kind, after, ...(await first(`${offDir}/index.html`, offlineFile, q, after)) });
  }
}
await browser.close();
server.close();

// ---- the figures ----------------------------------------------------------------------------
const q = (xs, p) => { const v = [...xs].sort((a, b) => a - b); return v[Math.min(v.length - 1, Math.floor(p * v.length))]; };
const kb = (b) => (b / 1e6).toFixed(3) + " MB";
console.log(`first query: ${manifest.n} entries, ${N} pasted and ${N} typed queries, each in a new browser context (load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`);
console.log("mode     kind    after    bytes (gzip) median / max       files median / max   rounds median / max  time ms median / p90 / max   ranking alone ms median / max  ready at ms median  computing / waiting ms median");
const rows = [];
for (const mode of OFFLINE ? ["hosted", "offline"] : ["hosted"]) {
  for (const after of AFTER) for (const kind of ["pasted", "typed"]) {
    const r = runs[mode].filter((x) => x.kind === kind && x.after === after);
    const row = {
      mode, kind, after, ready_median: q(r.map((x) => x.ready), 0.5),
      bytes_median: q(r.map((x) => x.bytes), 0.5), bytes_max: Math.max(...r.map((x) => x.bytes)),
      files_median: q(r.map((x) => x.files), 0.5), files_max: Math.max(...r.map((x) => x.files)),
      rounds_median: q(r.map((x) => x.rounds), 0.5), rounds_max: Math.max(...r.map((x) => x.rounds)),
      ms_median: q(r.map((x) => x.ms), 0.5), ms_p90: q(r.map((x) => x.ms), 0.9), ms_max: Math.max(...r.map((x) => x.ms)),
      rank_median: q(r.map((x) => x.rank), 0.5), rank_max: Math.max(...r.map((x) => x.rank)),
      compute_median: r.some((x) => x.compute === null) ? null : q(r.map((x) => x.compute), 0.5),
      wait_median: r.some((x) => x.wait === null) ? null : q(r.map((x) => x.wait), 0.5),
    };
    rows.push(row);
    console.log(`${mode.padEnd(8)} ${kind.padEnd(7)} ${after.padEnd(8)} ${kb(row.bytes_median)} / ${kb(row.bytes_max)}`.padEnd(58) +
      `${row.files_median} / ${row.files_max}`.padEnd(21) + `${row.rounds_median} / ${row.rounds_max}`.padEnd(21) + `${row.ms_median.toFixed(1)} / ${row.ms_p90.toFixed(1)} / ${row.ms_max.toFixed(1)}`.padEnd(29) +
      `${row.rank_median.toFixed(1)} / ${row.rank_max.toFixed(1)}`.padEnd(31) + `${row.ready_median.toFixed(0)}`.padEnd(20) +
      (row.compute_median === null ? "-" : `${row.compute_median.toFixed(1)} / ${row.wait_median.toFixed(1)}`));
  }
}
if (OFFLINE) {
  const agree = runs.hosted.every((h, i) => h.top === runs.offline[i].top);
  console.log(`hosted and offline answers agree: ${agree}`);
}
if (JSON_OUT) fs.writeFileSync(JSON_OUT, JSON.stringify({ rows, queries, runs }, null, 1));

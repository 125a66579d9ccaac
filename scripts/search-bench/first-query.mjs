// A first query's cost in Chromium (not a timed test): what a page that has not searched yet
// fetches to answer one query (the manifest, term runs, document shards, ...: gzip bytes, as a
// host that compresses sends them), in how many rounds (after the manifest, each round waiting
// for the one before) and how long it takes, from the query to its answer,
// through the function the search box calls (window.errbookSearch.query). Hosted (a static
// HTTP server on 127.0.0.1) and offline (the --offline build opened from file://, the shards
// loaded by <script> tags: the bytes are what the page read from disk, gzipped for comparison).
//
//   node first-query.mjs --hosted OUT [--offline OUT] [--queries N] [--seed N] [--json FILE]
//                        [--after load|preload|load,preload] [--http2] [--rtt MS]
//
// --http2: the hosted build over HTTP/2 (TLS, a certificate made for the run by openssl, which
// this Chromium is told to accept), as static hosts serve it: one connection, every file of a
// round asked at once. Without it, HTTP/1.1: at most six requests at a time to the host.
//
// --rtt MS: each file of the hosted build is answered MS milliseconds after its request comes,
// a network's round trip between a reader and the host (the loopback has none): what a round of
// fetches costs on a real connection beside what the browser spends on each file. Best with
// --http2, where a round's files travel together as they do from static hosts.
//
// FQ_SETTLE_MS (default 1000): how long each new Chromium waits on a blank page before it goes
// to the site.
//
// Without --offline only the hosted build is measured (a large catalog built once). --offline
// writes three files into that build while it runs (__go.html, __fq.html, __fq.js) and removes them.
//
// Each query runs in a new Chromium (its own profile: nothing cached), with no DevTools
// protocol attached (below). `--after load` (the default): the query is asked at the page's
// load event ("cold"); `--after preload`: once the
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
import http2 from "node:http2";
import { execFileSync } from "node:child_process";
import zlib from "node:zlib";
import { pathToFileURL, fileURLToPath } from "node:url";
import os from "node:os";
import { spawn } from "node:child_process";

const argv = process.argv.slice(2);
const opt = (name, def) => { const i = argv.indexOf("--" + name); return i < 0 ? def : argv[i + 1]; };
const HOSTED = opt("hosted", null);
const OFFLINE = opt("offline", null);
const N = +opt("queries", 30);
const SEED = +opt("seed", 1);
const JSON_OUT = opt("json", null);
const AFTER = opt("after", "load").split(",");
const HTTP2 = argv.includes("--http2");
const RTT = +opt("rtt", 0);
if (!(RTT >= 0)) { console.error("--rtt: milliseconds, 0 or more"); process.exit(2); }
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

// ---- the page's side ------------------------------------------------------------------------
// Chromium runs as a reader's does: launched on the page, with no DevTools protocol attached
// (Playwright's network instrumentation, on every request, took as long as the fetching
// itself on 2 cores). The page is given this script, which asks the query from the page
// (at its load event, or once it has preloaded), through the function the search box calls
// (window.errbookSearch.query), and posts what it saw back here. The query comes in the URL's
// fragment. Offline, the search files a page reads are the <script> tags search.js adds (and
// removes once loaded): the script, first in <head>, watches for them.
const PAGE_JS = `(function () {
  var m = /#fq=(.*)$/.exec(location.hash);
  if (!m) return;
  var job = JSON.parse(decodeURIComponent(m[1])), files = [];
  new MutationObserver(function (recs) {
    recs.forEach(function (r) { r.addedNodes.forEach(function (n) {
      if (n.tagName === "SCRIPT" && n.src.indexOf("/search/") >= 0) files.push(n.src);
    }); });
  }).observe(document.documentElement, { childList: true, subtree: true });
  function report(out) {
    out.files = files;
    fetch(job.report, { method: "POST", mode: "no-cors", body: JSON.stringify(out) });
  }
  async function run() {
    var S = window.errbookSearch;
    // A page without preload (an older build) is measured cold either way.
    if (job.after === "preload" && S.preload) await S.preload();
    var ready = performance.now();
    var t0 = performance.now();
    var a = await S.query(job.text, 8);
    var ms = performance.now() - t0;
    // The ranking alone, once its shards are in: the same query again, with nothing kept from
    // the first (search-index.js keeps a query's first pass between its rounds).
    var X = window.errbookIndexView;
    if (X && X.forget) X.forget();
    var t1 = performance.now();
    S.search(S.state.idx, job.text, 8);
    var rank = performance.now() - t1;
    var ids = a.hits.map(function (h) { var d = S.state.idx.doc(h.doc); return [d ? d[0] : h.doc, h.score]; });
    // Where the time went (search-rank.js's query() notes it; an older build does not).
    var sum = function (xs) { return (xs || []).reduce(function (n, x) { return n + x; }, 0); };
    return { ms: ms, rank: rank, ready: ready, compute: a.timing ? sum(a.timing.compute) : null,
      wait: a.timing ? sum(a.timing.wait) : null, steps: a.timing || null, rounds: a.rounds,
      top: a.hits.length ? S.state.idx.doc(a.hits[0].doc)[0] : null, hits: ids };
  }
  addEventListener("load", function () {
    setTimeout(function () {
      run().then(report, function (e) { report({ error: String(e && e.stack || e) }); });
    }, 0);
  });
})();
`;
// Where each browser starts: a blank page that waits for Chromium to settle (a browser just
// launched is busy with its own start for a while), then goes to the page, as a reader
// does in a browser already open.
const SETTLE_MS = +(process.env.FQ_SETTLE_MS || 1000);
const GO_HTML = `<!doctype html><title>first query</title><script>setTimeout(function () { location.replace(decodeURIComponent(location.hash.slice(1))); }, ${SETTLE_MS});</script>`;
const inject = (html, csp) => {
  let out = html.replace(/<head>/i, `<head><script src="${csp ? "" : "/"}__fq.js"></script>`);
  // Offline the page posts to the server here: its policy lets it connect nowhere else.
  if (csp) out = out.replace("connect-src 'self'", `connect-src 'self' ${csp}`);
  return out;
};

// ---- the server: the hosted build, and where pages report ----------------------------------
const TYPES = { ".html": "text/html", ".js": "text/javascript", ".json": "application/json", ".css": "text/css", ".svg": "image/svg+xml" };
let served = [], reported = null;
// Over HTTP/2: a key and certificate for 127.0.0.1, made for this run.
function tls() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "errbook-fq-tls-"));
  execFileSync("openssl", ["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=127.0.0.1",
    "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", path.join(dir, "key.pem"), "-out", path.join(dir, "cert.pem")], { stdio: "ignore" });
  const out = { key: fs.readFileSync(path.join(dir, "key.pem")), cert: fs.readFileSync(path.join(dir, "cert.pem")) };
  fs.rmSync(dir, { recursive: true, force: true });
  return out;
}
const serve = (req, res) => {
  const url = new URL(req.url, "http://x");
  let p = decodeURIComponent(url.pathname);
  if (p === "/__result") {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => { res.writeHead(204, { "access-control-allow-origin": "*" }); res.end(); if (reported) reported(JSON.parse(body)); });
    return;
  }
  if (p === "/__go.html") { res.writeHead(200, { "content-type": "text/html" }); res.end(GO_HTML); return; }
  if (p === "/__fq.js") { res.writeHead(200, { "content-type": "text/javascript" }); res.end(PAGE_JS); return; }
  if (p.endsWith("/")) p += "index.html";
  const file = path.join(HOSTED, path.normalize(p));
  if (!file.startsWith(path.resolve(HOSTED)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) { res.writeHead(404); res.end(); return; }
  if (p.startsWith("/search/")) served.push(file);
  // Sent as they are: the bytes counted are each file's gzip -9 size (what a host that
  // precompresses sends), but compressing here, on a file's first request, would be counted in
  // the query's time (seconds on a large site's shards), which a precompressing host never pays.
  let body = fs.readFileSync(file);
  if (p === "/index.html") body = inject(body.toString());
  const send = () => {
    res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream" });
    res.end(body);
  };
  if (RTT > 0) setTimeout(send, RTT); else send();
};
const server = HTTP2 ? http2.createSecureServer({ ...tls(), allowHTTP1: true }, serve) : http.createServer(serve);
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const BASE = `${HTTP2 ? "https" : "http"}://127.0.0.1:${server.address().port}`;

// The offline build's page, with the script: two files beside its index.html, removed at the end.
const OFF_PAGE = OFFLINE ? path.join(path.resolve(OFFLINE), "__fq.html") : null;
if (OFFLINE) {
  fs.writeFileSync(path.join(OFFLINE, "__fq.js"), PAGE_JS);
  fs.writeFileSync(path.join(OFFLINE, "__go.html"), GO_HTML);
  fs.writeFileSync(OFF_PAGE, inject(fs.readFileSync(path.join(OFFLINE, "index.html"), "utf8"), BASE));
}
const cleanup = () => { if (OFFLINE) for (const f of ["__fq.js", "__fq.html", "__go.html"]) fs.rmSync(path.join(OFFLINE, f), { force: true }); };
process.on("exit", cleanup);

// ---- one first query: a fresh browser (nothing cached) on the page -------------------------
const FLAGS = ["--headless", "--no-sandbox", "--no-first-run", "--no-default-browser-check", "--disable-extensions",
  "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-default-apps",
  "--allow-file-access-from-files", "--mute-audio", "--disable-gpu", ...(HTTP2 ? ["--ignore-certificate-errors"] : [])];
async function first(go, url, fileOf, q, after) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "errbook-fq-"));
  served = [];
  const job = encodeURIComponent(JSON.stringify({ text: q.text, after, report: BASE + "/__result" }));
  const got = new Promise((resolve, reject) => {
    reported = resolve;
    setTimeout(() => reject(new Error(`no answer in 60 s from ${url}`)), 60000).unref();
  });
  const chrome = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${dir}`, `${go}#${encodeURIComponent(`${url}#fq=${job}`)}`], { stdio: "ignore", detached: true });
  const exited = new Promise((r) => chrome.on("exit", r));
  try {
    const out = await got;
    if (out.error) throw new Error(`${url}: ${out.error}`);
    const files = fileOf(out.files);
    return { ...out, files: files.length, bytes: files.reduce((n, f) => n + gz(f), 0) };
  } finally {
    reported = null;
    try { process.kill(-chrome.pid, "SIGKILL"); } catch {}
    await exited;
    fs.rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  }
}

const hostedFiles = () => served;
const offlineFiles = (srcs) => srcs.filter((u) => u.startsWith("file:")).map((u) => fileURLToPath(u.split("#")[0]));

const runs = { hosted: [], offline: [] };
for (const q of queries) {
  for (const after of AFTER) {
    runs.hosted.push({ kind: q.kind, after, ...(await first(`${BASE}/__go.html`, `${BASE}/index.html`, hostedFiles, q, after)) });
    if (OFFLINE) runs.offline.push({ kind: q.kind, after, ...(await first(pathToFileURL(path.join(path.resolve(OFFLINE), "__go.html")).href, pathToFileURL(OFF_PAGE).href, offlineFiles, q, after)) });
  }
}
server.close();

// ---- the figures ----------------------------------------------------------------------------
const q = (xs, p) => { const v = [...xs].sort((a, b) => a - b); return v[Math.min(v.length - 1, Math.floor(p * v.length))]; };
const kb = (b) => (b / 1e6).toFixed(3) + " MB";
console.log(`first query: ${manifest.n} entries, ${N} pasted and ${N} typed queries, each in a new Chromium, no DevTools protocol attached, hosted over ${HTTP2 ? "HTTP/2" : "HTTP/1.1"}${RTT ? `, ${RTT} ms a round trip` : ""} (load average ${fs.readFileSync("/proc/loadavg", "utf8").split(" ")[0]})`);
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

// errbook's search against mdBook's on the same catalog, in one Chromium (not a timed test).
//
//   node bench.mjs --errbook OUT --mdbook OUT --catalog CATALOG [options]
//
//   --errbook DIR   errbook's output of the catalog (`errbook build`): search/**.json, theme/search.js
//   --mdbook DIR    mdBook's output of the same content (`mdbook build`): searchindex*.js, searcher*.js;
//                   left out, errbook is measured alone (its rows of every table)
//   --catalog DIR   the errbook catalog the queries are drawn from (content/errors/<domain>/<slug>.md)
//   --queries N     pasted messages to run (default 1000)       --seed N     query generator seed (1)
//   --reloads N     page loads for the index load time (10)    --warmup N   untimed queries first (100)
//   --json FILE     also write every figure (and each query's time and answer) as JSON
//   --dump FILE     write the generated queries (JSON) and go on
//   --no-gzip       serve files uncompressed (default: gzip, level 9, as a precompressing host would)
//   --no-profile    skip the CPU profile of the slowest queries
//   --pastes FILE   also time real pastes (bench/search-eval/pastes.txt: `=== ...` headers, each
//                   paste below its own) against the same index, as the eval tool does in the terminal
//
// It measures, serving both sites from a static HTTP server on 127.0.0.1 (a random port):
// index size (raw and gzip, per entry) and the JS each search needs; index load time on a page
// of each site, through each site's own loading code (errbook: focusing the search box runs
// search.js's load(); mdBook: the search button runs searcher.js's loadSearchScript() and init());
// and the latency and top-1 answer of each tool on the same pasted messages, through the
// function each search box calls (errbook: window.errbookSearch.search, what search.js runs
// on every input; mdBook: the elasticlunr index searcher.js's init() loaded, with
// window.search.search_options, the call doSearch() makes).
//
// Every figure comes from this run: nothing is hard-coded but the query generator's word pools.

import fs from "node:fs";
import path from "node:path";
import http from "node:http";
import zlib from "node:zlib";
import os from "node:os";
import { createRequire } from "node:module";
import { SYNTH_DIRS, median, pct, mb, bytes, ms, table, readCatalog, makeQueries } from "./queries.mjs";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

// ---- options --------------------------------------------------------------------------------
const argv = process.argv.slice(2);
function opt(name, def) {
  const i = argv.indexOf("--" + name);
  if (i < 0) return def;
  if (typeof def === "boolean") return true;
  return argv[i + 1];
}
const ERR = opt("errbook", process.env.ERRBOOK_OUT);
const MD = opt("mdbook", process.env.MDBOOK_OUT);
const CATALOG = opt("catalog", process.env.CATALOG);
const NQ = +opt("queries", 1000);
const SEED = +opt("seed", 1);
const RELOADS = +opt("reloads", 10);
const WARMUP = +opt("warmup", 100);
const JSON_OUT = opt("json", null);
const DUMP = opt("dump", null);
const GZIP = !opt("no-gzip", false);
const PROFILE = !opt("no-profile", false);
const PASTES = opt("pastes", null);
// Each query runs this many times: the first run's time is the latency a user sees on this
// machine as loaded as it is; the fastest of them is the query's own cost (a busy machine's
// other programs take turns on the CPU in the middle of a query).
const RUNS = 3;
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
for (const [k, v] of [["--errbook", ERR], ["--mdbook", MD], ["--catalog", CATALOG]]) {
  if (k === "--mdbook" && !v) continue;
  if (!v || !fs.existsSync(v)) { console.error(`bench.mjs: ${k} DIR is required (got ${v})`); process.exit(2); }
}
const log = (...a) => console.error("--", ...a);

const catalog = readCatalog(CATALOG);
const byId = new Map(catalog.map((e) => [e.id, e]));
if (catalog.length === 0) { console.error("bench.mjs: no entries under " + CATALOG); process.exit(2); }

// What counts as the right answer. A synthetic catalog holds many entries of one template
// whose messages differ only in numbers, paths and hex addresses (the pasted message varies
// exactly those), so three levels are reported:
//   exact:    the top result is the entry the message was drawn from;
//   same msg: its message equals the source's once digits, hex addresses and paths (the
//             generator's, under its six directories) are set aside: every such entry is an
//             equally right answer to a paste whose numbers and paths changed;
//   template: it is an entry of the same message template (same slug, but the -N suffix).
const SYNTH_PATH = new RegExp("(?:" + SYNTH_DIRS.map((d) => d.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("|") + ")(?:/[A-Za-z0-9_.@+-]+)*", "g");
function msgKey(m) {
  return m.replace(SYNTH_PATH, "<path>").replace(/0x[0-9a-fA-F]+/g, "#").replace(/[0-9]+/g, "#");
}
function templateKey(id) {
  const m = /^(.*)-[0-9]+$/.exec(id);
  return m && byId.has(m[1]) ? m[1] : id;
}
function judge(sourceId, topId) {
  if (!topId || !byId.has(topId)) return { exact: false, msg: false, tmpl: false };
  const s = byId.get(sourceId), t = byId.get(topId);
  return { exact: sourceId === topId, msg: msgKey(s.message) === msgKey(t.message), tmpl: templateKey(sourceId) === templateKey(topId) };
}

const queries = makeQueries(catalog, NQ, SEED);
if (DUMP) fs.writeFileSync(DUMP, JSON.stringify(queries, null, 1));

// ---- sizes ------------------------------------------------------------------------------------
const gzCache = new Map();
function gz(file) {
  if (!gzCache.has(file)) gzCache.set(file, zlib.gzipSync(fs.readFileSync(file), { level: 9 }));
  return gzCache.get(file);
}
function findOne(dir, re) {
  const hits = fs.readdirSync(dir).filter((f) => re.test(f)).sort();
  return hits.length ? path.join(dir, hits[0]) : null;
}
function sizeOf(files) {
  let raw = 0, gzip = 0;
  for (const f of files) { raw += fs.statSync(f).size; gzip += gz(f).length; }
  return { raw, gzip, files: files.length > 20 ? [files.length + " files"] : files.map((f) => path.basename(f)) };
}
const nEntries = catalog.length;
// errbook's index is every shard under search/ (crates/errbook-search/src/shards.rs): the whole of it, though a
// query fetches only a few (first-query.mjs measures those).
function shardFiles(dir) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...shardFiles(p));
    else if (e.name.endsWith(".json")) out.push(p);
  }
  return out;
}
const errIndexFiles = fs.existsSync(path.join(ERR, "search/m.json")) ? shardFiles(path.join(ERR, "search")) : [];
if (!errIndexFiles.length) { console.error("bench.mjs: no search/m.json in " + ERR + " (a hosted build, not --offline)"); process.exit(2); }
const mdIndexJs = MD ? findOne(MD, /^searchindex(-[0-9a-f]+)?\.js$/) : null;
const mdIndexJson = MD ? findOne(MD, /^searchindex(-[0-9a-f]+)?\.json$/) : null;
if (MD && !mdIndexJs && !mdIndexJson) { console.error("bench.mjs: no searchindex*.js in " + MD); process.exit(2); }
const sizes = {
  errbook_index: sizeOf(errIndexFiles),
  mdbook_index_js: mdIndexJs ? sizeOf([mdIndexJs]) : null,
  mdbook_index_json: mdIndexJson ? sizeOf([mdIndexJson]) : null,
  errbook_js: sizeOf(["search-index.js", "search-rank.js", "search.js"].map((f) => path.join(ERR, "theme", f)).filter((f) => fs.existsSync(f))),
  mdbook_js: MD ? sizeOf([findOne(MD, /^elasticlunr.*\.js$/), findOne(MD, /^searcher.*\.js$/)].filter(Boolean)) : null,
  mdbook_mark_js: MD ? sizeOf([findOne(MD, /^mark.*\.js$/)].filter(Boolean)) : null,
};
const mdSize = sizes.mdbook_index_js || sizes.mdbook_index_json;
log(`sizes: errbook index ${mb(sizes.errbook_index.raw)}` + (mdSize ? `, mdBook index ${mb(mdSize.raw)}` : ""));

// ---- the server ---------------------------------------------------------------------------------
const TYPES = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8", ".json": "application/json", ".css": "text/css", ".svg": "image/svg+xml", ".xml": "application/xml", ".woff2": "font/woff2", ".woff": "font/woff", ".png": "image/png", ".ico": "image/x-icon", ".txt": "text/plain" };
const MOUNTS = MD ? { "/e/": path.resolve(ERR), "/m/": path.resolve(MD) } : { "/e/": path.resolve(ERR) };
const server = http.createServer((req, res) => {
  const u = new URL(req.url, "http://x");
  let p;
  try { p = decodeURIComponent(u.pathname); } catch { res.writeHead(400).end(); return; }
  const mount = Object.keys(MOUNTS).find((m) => p.startsWith(m));
  if (!mount) { res.writeHead(404).end(); return; }
  const root = MOUNTS[mount];
  let file = path.resolve(root, "." + p.slice(mount.length - 1));
  if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
  let st;
  try { st = fs.statSync(file); } catch { res.writeHead(404).end(); return; }
  if (st.isDirectory()) {
    if (!p.endsWith("/")) { res.writeHead(301, { Location: p + "/" }).end(); return; }
    file = path.join(file, "index.html");
    try { st = fs.statSync(file); } catch { res.writeHead(404).end(); return; }
  }
  const type = TYPES[path.extname(file)] || "application/octet-stream";
  const headers = {
    "Content-Type": type,
    // Every load is a real load: nothing from the HTTP cache.
    "Cache-Control": "no-store",
    // Cross-origin isolation: performance.now() at 5 us instead of 100 us.
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Embedder-Policy": "require-corp",
    "Cross-Origin-Resource-Policy": "same-origin",
  };
  const compressible = /^(text\/|application\/(json|xml)|image\/svg)/.test(type);
  if (GZIP && compressible && st.size > 1024 && /\bgzip\b/.test(req.headers["accept-encoding"] || "")) {
    const body = gz(file);
    res.writeHead(200, { ...headers, "Content-Encoding": "gzip", "Content-Length": body.length, Vary: "Accept-Encoding" });
    res.end(req.method === "HEAD" ? undefined : body);
  } else {
    res.writeHead(200, { ...headers, "Content-Length": st.size });
    if (req.method === "HEAD") res.end(); else fs.createReadStream(file).pipe(res);
  }
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const BASE = `http://127.0.0.1:${server.address().port}`;
// Compress the two indexes now, so no load below waits for zlib.
for (const f of [...errIndexFiles, mdIndexJs, mdIndexJson].filter(Boolean)) gz(f);
log(`serving ${ERR} at ${BASE}/e/` + (MD ? ` and ${MD} at ${BASE}/m/` : "") + `  (${GZIP ? "gzip level 9" : "uncompressed"})`);

// ---- the browser --------------------------------------------------------------------------------
const browser = await chromium.launch({
  executablePath: CHROMIUM,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
});
const version = browser.version();
log(`Chromium ${version}`);

async function newPage() {
  const context = await browser.newContext();
  const page = await context.newPage();
  page.setDefaultTimeout(600000);
  page.on("pageerror", (e) => log("page error:", e.message));
  const cdp = await context.newCDPSession(page);
  return { context, page, cdp };
}
async function heapUsed(cdp) {
  await cdp.send("HeapProfiler.collectGarbage");
  return (await cdp.send("Runtime.getHeapUsage")).usedSize;
}

// Each site's own loading path, timed from the user's action to a searchable index.
const LOADERS = {
  errbook: {
    url: `${BASE}/e/index.html`,
    // search.js loads the index's manifest when the search box gets focus (load()); its promise
    // is window.errbookSearch.state.loading. Then every shard, so that each query below is
    // ranking alone (a page fetches a query's shards as it needs them: first-query.mjs).
    load: async () => {
      const S = window.errbookSearch;
      if (!S || !S.state) throw new Error("window.errbookSearch.state not found: search.js changed?");
      const input = document.getElementById("search-input");
      const t0 = performance.now();
      input.focus();
      if (!S.state.loading) input.dispatchEvent(new FocusEvent("focus"));
      if (!S.state.loading) throw new Error("focusing #search-input did not start load()");
      const ix = await S.state.loading, m = ix.manifest;
      const names = m.t.map((r) => "t/" + r[0]).concat(m.lens.map((l) => "l/" + l));
      for (let k = 0; k * m.docs < m.n; k++) names.push("d/" + k);
      for (let k = 0; k * m.arts < m.nArts; k++) names.push("a/" + k);
      await Promise.all(names.map(ix.load));
      // The long terms' tiers, now that the runs are in: each tier's file as the theme finds it
      // (search-index.js's tierFile, crates/errbook-search/src/tiers.rs).
      const more = new Set();
      for (let i = 0; ix.tiered && i < m.count; i++) {
        const p = ix.tiered(i);
        if (p) for (let k = 0; k < p.max.length; k++) more.add(window.errbookRank.tierFile(p, k));
      }
      await Promise.all([...more].map(ix.load));
      ix.missing();
      const t1 = performance.now();
      window.__search = (q) => {
        const r = S.search(ix, q, 10);
        const top = r.hits.length ? ix.doc(r.hits[0].doc)[0] : null;
        return [top, r.hits.length, top];
      };
      return { ms: t1 - t0, docs: ix.n };
    },
  },
  mdbook: {
    url: `${BASE}/m/index.html`,
    // The search button runs showSearch(true) -> loadSearchScript(): a <script> for
    // searchindex-<hash>.js (JSON.parse of the index into window.search), whose onload runs
    // init(): elasticlunr.Index.load(config.index), then the 'searching' class goes. The
    // index object init() makes is kept by wrapping elasticlunr.Index.load (the same call).
    load: async () => {
      if (typeof elasticlunr === "undefined") throw new Error("elasticlunr is not on the page");
      const outer = document.getElementById("mdbook-searchbar-outer");
      const toggle = document.getElementById("mdbook-search-toggle");
      if (!outer || !toggle) throw new Error("mdBook's search elements not found");
      const orig = elasticlunr.Index.load;
      let idx = null;
      elasticlunr.Index.load = function (d) { idx = orig.call(this, d); return idx; };
      const t0 = performance.now();
      const t1 = await new Promise((resolve, reject) => {
        const obs = new MutationObserver(() => {
          if (idx && !outer.classList.contains("searching")) { obs.disconnect(); resolve(performance.now()); }
        });
        obs.observe(outer, { attributes: true, attributeFilter: ["class"] });
        toggle.click();
        setTimeout(() => reject(new Error("mdBook's index did not load in 300 s")), 300000);
      });
      elasticlunr.Index.load = orig;
      const opts = window.search.search_options, urls = window.search.doc_urls;
      const limit = (window.search.results_options || {}).limit_results || 30;
      const isEntry = (u) => /^errors\/[^/]+\/[^/#]+\.html/.test(u) && !/\/index\.html/.test(u);
      window.__search = (q) => {
        // doSearch(searchbar.value.trim()): searchindex.search(searchterm, search_options)
        const r = idx.search(q.trim(), opts);
        // Also the first entry page among the results searcher.js shows (limit_results).
        let entry = null;
        for (let k = 0; k < Math.min(r.length, limit) && !entry; k++) if (isEntry(urls[r[k].ref])) entry = urls[r[k].ref];
        return [r.length ? urls[r[0].ref] : null, r.length, entry];
      };
      window.__mdIdx = idx;
      return { ms: t1 - t0, docs: Object.keys(window.search.doc_urls).length };
    },
  },
};

// Index load time: RELOADS fresh page loads; after each, the first query's time (the code and
// the index are cold then) and, on the first, the heap the loaded index takes.
async function measureLoad(tool) {
  const L = LOADERS[tool];
  const { context, page, cdp } = await newPage();
  const runs = [];
  for (let r = 0; r < RELOADS; r++) {
    await page.goto(L.url, { waitUntil: "load" });
    const before = r === 0 ? await heapUsed(cdp) : 0;
    const res = await page.evaluate(L.load);
    // The text each tool's search gets (see the query rows below): as pasted for errbook, on
    // one line for mdBook's <input> (the same words to elasticlunr's tokenizer).
    const raw = queries[r % queries.length].text;
    const q = tool === "mdbook" ? raw.replace(/\r?\n/g, " ") : raw;
    const first = await page.evaluate((q) => { const t0 = performance.now(); window.__search(q); return performance.now() - t0; }, q);
    if (r === 0) res.heap = (await heapUsed(cdp)) - before;
    runs.push({ ...res, first });
    log(`${tool}: load ${r + 1}/${RELOADS}: ${ms(res.ms)} ms, first query ${ms(first)} ms`);
  }
  const iso = await page.evaluate(() => ({ isolated: self.crossOriginIsolated }));
  return { context, page, cdp, runs, iso };
}

// The text each search box holds after a paste: <input type=search> turns line breaks into
// spaces (Chromium's editing path: what execCommand('insertText') and a paste both do).
async function boxTexts(page, texts) {
  return page.evaluate((texts) => {
    const inp = document.createElement("input");
    inp.type = "search";
    document.body.appendChild(inp);
    const out = texts.map((t) => { inp.value = ""; inp.focus(); document.execCommand("insertText", false, t); return inp.value; });
    inp.remove();
    return out;
  }, texts);
}

// Time every query through window.__search, in chunks, after an untimed warm-up; each RUNS
// times (the first run's time, and the fastest; mdBook's once: its queries take 100 times as
// long).
async function runQueries(page, tool, label, texts, judged = true) {
  await page.evaluate((texts) => { window.__Q = texts; }, texts);
  await page.evaluate((n) => { for (let i = 0; i < n; i++) window.__search(window.__Q[i % window.__Q.length]); }, WARMUP);
  const out = [];
  const CH = 50;
  for (let i = 0; i < texts.length; i += CH) {
    const part = await page.evaluate(([a, b, runs]) => {
      const res = [];
      for (let i = a; i < b; i++) {
        const t0 = performance.now();
        const r = window.__search(window.__Q[i]);
        const t1 = performance.now();
        let best = t1 - t0;
        for (let k = 1; k < runs; k++) {
          const u0 = performance.now();
          window.__search(window.__Q[i]);
          best = Math.min(best, performance.now() - u0);
        }
        res.push([t1 - t0, r[0], r[1], r[2], best]);
      }
      return res;
    }, [i, Math.min(texts.length, i + CH), tool === "mdbook" ? 1 : RUNS]);
    out.push(...part);
    if ((i / CH) % 4 === 3 || i + CH >= texts.length) log(`${label}: ${Math.min(texts.length, i + CH)}/${texts.length} queries`);
  }
  // mdBook answers with page URLs: errors/<domain>/<slug>.html#anchor is an entry's page.
  const idOf = (u) => {
    if (tool !== "mdbook" || !u) return u;
    const m = /^errors\/([^#?]+)\.html/.exec(u);
    return m && byId.has(m[1]) ? m[1] : null;
  };
  // Texts that are not the generated queries (real pastes) are timed, not judged.
  if (!judged) return out.map(([t, top, , , best], i) => ({ i, ms: t, best, top }));
  return out.map(([t, top, count, entry, best], i) => {
    const topId = idOf(top), entryId = idOf(entry);
    const first = judge(queries[i].id, entryId);
    return { i, ms: t, best, top, topId, count, entry: entryId, ...judge(queries[i].id, topId), entryMsg: first.msg };
  });
}

// A CPU profile of re-running the slowest queries: where their time goes.
async function profile(cdp, page, slow, slowMs) {
  // Enough repetitions for about two seconds of samples, at most five.
  const reps = Math.max(1, Math.min(5, Math.ceil(2000 / Math.max(1, slowMs))));
  await cdp.send("Profiler.enable");
  await cdp.send("Profiler.setSamplingInterval", { interval: 50 });
  await cdp.send("Profiler.start");
  await page.evaluate(([idx, reps]) => { for (let k = 0; k < reps; k++) for (const i of idx) window.__search(window.__Q[i]); }, [slow, reps]);
  const { profile: p } = await cdp.send("Profiler.stop");
  await cdp.send("Profiler.disable");
  const self = new Map();
  const byNode = new Map(p.nodes.map((n) => [n.id, n]));
  for (let k = 0; k < p.samples.length; k++) {
    const n = byNode.get(p.samples[k]);
    const cf = n.callFrame;
    const name = `${cf.functionName || "(anonymous)"} ${cf.url ? path.basename(new URL(cf.url).pathname) + ":" + (cf.lineNumber + 1) : ""}`.trim();
    self.set(name, (self.get(name) || 0) + (p.timeDeltas[k] || 0));
  }
  const total = [...self.values()].reduce((a, b) => a + b, 0);
  return [...self.entries()].sort((a, b) => b[1] - a[1]).slice(0, 6).map(([n, t]) => ({ fn: n, share: t / total }));
}

// errbook: why a query is slow. Its terms, and how many of them found no term or prefix in the
// index and so went to the typo scan (an edit distance against every term): search.js's
// expand() decides that; the same test is repeated here on the terms search() returned.
async function errbookWhy(page, i) {
  return page.evaluate((i) => {
    const S = window.errbookSearch, idx = S.state.idx;
    const r = S.search(idx, window.__Q[i], 10);
    let typo = 0;
    r.terms.forEach((t, k) => {
      const s = idx.lower(t);
      const exact = s < idx.count && idx.termAt(s) === t;
      const prefix = (!exact || k + 1 === r.terms.length) && s + (exact ? 1 : 0) < idx.count && idx.termAt(s + (exact ? 1 : 0)).startsWith(t);
      if (!exact && !prefix && t.length >= 4) typo++;
    });
    return { terms: r.terms.length, typo, template: r.detected.template.slice(0, 100) };
  }, i);
}
// mdBook: the query's tokens after elasticlunr's pipeline, and how many index tokens they
// expand to (expand: true searches every token that starts with a query token).
async function mdbookWhy(page, i) {
  return page.evaluate((i) => {
    const idx = window.__mdIdx, opts = window.search.search_options;
    const toks = idx.pipeline.run(elasticlunr.tokenizer(window.__Q[i].trim()));
    let expanded = 0;
    for (const f of Object.keys(opts.fields || {})) for (const t of toks) expanded += idx.index[f].expandToken(t).length;
    return { terms: toks.length, expanded };
  }, i);
}

function summary(rows) {
  const t = rows.map((r) => r.ms), b = rows.map((r) => r.best);
  const n = rows.length;
  return {
    n, median: median(t), p95: pct(t, 0.95), max: Math.max(...t), over10: t.filter((x) => x > 10).length,
    best: { median: median(b), p95: pct(b, 0.95), max: Math.max(...b), over10: b.filter((x) => x > 10).length },
    exact: rows.filter((r) => r.exact).length / n, msg: rows.filter((r) => r.msg).length / n, tmpl: rows.filter((r) => r.tmpl).length / n,
    none: rows.filter((r) => !r.top).length,
    entryMsg: rows.filter((r) => r.entryMsg).length / n,
  };
}

// ---- run ------------------------------------------------------------------------------------------
const loadBefore = os.loadavg();
const results = { chromium: version, entries: nEntries, queries: queries.length, seed: SEED, gzip: GZIP, sizes, load: {}, latency: {}, slow: {}, profile: {} };
const rawTexts = queries.map((q) => q.text);

// errbook
let E = await measureLoad("errbook");
results.load.errbook = E.runs;
results.isolated = E.iso.isolated;
const boxed = await boxTexts(E.page, rawTexts);
const rows = {};
rows["errbook, pasted text"] = await runQueries(E.page, "errbook", "errbook page", rawTexts);
rows["errbook, flattened to one line"] = await runQueries(E.page, "errbook", "errbook box", boxed);
{
  const r = rows["errbook, pasted text"];
  const slow = [...r].sort((a, b) => b.ms - a.ms).slice(0, 20).map((x) => x.i);
  await E.page.evaluate((t) => { window.__Q = t; }, rawTexts);
  results.slow.errbook = [];
  for (const i of slow.slice(0, 5)) results.slow.errbook.push({ i, ms: r[i].ms, kind: queries[i].kind, chars: rawTexts[i].length, ...(await errbookWhy(E.page, i)) });
  if (PROFILE) results.profile.errbook = await profile(E.cdp, E.page, slow, slow.reduce((a, i) => a + r[i].ms, 0));
}
// Real pastes (the evaluation set's), timed against this index: their text only, not judged
// (their catalog is another one).
let pasteRows = null;
if (PASTES) {
  const texts = [];
  for (const line of fs.readFileSync(PASTES, "utf8").split("\n")) {
    if (line.startsWith("=== ")) texts.push("");
    else if (texts.length) texts[texts.length - 1] += line + "\n";
  }
  pasteRows = await runQueries(E.page, "errbook", "errbook real pastes", texts, false);
}
await E.context.close();

// mdBook
if (MD) {
let M = await measureLoad("mdbook");
results.load.mdbook = M.runs;
rows["mdBook, search bar"] = await runQueries(M.page, "mdbook", "mdBook", boxed);
{
  const r = rows["mdBook, search bar"];
  const slow = [...r].sort((a, b) => b.ms - a.ms).slice(0, 20).map((x) => x.i);
  results.slow.mdbook = [];
  for (const i of slow.slice(0, 5)) results.slow.mdbook.push({ i, ms: r[i].ms, kind: queries[i].kind, chars: boxed[i].length, ...(await mdbookWhy(M.page, i)) });
  if (PROFILE) results.profile.mdbook = await profile(M.cdp, M.page, slow, slow.reduce((a, i) => a + r[i].ms, 0));
  const kinds = {};
  for (const x of r) {
    const k = !x.top ? "no result" : x.topId ? "an entry" : /^articles\//.test(x.top) ? "an article" :
      /^errors\/[^/]+\/index\.html/.test(x.top) ? "a domain's list of entries" : "other (" + x.top.split("#")[0] + ")";
    kinds[k] = (kinds[k] || 0) + 1;
  }
  results.mdbook_top_kinds = kinds;
}
await M.context.close();
}
await browser.close();
server.close();

for (const [k, v] of Object.entries(rows)) results.latency[k] = summary(v);
if (pasteRows) results.pastes = { file: PASTES, ...summary(pasteRows) };
// By kind of paste, for the accuracy of each row.
const kinds = [...new Set(queries.map((q) => q.kind))];
results.by_kind = {};
for (const [k, v] of Object.entries(rows)) {
  results.by_kind[k] = {};
  for (const kind of kinds) {
    const sub = v.filter((r) => queries[r.i].kind === kind);
    results.by_kind[k][kind] = { n: sub.length, msg: sub.filter((r) => r.msg).length / sub.length, median: median(sub.map((r) => r.ms)) };
  }
}

// ---- the tables ---------------------------------------------------------------------------------
results.loadavg = { before: loadBefore, after: os.loadavg() };
const P = (x) => (100 * x).toFixed(1) + "%";
const out = [];
out.push(`errbook search vs mdBook search: ${nEntries} entries (${CATALOG}), ${queries.length} pasted messages (seed ${SEED}), Chromium ${version}, ` +
  `timer ${results.isolated ? "cross-origin isolated (5 us)" : "not isolated (100 us)"}, served ${GZIP ? "gzip level 9" : "uncompressed"} from 127.0.0.1`);
out.push(`machine: ${os.cpus().length} CPUs (${(os.cpus()[0] || {}).model || "?"}), load average ${results.loadavg.before.map((x) => x.toFixed(2)).join(" ")} at the start, ` +
  `${results.loadavg.after.map((x) => x.toFixed(2)).join(" ")} at the end`);
out.push("");
out.push("Index size (gzip: zlib level 9)");
const sz = (label, s, perEntry = true) => [label, s.files.join(" + "), mb(s.raw), mb(s.gzip), perEntry ? bytes(s.raw / nEntries) : "", perEntry ? bytes(s.gzip / nEntries) : ""];
const sizeRows = [sz("errbook index", sizes.errbook_index)];
if (sizes.mdbook_index_js) sizeRows.push(sz("mdBook index", sizes.mdbook_index_js));
if (sizes.mdbook_index_json) sizeRows.push(sz("mdBook index (json)", sizes.mdbook_index_json));
sizeRows.push(sz("errbook JS", sizes.errbook_js, false));
if (MD) sizeRows.push(sz("mdBook JS", sizes.mdbook_js, false));
if (MD && sizes.mdbook_mark_js.files.length) sizeRows.push(sz("mdBook JS (highlight)", sizes.mdbook_mark_js, false));
out.push(table(["", "files", "raw", "gzip", "raw/entry", "gzip/entry"], sizeRows));
const mdI = mdSize;
if (MD) out.push(`errbook's index is ${(mdI.raw / sizes.errbook_index.raw).toFixed(1)}x smaller raw, ${(mdI.gzip / sizes.errbook_index.gzip).toFixed(1)}x gzipped.` +
  (sizes.mdbook_index_json ? "" : " (mdBook " + "writes no searchindex.json any more: the index is only the script.)"));
out.push("");
out.push(`Index load, from the user's action to a searchable index (${RELOADS} page loads each)`);
const lr = (tool, label) => {
  const r = results.load[tool];
  const t = r.map((x) => x.ms), f = r.map((x) => x.first);
  return [label, ms(median(t)), ms(Math.min(...t)), ms(Math.max(...t)), ms(median(f)), ms(median(t.map((x, i) => x + f[i]))), mb(r[0].heap)];
};
out.push(table(["", "median ms", "min", "max", "1st query ms", "load+1st ms", "JS heap"], [
  lr("errbook", "errbook (focus box: load())"), ...(MD ? [lr("mdbook", "mdBook (search button: init())")] : [])]));
out.push("");
out.push(`Query latency and top-1 answer (${queries.length} pasted messages; warm-up ${WARMUP} untimed; p95: nearest rank)`);
const qr = Object.entries(results.latency).map(([k, s]) => [k, ms(s.median), ms(s.p95), ms(s.max), s.over10, P(s.exact), P(s.msg), P(s.tmpl), s.none, P(s.entryMsg)]);
out.push(table(["", "median ms", "p95", "max", ">10 ms", "top-1 exact", "same msg", "template", "no result", "1st entry: same msg"], qr));
out.push(`  times: each query's first run. Its fastest of ${RUNS} runs (its own cost, without the machine's other work):`);
for (const [k, v] of Object.entries(results.latency)) {
  out.push(`  ${k}: median ${ms(v.best.median)} ms, p95 ${ms(v.best.p95)}, max ${ms(v.best.max)}, over 10 ms: ${v.best.over10}`);
}
out.push("  exact: the entry the message came from; same msg: an entry whose message differs from it only in numbers,");
out.push("  hex and paths (the catalog has many such; any is right); template: an entry of the same message template.");
out.push("  1st entry: the first entry page among the results shown (mdBook: limit_results; its other results are");
if (MD) out.push(`  articles and lists). mdBook's top result was: ${Object.entries(results.mdbook_top_kinds).map(([k, v]) => `${k} ${v}`).join(", ")}.`);
if (results.pastes) {
  const p = results.pastes;
  out.push("");
  out.push(`Real pastes (${PASTES}), ${p.n} of them, against the same index (ms; first run, and fastest of ${RUNS})`);
  out.push(table(["", "median ms", "p95", "max", ">10 ms"], [
    ["first run", ms(p.median), ms(p.p95), ms(p.max), p.over10],
    [`fastest of ${RUNS}`, ms(p.best.median), ms(p.best.p95), ms(p.best.max), p.best.over10]]));
}
out.push("");
out.push("Top-1 (same msg) and median ms by kind of paste");
const kr = kinds.map((kind) => [kind, results.by_kind[Object.keys(rows)[0]][kind].n,
  ...Object.keys(rows).flatMap((k) => [P(results.by_kind[k][kind].msg), ms(results.by_kind[k][kind].median)])]);
const SHORT = { "errbook, pasted text": "errbook", "errbook, flattened to one line": "errbook flat", "mdBook, search bar": "mdBook" };
out.push(table(["kind", "n", ...Object.keys(rows).flatMap((k) => [(SHORT[k] || k) + " acc", "ms"])], kr));
out.push("");
out.push("Slowest queries");
for (const [tool, list] of Object.entries(results.slow)) {
  for (const s of list) {
    out.push(`  ${tool} #${s.i} ${ms(s.ms)} ms, ${s.kind}, ${s.chars} chars, ${s.terms} terms` +
      (tool === "errbook" ? `, ${s.typo} to the typo scan; template "${s.template}"` : `, expanded to ${s.expanded} index tokens`));
  }
  if (results.profile[tool]) out.push(`  ${tool} profile of its 20 slowest (self time): ` + results.profile[tool].map((p) => `${p.fn} ${(100 * p.share).toFixed(0)}%`).join(", "));
}
console.log(out.join("\n"));

if (JSON_OUT) {
  results.table = out.join("\n");
  results.rows = Object.fromEntries(Object.entries(rows).map(([k, v]) => [k, v.map((r) => ({ ms: r.ms, top: r.top, exact: r.exact, msg: r.msg, tmpl: r.tmpl }))]));
  fs.writeFileSync(JSON_OUT, JSON.stringify(results, null, 1));
}

// What a fetched file and its bytes cost headless Chromium on this machine, apart from any
// search: a page fetches N files of S bytes of JSON (numbers) at once, from a local server, and
// times them from the first request to the last parsed. Each measurement in a new browser.
//
//   node fetch-cost.mjs '[[N, S, MODE, WARM]...]' [TRIALS]
//
// MODE: json (response.json(), the default), text, ab (arrayBuffer), xhr, nostore (json, with
// the fetch's `cache: "no-store"`: Chromium neither looks in its HTTP cache nor writes to it)
// or script (a <script> tag a file, as the offline bundle loads its shards: the file calls
// errbookShard(name, 'JSON') and the page parses the string); WARM: that many
// small files fetched first and 300 ms given, so that the connections are open, as on a page
// whose manifest and scripts came already. GZ=1 sends each file gzipped (Content-Encoding).
// Prints each condition's median and all its times, in ms.

import http from "http";
import zlib from "zlib";
import { spawn } from "child_process";
import fs from "fs";
import os from "os";
import path from "path";

if (!process.argv[2]) {
  console.error(`usage: node fetch-cost.mjs '[[N, S, MODE, WARM]...]' [TRIALS]`);
  process.exit(2);
}
const CONDITIONS = JSON.parse(process.argv[2]);
const TRIALS = +(process.argv[3] || 5);
const CHROMIUM = process.env.CHROMIUM || "/usr/bin/chromium";
const GZ = process.env.GZ ? "1" : "";

// File i of `size` bytes: a JSON array of pseudo-random numbers, the same every run.
function body(size, i) {
  const out = [];
  let len = 2, x = i * 7919 + 1;
  while (len < size) {
    x = (x * 1103515245 + 12345) % 2147483648;
    const v = String(x % 100000);
    out.push(v);
    len += v.length + 1;
  }
  return Buffer.from("[" + out.join(",") + "]");
}

// The page: opens WARM connections, waits, then fetches N files of S bytes at once and reports
// the milliseconds from the first request to the last parsed.
const PAGE = `<!doctype html><html><body><script>
const q = new URLSearchParams(location.hash.slice(1));
const n = +q.get("n"), s = +q.get("s"), mode = q.get("m"), warm = +q.get("w"), gz = q.get("gz");
const url = (i) => "/f/" + s + "/" + i + "?" + (gz ? "gz=1&" : "") + Math.random();
const waiting = {};
window.errbookShard = (name, json) => { const w = waiting[name]; delete waiting[name]; w(JSON.parse(json)); };
function one(i) {
  if (mode === "script") {
    return new Promise((ok) => {
      const el = document.createElement("script"), u = url(i).replace("?", ".js?");
      waiting[u.split("?")[0]] = ok;
      el.src = u;
      el.onload = () => el.remove();
      document.head.appendChild(el);
    });
  }
  if (mode === "xhr") {
    return new Promise((ok) => {
      const x = new XMLHttpRequest();
      x.open("GET", url(i));
      x.onload = () => ok(JSON.parse(x.responseText));
      x.send();
    });
  }
  const init = mode === "nostore" ? { cache: "no-store" } : {};
  return fetch(url(i), init).then((r) => (mode === "text" ? r.text() : mode === "ab" ? r.arrayBuffer() : r.json()));
}
const opened = Promise.all(Array.from({ length: warm }, (_, i) => fetch("/f/10/" + i + "?w" + Math.random()).then((r) => r.text())));
opened.then(() => setTimeout(async () => {
  const t0 = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => one(i)));
  navigator.sendBeacon("/__r", JSON.stringify({ ms: performance.now() - t0 }));
}, 300));
</script></body></html>`;

const files = new Map();
function file(size, i, gzip) {
  const key = `${size}/${i}/${gzip}`;
  if (!files.has(key)) files.set(key, gzip ? zlib.gzipSync(body(size, i)) : body(size, i));
  return files.get(key);
}
let reported = null;
const server = http.createServer((req, res) => {
  if (req.url.startsWith("/__r")) {
    let b = "";
    req.on("data", (c) => (b += c));
    req.on("end", () => { res.end(); if (reported) reported(JSON.parse(b)); });
    return;
  }
  if (req.url.startsWith("/f/")) {
    const name = req.url.split("?")[0];
    if (name.endsWith(".js")) {
      const [, , size, i] = name.slice(0, -3).split("/");
      res.writeHead(200, { "content-type": "text/javascript" });
      res.end(`errbookShard(${JSON.stringify(name)},'${file(+size, +i, false)}')`);
      return;
    }
    const [, , size, i] = name.split("/");
    const gzip = req.url.includes("gz=1");
    res.writeHead(200, { "content-type": "application/json", ...(gzip ? { "content-encoding": "gzip" } : {}) });
    res.end(file(+size, +i, gzip));
    return;
  }
  res.writeHead(200, { "content-type": "text/html" });
  res.end(PAGE);
});
await new Promise((r) => server.listen(0, "127.0.0.1", r));
const PORT = server.address().port;

const FLAGS = ["--headless", "--no-sandbox", "--no-first-run", "--disable-extensions", "--disable-background-networking",
  "--disable-component-update", "--disable-sync", "--mute-audio", "--disable-gpu"];
// One measurement, in a new browser.
async function measure(n, s, mode, warm) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "errbook-fetch-cost-"));
  const got = new Promise((r) => (reported = r));
  const url = `http://127.0.0.1:${PORT}/#n=${n}&s=${s}&m=${mode}&w=${warm}&gz=${GZ}`;
  const chrome = spawn(CHROMIUM, [...FLAGS, `--user-data-dir=${dir}`, url], { stdio: "ignore", detached: true });
  const exited = new Promise((r) => chrome.on("exit", r));
  try {
    return (await got).ms;
  } finally {
    try { process.kill(-chrome.pid, "SIGKILL"); } catch {}
    await exited;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

// Trials interleaved across the conditions, so that a noisy moment touches them all.
const times = new Map();
for (let t = 0; t < TRIALS; t++) {
  for (const [n, s, mode = "json", warm = 0] of CONDITIONS) {
    const name = `${n}x${s}${mode}${warm ? "w" + warm : ""}`;
    if (!times.has(name)) times.set(name, []);
    times.get(name).push(await measure(n, s, mode, warm));
  }
}
for (const [name, v] of times) {
  v.sort((a, b) => a - b);
  console.log(name.padEnd(16), "median", v[v.length >> 1].toFixed(1), "all", v.map((x) => x.toFixed(1)).join(" "));
}
server.close();

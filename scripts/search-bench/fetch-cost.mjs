// What a fetched file and its bytes cost headless Chromium on this machine, apart from any
// search: a page fetches N files of S bytes of JSON (numbers) at once, from a local server, and
// times them from the first request to the last parsed. Each measurement in a new browser.
//
//   node fetch-cost.mjs '[[N, S, MODE, WARM]...]' [TRIALS]
//
// MODE: json (response.json(), the default), text, ab (arrayBuffer) or xhr; WARM: that many
// small files fetched first and 300 ms given, so that the connections are open, as on a page
// whose manifest and scripts came already. GZ=1 sends each file gzipped (Content-Encoding).
// Prints each condition's median and all its times, in ms.
import http from "http";
import zlib from "zlib"; import { spawn } from "child_process"; import fs from "fs"; import os from "os"; import path from "path";
const body = (size, i) => { let a = []; let s = 2; let x = i * 7919 + 1; while (s < size) { x = (x * 1103515245 + 12345) % 2147483648; const v = String(x % 100000); a.push(v); s += v.length + 1; } return "[" + a.join(",") + "]"; };
const cache = new Map();
let report = null;
const page = `<!doctype html><html><body><script>
const P=new URLSearchParams(location.hash.slice(1));const n=+P.get("n"),s=+P.get("s"),mode=P.get("m");
const warm=+P.get("w");(warm?Promise.all(Array.from({length:warm},(_,i)=>fetch("/f/10/"+i+"?w"+Math.random()).then(r=>r.text()))):Promise.resolve()).then(()=>setTimeout(async()=>{const t0=performance.now();
 await Promise.all(Array.from({length:n},(_,i)=>mode==="xhr"?new Promise(ok=>{const x=new XMLHttpRequest();x.open("GET","/f/"+s+"/"+i+"?"+Math.random());x.onload=()=>ok(JSON.parse(x.responseText));x.send();}):fetch("/f/"+s+"/"+i+"?"+(P.get("gz")?"gz=1&":"")+Math.random()).then(r=>mode==="text"?r.text():mode==="ab"?r.arrayBuffer():r.json())));
 const t1=performance.now();navigator.sendBeacon("/__r",JSON.stringify({ms:t1-t0}));},300));
</script></body></html>`;
const server = http.createServer((req, res) => {
  if (req.url.startsWith("/__r")) { let b = ""; req.on("data", c => b += c); req.on("end", () => { res.end(); report && report(JSON.parse(b)); }); return; }
  if (req.url.startsWith("/f/")) { const [, , s, i] = req.url.split("?")[0].split("/"); const k = s + "/" + i; if (!cache.has(k)) cache.set(k, Buffer.from(body(+s, +i))); if (req.url.includes("gz=1")) { const gk = "gz" + k; if (!cache.has(gk)) cache.set(gk, zlib.gzipSync(cache.get(k))); res.writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" }); res.end(cache.get(gk)); return; } res.writeHead(200, { "content-type": "application/json" }); res.end(cache.get(k)); return; }
  res.writeHead(200, { "content-type": "text/html" }); res.end(page);
});
await new Promise(r => server.listen(0, "127.0.0.1", r));
const port = server.address().port;
const FLAGS = ["--headless", "--no-sandbox", "--no-first-run", "--disable-extensions", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--mute-audio", "--disable-gpu"];
async function one(n, s, m, w) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fc-"));
  const got = new Promise(r => report = r);
  const c = spawn(process.env.CHROMIUM || "/usr/bin/chromium", [...FLAGS, `--user-data-dir=${dir}`, `http://127.0.0.1:${port}/#n=${n}&s=${s}&m=${m}&w=${w||0}&gz=${process.env.GZ||""}`], { stdio: "ignore", detached: true });
  const ex = new Promise(r => c.on("exit", r));
  const out = await got; try { process.kill(-c.pid, "SIGKILL"); } catch {} await ex; fs.rmSync(dir, { recursive: true, force: true });
  return out.ms;
}
const conds = JSON.parse(process.argv[2]); const T = +(process.argv[3] || 5);
const res = {}; for (let t = 0; t < T; t++) for (const [n, s, m, w] of conds) (res[n + "x" + s + (m||"") + (w?"w"+w:"")] ||= []).push(await one(n, s, m || "json", w));
for (const [k, v] of Object.entries(res)) { v.sort((a, b) => a - b); console.log(k.padEnd(16), "median", v[v.length >> 1].toFixed(1), "all", v.map(x => x.toFixed(1)).join(" ")); }
server.close();

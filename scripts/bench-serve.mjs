// Edit-to-visible-page latency of `errbook serve`, measured in headless Chromium: the time from
// writing an entry's file to the moment the open page shows the edit (rebuild, long-poll wake,
// reload, paint). Prints the median and the 90th percentile; asserts nothing.
//
//   node scripts/bench-serve.mjs [SITE] [RUNS]
//     SITE: a catalog folder (default: a copy of this repository's catalog)
//     RUNS: edits to time (default 20)
//   ERRBOOK_BIN=target/release/errbook node scripts/bench-serve.mjs   # the binary to time
//   bash scripts/bench-serve.sh                                        # this repo and 10k pages
import fs from "node:fs";
import path from "node:path";
import { REPO, launch, serve, tempDir } from "../tests/browser/harness.mjs";

const runs = Number(process.argv[3] || 20);
let site = process.argv[2];
const tmp = tempDir("bench-serve");
if (!site) {
  site = path.join(tmp, "site");
  for (const p of ["content", "verify", "book.toml"]) fs.cpSync(path.join(REPO, p), path.join(site, p), { recursive: true });
}
const entries = path.join(site, "content/errors");
const domain = fs.readdirSync(entries).sort()[0];
const file = fs.readdirSync(path.join(entries, domain)).filter((f) => f.endsWith(".md")).sort()[0];
const entry = path.join(entries, domain, file);
const url = `/errors/${domain}/${file.replace(/\.md$/, "")}/`;
const original = fs.readFileSync(entry, "utf8");
const pages = fs.readdirSync(entries).reduce((n, d) => n + fs.readdirSync(path.join(entries, d)).length, 0);

const server = await serve(site);
const browser = await launch();
const page = await browser.newPage();
const times = [];
try {
  await page.goto(server.base + url);
  for (let i = 0; i < runs + 2; i++) {
    const mark = `BENCH-MARK-${i}-${Date.now()}`;
    const t0 = performance.now();
    fs.writeFileSync(entry, original.replace("## Root Cause\n\n", `## Root Cause\n\n${mark} `));
    await page.getByText(mark).first().waitFor({ timeout: 30_000 });
    const ms = performance.now() - t0;
    if (i >= 2) times.push(ms); // the first two warm the caches
    await new Promise((r) => setTimeout(r, 300));
  }
} finally {
  fs.writeFileSync(entry, original);
  await browser.close();
  await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
times.sort((a, b) => a - b);
const q = (p) => times[Math.min(times.length - 1, Math.floor(p * times.length))];
console.log(`edit to visible page, ${site} (${pages} entries), ${times.length} edits: median ${q(0.5).toFixed(0)} ms, p90 ${q(0.9).toFixed(0)} ms, max ${times[times.length - 1].toFixed(0)} ms`);

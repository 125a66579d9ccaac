// Edit-to-visible-page latency of `errbook serve`, measured in headless Chromium: the time from
// writing an entry's file to the moment the open page shows the edit (watch, rebuild of that page,
// long-poll wake, reload, paint), and the time until serve has also rewritten what the edit affects
// elsewhere (relinking, the pages that link to it, the index: serve says "built:"). Each edit
// starts once the previous one has settled, as a writer's saves are seconds apart. Prints the
// median and the 90th percentile of both; asserts nothing.
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
const settled = [];
const builtLines = () => (server.log().match(/^built: /gm) || []).length;
try {
  await page.goto(server.base + url);
  for (let i = 0; i < runs + 2; i++) {
    const mark = `BENCH-MARK-${i}-${Date.now()}`;
    const before = builtLines();
    const t0 = performance.now();
    fs.writeFileSync(entry, original.replace("## Root Cause\n\n", `## Root Cause\n\n${mark} `));
    await page.getByText(mark).first().waitFor({ timeout: 60_000 });
    const ms = performance.now() - t0;
    while (builtLines() === before) {
      if (performance.now() - t0 > 120_000) throw new Error(`serve never settled:\n${server.log().slice(-2000)}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    if (i >= 2) { // the first two warm the caches
      times.push(ms);
      settled.push(performance.now() - t0);
    }
    await new Promise((r) => setTimeout(r, 300));
  }
} finally {
  fs.writeFileSync(entry, original);
  await browser.close();
  await server.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}
const fig = (xs) => {
  xs.sort((a, b) => a - b);
  const q = (p) => xs[Math.min(xs.length - 1, Math.floor(p * xs.length))].toFixed(0);
  return `median ${q(0.5)} ms, p90 ${q(0.9)} ms, max ${q(1)} ms`;
};
console.log(`${site} (${pages} entries), ${times.length} edits:`);
console.log(`  edit to visible page:       ${fig(times)}`);
console.log(`  edit to everything written: ${fig(settled)}`);

// What verification shows a reader, in real headless Chromium (Debian's /usr/bin/chromium, driven
// by playwright-core): the repository's own catalog, built offline with the records committed in
// verify/, opened from file://.
//
//   entry    the Verification line computed from the records; workarounds ordered by what their
//            runs found; a failed workaround marked, its run open with the "Verified on" table
//            (environment, verdict, date, duration) and the root cause before the error it led
//            to; a confirmed one closed until the reader opens it;
//   article  the note that a code block applies workaround 1 carries a cross, not a check mark.
//
// Run: bash .ci/browser.sh, or ERRBOOK_BIN=target/debug/errbook node --test tests/browser/

import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const CHROMIUM = process.env.CHROMIUM_BIN || "/usr/bin/chromium";
const ERRBOOK = (() => {
  if (process.env.ERRBOOK_BIN) return path.resolve(REPO, process.env.ERRBOOK_BIN);
  for (const p of ["target/debug/errbook", "target/release/errbook"]) {
    if (fs.existsSync(path.join(REPO, p))) return path.join(REPO, p);
  }
  throw new Error("no errbook binary: run `cargo build` or set ERRBOOK_BIN");
})();
const STEP_MS = 15_000;
const TEST_MS = 60_000;
const squash = (s) => s.replace(/\s+/g, " ").trim();

/** The repository's catalog built offline into a temporary folder; the folder. */
function buildSeed() {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "errbook-browser-verify-"));
  const site = path.join(tmp, "site");
  fs.mkdirSync(site);
  fs.copyFileSync(path.join(REPO, "book.toml"), path.join(site, "book.toml"));
  for (const d of ["content", "themes", "verify", "static"]) {
    const from = path.join(REPO, d);
    if (fs.existsSync(from)) fs.cpSync(from, path.join(site, d), { recursive: true });
  }
  const out = path.join(tmp, "out");
  const r = spawnSync(ERRBOOK, ["--root", site, "build", "--offline", "-d", out], {
    encoding: "utf8",
    timeout: 120_000,
  });
  assert.equal(r.status, 0, `errbook build failed:\n${r.stdout}\n${r.stderr}`);
  return { tmp, out };
}

let browser;
let built;
before(async () => {
  assert.ok(fs.existsSync(CHROMIUM), `no chromium at ${CHROMIUM} (Debian: apt-get install chromium)`);
  built = buildSeed();
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
});
after(async () => {
  if (browser) await browser.close();
  if (built) fs.rmSync(built.tmp, { recursive: true, force: true });
});

async function open(rel) {
  const page = await browser.newPage();
  page.setDefaultTimeout(STEP_MS);
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.goto(pathToFileURL(path.join(built.out, rel)).href);
  return { page, errors };
}

/** The cells of the "Verified on" table rows inside `scope`, as their visible text. */
async function rows(scope) {
  return scope.locator("table.verified-on tbody tr").evaluateAll((trs) =>
    trs.map((tr) => [...tr.querySelectorAll("td")].map((td) => td.innerText.replace(/\s+/g, " ").trim())),
  );
}

describe("verification on the seed entry page", () => {
  test("the Verification line and the order of the workarounds come from the runs", { timeout: TEST_MS }, async () => {
    const { page, errors } = await open("errors/pytorch/dataset-worker-fork-cuda/index.html");
    const note = squash(await page.locator(".verification-note").innerText());
    assert.match(note, /^Verified on H100 and H200, \d{4}-\d{2}-\d{2}: 1 of 3 workarounds works, 2 failed; dead ends: 1 actually works/);
    // What works here first, then what failed here.
    const order = await page.locator("#works-here > ol > li, #failed-here > ol > li").evaluateAll((lis) => lis.map((li) => li.id));
    assert.deepEqual(order, ["workaround-3", "workaround-1", "workaround-2"]);
    assert.equal(squash(await page.locator("#workaround-1 > .verdict").innerText()), "failed");
    assert.equal(squash(await page.locator("#workaround-3 > .verdict").innerText()), "works");
    assert.match(await page.locator("#workaround-1").getAttribute("class"), /\bfix-bad\b/);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a failed workaround's run opens on its Verified-on table and root cause", { timeout: TEST_MS }, async () => {
    const { page } = await open("errors/pytorch/dataset-worker-fork-cuda/index.html");
    const run = page.locator("#workaround-1 details.run");
    // Collapsed: its summary's chip says "failed"; the details are a click away.
    assert.equal(await run.getAttribute("open"), null, "run details are collapsed");
    await run.locator(":scope > summary").click();
    const record = run.locator("details.run-record");
    assert.equal(await record.count(), 1, "one outcome, shown once for both machines");
    await record.locator(":scope > summary").click();
    const table = run.locator("table.verified-on");
    assert.ok(await table.isVisible(), "the Verified on table is visible");
    assert.equal(squash(await table.locator("caption").innerText()), "Verified on");
    const head = await table.locator("thead th").allInnerTexts();
    assert.deepEqual(head.map(squash), ["Environment", "Verdict", "Date", "Duration"]);
    const r = await rows(run);
    assert.equal(r.length, 2, "one row per environment");
    assert.match(r[0][0], /^1× H100, driver 580\.159\.04, CUDA 13\.0, Python 3\.12\.3, PyTorch 2\.11\.0\+cu130$/);
    // The verdict as recorded; the date and duration are the newest run's, whichever it is.
    assert.equal(r[0][1], "failed");
    assert.match(r[0][2], /^\d{4}-\d{2}-\d{2}$/);
    assert.match(r[0][3], /^\d+(\.\d+)? s$/);
    assert.match(r[1][0], /^1× H200, driver 580\.159\.04, CUDA 13\.0, Python 3\.12\.3, PyTorch 2\.11\.0\+cu130$/);
    assert.equal(r[1][1], "failed");
    assert.match(r[1][2], /^\d{4}-\d{2}-\d{2}$/);
    const facts = squash(await run.locator(".run-record .run-facts").first().innerText());
    const cause = facts.indexOf("Root cause");
    const reported = facts.indexOf("Reported as");
    assert.ok(cause >= 0 && reported > cause, facts);
    assert.match(facts, /An attempt has been made to start a new process/);
    await page.close();
  });

  test("a workaround that works keeps its run closed until the reader opens it", { timeout: TEST_MS }, async () => {
    const { page } = await open("errors/pytorch/dataset-worker-fork-cuda/index.html");
    const run = page.locator("#workaround-3 details.run");
    assert.equal(await run.getAttribute("open"), null);
    const table = run.locator("table.verified-on");
    assert.equal(await table.isVisible(), false);
    await run.locator(":scope > summary").click();
    await table.waitFor({ state: "visible" });
    const r = await rows(run);
    assert.deepEqual(r.map((c) => c[1]), ["works", "works"]);
    await page.close();
  });
});

describe("verification on a seed article", () => {
  test("applying a workaround that failed when run carries a cross", { timeout: TEST_MS }, async () => {
    const { page } = await open("articles/why-am-i-getting-a-cuda-initialization-error/index.html");
    const flags = page.locator("p.flag-applies");
    const texts = (await flags.allInnerTexts()).map(squash);
    const w1 = texts.filter((t) => t.includes("Applies workaround 1 "));
    assert.ok(w1.length > 0, texts.join("\n"));
    for (const t of w1) {
      assert.ok(t.startsWith("✗ Applies workaround 1"), t);
      assert.match(t, /failed on H100 and H200/);
    }
    const classes = await flags.evaluateAll((ps) => ps.map((p) => [p.innerText.trim().slice(0, 24), p.className]));
    for (const [t, c] of classes) {
      if (t.includes("workaround 1")) assert.match(c, /\bflag-bad\b/, t);
      if (t.includes("workaround 3")) assert.match(c, /\bflag-ok\b/, t);
    }
    await page.close();
  });
});

// `errbook serve` in Chromium through the edits a contributor makes: a start on content that does
// not build (the page shows the diagnostics, then the site once fixed, by itself), a break and its
// undo (the errors over the page, then the page again), a rename out and back (the same), and a
// content edit swapped into the open page without a reload, whose search then answers from the
// rebuilt index.
//
// Run: bash .ci/browser.sh, or ERRBOOK_BIN=target/debug/errbook node --test tests/browser/

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { REPO, launch, serve, tempDir } from "./harness.mjs";

let tmp, site, browser;
const ENTRY = "content/errors/pytorch/dataset-worker-fork-cuda.md";
const URL_PATH = "/errors/pytorch/dataset-worker-fork-cuda/";

before(async () => {
  tmp = tempDir("serve");
  site = path.join(tmp, "site");
  for (const p of ["content", "verify", "book.toml"]) {
    fs.cpSync(path.join(REPO, p), path.join(site, p), { recursive: true });
  }
  browser = await launch();
});

after(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const entryPath = () => path.join(site, ENTRY);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Waits until serve's log has not grown for `ms`.
async function quiet(server, ms, deadline) {
  let last = server.log().length, since = Date.now();
  while (Date.now() - since < ms && Date.now() < deadline) {
    await sleep(50);
    const now = server.log().length;
    if (now !== last) { last = now; since = Date.now(); }
  }
}

// page.goto that tries again when a live reload interrupts it.
async function gotoPast(page, url) {
  for (let tries = 0; ; tries++) {
    try {
      return await page.goto(url);
    } catch (e) {
      if (tries >= 4 || !/interrupted by another navigation/.test(String(e))) throw e;
      await page.waitForLoadState("load");
    }
  }
}
const overlay = (page) => page.locator("#errbook-errors");

test("serve: broken start, break, undo, rename: the page follows each edit", { timeout: 180_000 }, async () => {
  const good = fs.readFileSync(entryPath(), "utf8");
  const broken = good.replace("**Fix Rate:** 90%", "**Fix Rate:** 190%");
  assert.notEqual(broken, good);
  fs.writeFileSync(entryPath(), broken);
  const server = await serve(site);
  const page = await browser.newPage();
  try {
    // A broken start: the diagnostics, located, in place of the site.
    await page.goto(server.base + URL_PATH);
    await overlay(page).waitFor({ timeout: 15_000 });
    const text = await overlay(page).innerText();
    assert.match(text, /does not build/);
    assert.match(text, /dataset-worker-fork-cuda\.md:8:/);
    // Fixed: the page loads the site by itself.
    fs.writeFileSync(entryPath(), good);
    await page.locator("h1#message").waitFor({ timeout: 30_000 });
    assert.equal(await overlay(page).count(), 0);

    // A break: the errors over the page, which stays.
    fs.writeFileSync(entryPath(), broken);
    await overlay(page).waitFor({ timeout: 30_000 });
    assert.match(await overlay(page).innerText(), /last rebuild failed[\s\S]*190%/);
    assert.equal(await page.locator("h1#message").count(), 1, "the previous page stays");
    // Undone (the last good bytes again): the errors go.
    fs.writeFileSync(entryPath(), good);
    await overlay(page).waitFor({ state: "detached", timeout: 30_000 });

    // A rename out of content/ and back: the site follows.
    const hidden = entryPath() + ".moved";
    fs.renameSync(entryPath(), hidden);
    await page.waitForFunction(() => !document.querySelector("h1#message") || document.getElementById("errbook-errors"), null, { timeout: 30_000 });
    const built = () => (server.log().match(/^built: /gm) || []).length;
    const settledBefore = built();
    fs.renameSync(hidden, entryPath());
    await page.waitForFunction(() => document.querySelector("h1#message") && !document.getElementById("errbook-errors"), null, { timeout: 30_000 });
    // Let serve finish its rebuilds (a rename can give it two, and each may reload the page): wait
    // for the first, then for a second with nothing new in its log, then start from the page. A
    // reload that still lands during the navigation interrupts it; navigate again then.
    const deadline = Date.now() + 60_000;
    while (built() === settledBefore && Date.now() < deadline) await sleep(20);
    await quiet(server, 1_000, deadline);
    await gotoPast(page, server.base + URL_PATH);
    // An edit after all that still arrives, swapped into the open page (a content edit does not
    // reload it: what the page's scripts hold survives, and so does the scroll position).
    await page.evaluate(() => { window.__notReloaded = true; window.scrollTo(0, 400); });
    const scrolled = await page.evaluate(() => window.scrollY);
    // The page has searched already: its search holds the index's shards.
    const message = good.split("\n")[0].slice(2);
    const topMessage = (q) => page.evaluate(async (q) => {
      const S = window.errbookSearch;
      for (let k = 0; k < 5; k++) {
        const a = await S.query(q, 8), ix = S.state.idx;
        // A late swap of serve's (errbookSearch.reset()) let go of the index the query read
        // while it ran: ask again, of the index now.
        if (ix === null) continue;
        return a.hits.length ? ix.doc(a.hits[0].doc)[1] : null;
      }
      return "the page's index was let go five times";
    }, q);
    assert.equal(await topMessage(message), message);
    // The edit changes the error's message too.
    const edited = message.replace("forked subprocess", "forked zygoteprocess");
    fs.writeFileSync(entryPath(), good.replace(message, edited).replace("## Root Cause\n\n", "## Root Cause\n\nAFTER-RENAME "));
    await page.getByText("AFTER-RENAME").first().waitFor({ timeout: 30_000 });
    assert.equal(await page.evaluate(() => window.__notReloaded), true, "swapped, not reloaded");
    assert.equal(await page.evaluate(() => window.scrollY), scrolled);
    assert.equal(await page.locator("#theme-switch").count(), 1, "the header and its switch stay");
    // Its search answers from the rebuilt index, not from the shards it held.
    assert.equal(await topMessage(edited), edited);
  } finally {
    await page.close();
    await server.stop();
  }
});

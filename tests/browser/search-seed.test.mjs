// errbook's search on the repository's own catalog, offline, in real headless Chromium: the
// traceback its verification run recorded on a GPU host, pasted into the box and on the search
// page. Kit: search-kit.mjs. Run: bash .ci/browser.sh, or ERRBOOK_BIN=target/debug/errbook node
// --test tests/browser/
import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  FORK,
  REPO,
  TEST_MS,
  articlesAbout,
  assertAllLocal,
  assertEntryPage,
  assertFirst,
  boxResults,
  buildOffline,
  errbook,
  newContext,
  pageResults,
  paste,
  seedSite,
  shown,
  tempDir,
  visit,
} from "./search-kit.mjs";

// ---- the repository's own catalog, offline -----------------------------------------------

describe("seed catalog offline (the repository root)", { timeout: 3 * TEST_MS }, () => {
  const ID = "pytorch/dataset-worker-fork-cuda";
  let tmp, site, out, ctx, traceback;
  before(async () => {
    tmp = tempDir("seed");
    site = seedSite(tmp);
    out = buildOffline(site, path.join(tmp, "out"));
    ctx = await newContext();
    // The traceback its reproduction printed when `errbook verify` ran it on a GPU host; the
    // fixture's pasted one when no record has a log.
    const dir = path.join(REPO, "verify/entries", ID);
    const logs = fs.existsSync(dir)
      ? fs.readdirSync(dir).filter((f) => f.startsWith("repro.") && f.endsWith(".json"))
          .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), "utf8")).log || "")
          .filter((l) => l.includes("Traceback (most recent call last)") && l.includes("Cannot re-initialize CUDA"))
      : [];
    traceback = logs[0] || FORK.text;
  });
  after(async () => {
    if (ctx) await ctx.context.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("its entry's traceback pasted into the box finds the entry, and the link opens it", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    await visit(ctx, pathToFileURL(path.join(out, "index.html")).href);
    await paste(ctx, "#search-input", traceback);
    const r = await boxResults(ctx);
    const want = pathToFileURL(path.join(out, "errors", ID, "index.html")).href;
    assertFirst(r, ID, want, "pasted into the seed site's box");
    assert.equal(r.items[0].weak, false, `the entry is only a weak match\n${shown(r)}`);
    assert.match(r.detected, /Detected: RuntimeError: Cannot re-initialize CUDA in forked subprocess/);
    assert.ok(fs.existsSync(fileURLToPath(r.items[0].href)), `${r.items[0].href} is not on disk`);
    await page.click("#search-results .sr-item:first-child a.sr-link");
    await assertEntryPage(ctx, site, ID, want);
  });

  test("search/index.html?q= lists the articles about it", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    await visit(ctx, pathToFileURL(path.join(out, "search/index.html")).href + "?q=" + encodeURIComponent(traceback));
    const r = await pageResults(ctx);
    assertFirst(r, ID, pathToFileURL(path.join(out, "errors", ID, "index.html")).href, "the seed's search page");
    const about = articlesAbout(site, ID, out);
    assert.ok(about.length > 0, "the seed has articles about its entry");
    for (const a of about) {
      const hit = r.items[0].articles.find((l) => l.title === a.title.replaceAll("`", "")); // titles show as text: code spans lose their backticks
      assert.ok(hit, `article ${JSON.stringify(a.title)} is not listed; listed: ${JSON.stringify(r.items[0].articles)}`);
      assert.ok(fs.existsSync(fileURLToPath(hit.href)), `${hit.href} is not on disk`);
    }
  });

  test("every request was file: or data:, and the pages threw nothing", () => {
    assertAllLocal(ctx.requests, out);
    assert.deepEqual(ctx.errors, [], "errors thrown in the pages");
  });
});

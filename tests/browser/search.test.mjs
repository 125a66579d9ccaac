// errbook's search as a reader uses it, in real headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core, which never downloads a browser).
//
//   hosted   `errbook serve` on the near-miss catalog of tests/fixtures/search: real tracebacks
//            from cases.txt pasted into the header box, arrows and Enter, highlighted words,
//            Enter with nothing chosen, and the /search/?q= page with its articles;
//   offline  `errbook build --offline` of the same catalog opened from file://: the same pastes,
//            links that are files on disk, and not one request that is not file: or data:;
//   (the repository's own catalog, offline, is search-seed.test.mjs; both use search-kit.mjs)
//
// Run: bash .ci/browser.sh (installs chromium when missing, `npm ci`, builds errbook), or
//      ERRBOOK_BIN=target/release/errbook node --test tests/browser/
// Environment: ERRBOOK_BIN (default target/debug/errbook, else target/release/errbook),
//              CHROMIUM_BIN (default /usr/bin/chromium).


import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import {
  BOX_CASES,
  FORK,
  RANK,
  SPAWN,
  TEST_MS,
  articlesAbout,
  assertAllLocal,
  assertEntryPage,
  assertFirst,
  boxResults,
  buildOffline,
  errbook,
  fixtureSite,
  newContext,
  pageResults,
  paste,
  pick,
  serve,
  shown,
  squash,
  step,
  tempDir,
  visit,
  waitURL,
} from "./search-kit.mjs";


// ---- hosted: errbook serve --------------------------------------------------------------

describe("hosted site (errbook serve)", { timeout: 5 * TEST_MS }, () => {
  let tmp, site, server, ctx;
  before(async () => {
    tmp = tempDir("hosted");
    site = fixtureSite(tmp);
    server = await serve(site);
    ctx = await newContext();
  });
  after(async () => {
    if (server) await server.stop();
    if (ctx) await ctx.context.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("a pasted traceback puts its entry first in the header box", { timeout: TEST_MS }, async (t) => {
    const { page } = ctx;
    for (const [i, c] of BOX_CASES.entries()) {
      // Every other case from a page three folders deep, whose links are relative.
      const from = i % 2 ? `${server.base}/errors/pytorch/cuda-oom/` : `${server.base}/`;
      await t.test(`${c.id} <- ${c.marker}`, async () => {
        if (page.url() !== from) await visit(ctx, from);
        await paste(ctx, "#search-input", c.text);
        const r = await boxResults(ctx);
        assertFirst(r, c.id, `${server.base}/errors/${c.id}/`, `pasted into the box on ${from}`);
      });
    }
  });

  test("an idle page preloads the index's manifest before any query, and a query fetches it no second time, its shards past the HTTP cache", { timeout: TEST_MS }, async () => {
    const fresh = await newContext();
    // Each search file's request and its Cache-Control (a fetch with cache "no-store" sends
    // "no-cache": search.js's shards skip the browser's HTTP cache, the manifest does not).
    const caching = [];
    fresh.context.on("request", (r) => {
      if (r.url().includes("/search/")) caching.push(r.allHeaders().then((h) => [r.url(), h["cache-control"] || ""]));
    });
    try {
      const manifest = `${server.base}/search/m.json`;
      const seen = () => fresh.requests.filter((u) => u === manifest).length;
      await visit(fresh, `${server.base}/errors/pytorch/cuda-oom/`);
      await step(fresh, "waiting for the idle page to fetch search/m.json", () =>
        fresh.page.waitForFunction(() => window.errbookSearch && window.errbookSearch.state.idx !== null));
      assert.equal(seen(), 1, "the manifest was not fetched once before any query");
      assert.ok(!fresh.requests.some((u) => /\/search\/[tdpal]\//.test(u)), "an idle page fetched more than the manifest");
      await paste(fresh, "#search-input", FORK.text);
      const r = await boxResults(fresh);
      assertFirst(r, FORK.id, `${server.base}/errors/${FORK.id}/`, "pasted after the page preloaded");
      assert.equal(seen(), 1, "the query fetched the manifest again");
      const heads = await Promise.all(caching);
      const shards = heads.filter(([u]) => /\/search\/[tdpal]\//.test(u));
      assert.ok(shards.length >= 3, `the query fetched ${shards.length} shards`);
      assert.deepEqual(shards.filter(([, c]) => c !== "no-cache"), [], "shards fetched through the HTTP cache");
      assert.deepEqual(heads.filter(([u, c]) => u === manifest && c !== ""), [], "the manifest fetched past the HTTP cache");
      assert.deepEqual(fresh.errors, [], "errors thrown in the page");
    } finally {
      await fresh.context.close();
    }
  });

  test("ArrowDown then Enter opens the first result's entry page", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    await visit(ctx, `${server.base}/`);
    await paste(ctx, "#search-input", FORK.text);
    const r = await boxResults(ctx);
    assertFirst(r, FORK.id, `${server.base}/errors/${FORK.id}/`, "pasted into the box");
    assert.ok(r.items.length >= 2, `want two results to move between\n${shown(r)}`);
    const active = () => page.$$eval("#search-results .sr-item", (els) =>
      els.map((el, i) => (el.classList.contains("sr-active") && el.getAttribute("aria-selected") === "true" ? i : -1)).filter((i) => i >= 0));
    await page.keyboard.press("ArrowDown");
    assert.deepEqual(await active(), [0], "ArrowDown does not select the first result");
    await page.keyboard.press("ArrowDown");
    assert.deepEqual(await active(), [1], "a second ArrowDown does not move to the second result");
    await page.keyboard.press("ArrowUp");
    assert.deepEqual(await active(), [0], "ArrowUp does not move back to the first result");
    assert.equal(await page.getAttribute("#search-input", "aria-activedescendant"), "sr-0");
    await page.keyboard.press("Enter");
    await assertEntryPage(ctx, site, FORK.id, `${server.base}/errors/${FORK.id}/`);
  });

  test("a hostile paste (a 200,000-letter word, then the error) is answered and the page stays alive", { timeout: TEST_MS }, async () => {
    // The reader keeps a long paste's head and tail and cuts words at 256 letters: before, V8's
    // backtracking patterns took seconds per 20,000 letters of such a word, squared.
    await visit(ctx, `${server.base}/`);
    await paste(ctx, "#search-input", "a".repeat(200000) + " RuntimeError: CUDA error: device-side assert triggered");
    const r = await boxResults(ctx);
    assertFirst(r, "pytorch/device-side-assert", `${server.base}/errors/pytorch/device-side-assert/`, "after a 200,000-letter word");
  });

  test("the words that matched are highlighted, the others are not", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    await visit(ctx, `${server.base}/`);
    await paste(ctx, "#search-input", FORK.text);
    const r = await boxResults(ctx);
    assertFirst(r, FORK.id, `${server.base}/errors/${FORK.id}/`, "pasted into the box");
    const marks = r.items[0].marks.map((m) => m.toLowerCase());
    for (const w of ["cannot", "re-initialize", "cuda", "forked", "subprocess", "multiprocessing", "spawn", "method"]) {
      assert.ok(marks.includes(w), `"${w}" is not highlighted in ${JSON.stringify(r.items[0].msg)}; marked: ${JSON.stringify(marks)}`);
    }
    for (const w of ["to", "with", "the", "you"]) {
      assert.ok(!marks.includes(w), `"${w}" (a stop word) is highlighted; marked: ${JSON.stringify(marks)}`);
    }
    // The detected error is the worker's own, not DataLoader's wrapper ...
    assert.match(r.detected, /Detected: RuntimeError: Cannot re-initialize CUDA in forked subprocess/);
    assert.doesNotMatch(r.detected, /DataLoader worker process/);
    // ... and in every result only words sharing a stem with it are marked (the first five
    // letters of a word or of a part of it between - and _: "initialized" for "re-initialize").
    const parts = (w) => [w, ...w.split(/[-_]/)].map((p) => p.toLowerCase()).filter((p) => p.length >= 2);
    const stems = new Set(r.detected.replace(/^Detected:/, "").match(/[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*/g).flatMap(parts).map((p) => p.slice(0, 5)));
    const related = (w) => parts(w).some((p) => stems.has(p.slice(0, 5)));
    assert.ok(r.items.length >= 2, `want other results too\n${shown(r)}`);
    for (const it of r.items) {
      const strangers = it.marks.filter((m) => !related(m));
      assert.deepEqual(strangers, [], `words unrelated to the detected error are highlighted in ${JSON.stringify(it.msg)}`);
      const words = it.msg.match(/[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*/g);
      assert.ok(it.marks.length < words.length, `every word of ${JSON.stringify(it.msg)} is highlighted`);
    }
  });

  test("Enter with no result chosen opens /search/ with the whole pasted traceback", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    await visit(ctx, `${server.base}/errors/pytorch/cuda-oom/`);
    await paste(ctx, "#search-input", SPAWN.text);
    await boxResults(ctx);
    await page.keyboard.press("Enter");
    await waitURL(ctx, (u) => u.pathname === "/search/" && u.searchParams.has("q"));
    const r = await pageResults(ctx);
    assert.equal(r.query.replace(/\r\n/g, "\n"), SPAWN.text, "the /search/ page did not get the traceback with its lines");
    assertFirst(r, SPAWN.id, `${server.base}/errors/${SPAWN.id}/`, "the /search/ page");
  });

  test("/search/?q= shows the detected error, the entry first and the articles about it", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    const expect = [
      [FORK, "RuntimeError: Cannot re-initialize CUDA in forked subprocess", /Caught RuntimeError|DataLoader worker/],
      [SPAWN, "ValueError: Default process group has not been initialized", /ProcessRaisedException|terminated with/],
      [RANK, "ncclSystemError: System call", /\[rank1\]|DistBackendError/],
    ];
    for (const [c, shows, hides] of expect) {
      await visit(ctx, `${server.base}/search/?q=${encodeURIComponent(c.text)}`);
      const r = await pageResults(ctx);
      assert.ok(r.template.startsWith(shows), `detected ${JSON.stringify(r.template)}, want it to start with ${JSON.stringify(shows)}`);
      assert.doesNotMatch(r.template, hides, "the detected error is the wrapper's");
      assert.match(r.detected, /^Detected error:/);
      assertFirst(r, c.id, `${server.base}/errors/${c.id}/`, `/search/?q=<${c.marker}>`);
      assert.equal(r.items[0].weak, false, `the right entry is shown as a weak match\n${shown(r)}`);
    }
    // The entry that articles discuss lists them under its result, and their links work.
    const about = articlesAbout(site, FORK.id);
    assert.ok(about.length > 0, "the fixture has articles about the fork entry");
    await visit(ctx, `${server.base}/search/?q=${encodeURIComponent(FORK.text)}`);
    const r = await pageResults(ctx);
    const listed = r.items[0].articles;
    for (const a of about) {
      const hit = listed.find((l) => l.title === a.title.replaceAll("`", "")); // titles show as text: code spans lose their backticks
      assert.ok(hit, `article ${JSON.stringify(a.title)} is not listed under ${FORK.id}; listed: ${JSON.stringify(listed)}`);
      assert.equal(hit.href, `${server.base}/articles/${a.id}/`);
    }
    await page.locator("#search-page-results .sr-item").first().locator(".sr-articles a", { hasText: about[0].title }).click();
    await waitURL(ctx, (u) => u.href === `${server.base}/articles/${about[0].id}/`);
    const plain = (s) => squash(s.replace(/`/g, "")); // a title's `code` is <code> on the page
    assert.equal(plain(await page.textContent("main h1")), plain(about[0].title));
  });

  test("the hosted pages asked nothing of any other host, and threw nothing", async () => {
    const { requests, errors } = ctx;
    if (!ctx.stalled) {
      assert.ok(requests.some((u) => u === `${server.base}/search/m.json`), "the index's manifest search/m.json was never fetched");
      assert.ok(requests.some((u) => /\/search\/t\/[0-9a-f]+x*\.json$/.test(u)), "no term shard search/t/*.json was fetched");
      assert.ok(requests.some((u) => /\/search\/d\/[0-9]+\.json$/.test(u)), "no document shard search/d/*.json was fetched");
    }
    const away = requests.filter((u) => !u.startsWith(server.base + "/") && !u.startsWith("data:"));
    assert.deepEqual(away, [], "requests to other hosts");
    assert.deepEqual(errors, [], "errors thrown in the pages");
  });
});

// ---- offline: errbook build --offline, opened from file:// -------------------------------

const OFFLINE_CASES = [FORK, SPAWN, RANK, BOX_CASES[6], BOX_CASES[9]];


describe("offline bundle (errbook build --offline, file://)", { timeout: 5 * TEST_MS }, () => {
  let tmp, site, out, home, ctx;
  before(async () => {
    tmp = tempDir("offline");
    site = fixtureSite(tmp);
    out = buildOffline(site, path.join(tmp, "out"));
    home = pathToFileURL(path.join(out, "index.html")).href;
    ctx = await newContext();
  });
  after(async () => {
    if (ctx) await ctx.context.close();
    if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  });

  test("a pasted traceback (or typed words) puts its entry first, linking a file that exists", { timeout: TEST_MS }, async (t) => {
    const { page } = ctx;
    await visit(ctx, home);
    for (const c of OFFLINE_CASES) {
      await t.test(`${c.id} <- ${c.marker}`, async () => {
        await paste(ctx, "#search-input", c.text);
        const r = await boxResults(ctx);
        const want = pathToFileURL(path.join(out, "errors", c.id, "index.html")).href;
        assertFirst(r, c.id, want, "pasted into the offline box");
        assert.ok(fs.existsSync(fileURLToPath(r.items[0].href)), `${r.items[0].href} is not on disk`);
      });
    }
    // Typed, not pasted: results as you type, the last word a prefix.
    const typed = pick("pytorch/shape-mismatch", "mat1 mat2 shapes multiplied");
    await t.test(`${typed.id} <- typed "${typed.text.trim()}"`, async () => {
      await page.fill("#search-input", "");
      await page.focus("#search-input");
      await page.keyboard.type(typed.text.trim().slice(0, -3)); // "... multipl"
      await page.waitForTimeout(100); // the answer to the last key, not one before it
      const r = await boxResults(ctx);
      assertFirst(r, typed.id, pathToFileURL(path.join(out, "errors", typed.id, "index.html")).href, "typed into the offline box");
    });
  });

  test("clicking the first result loads the entry page", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    await visit(ctx, home);
    await paste(ctx, "#search-input", FORK.text);
    const r = await boxResults(ctx);
    const want = pathToFileURL(path.join(out, "errors", FORK.id, "index.html")).href;
    assertFirst(r, FORK.id, want, "pasted into the offline box");
    await page.click("#search-results .sr-item:first-child a.sr-link");
    await assertEntryPage(ctx, site, FORK.id, want);
    // And from the entry page (three folders deep) the box links right too.
    await paste(ctx, "#search-input", SPAWN.text);
    const r2 = await boxResults(ctx);
    assertFirst(r2, SPAWN.id, pathToFileURL(path.join(out, "errors", SPAWN.id, "index.html")).href, "pasted on an offline entry page");
    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    await assertEntryPage(ctx, site, SPAWN.id, r2.items[0].href);
  });

  test("search/index.html?q= works from disk, and Enter in the box gets there", { timeout: TEST_MS }, async () => {
    const { page } = ctx;
    const searchPage = pathToFileURL(path.join(out, "search/index.html")).href;
    await visit(ctx, `${searchPage}?q=${encodeURIComponent(FORK.text)}`);
    let r = await pageResults(ctx);
    assert.match(r.template, /^RuntimeError: Cannot re-initialize CUDA in forked subprocess/);
    assertFirst(r, FORK.id, pathToFileURL(path.join(out, "errors", FORK.id, "index.html")).href, "the offline search page");
    const about = articlesAbout(site, FORK.id);
    for (const a of about) {
      const hit = r.items[0].articles.find((l) => l.title === a.title.replaceAll("`", "")); // titles show as text: code spans lose their backticks
      assert.ok(hit, `article ${JSON.stringify(a.title)} is not listed; listed: ${JSON.stringify(r.items[0].articles)}`);
      assert.equal(hit.href, pathToFileURL(path.join(out, "articles", a.id, "index.html")).href);
      assert.ok(fs.existsSync(fileURLToPath(hit.href)), `${hit.href} is not on disk`);
    }
    const tb = BOX_CASES[2]; // a whole traceback: flattened to one line it would find nothing
    await visit(ctx, home);
    await paste(ctx, "#search-input", tb.text);
    await boxResults(ctx);
    await page.keyboard.press("Enter");
    await waitURL(ctx, (u) => u.href.startsWith(searchPage + "?q="));
    r = await pageResults(ctx);
    assert.equal(r.query.replace(/\r\n/g, "\n"), tb.text, "the search page did not get the traceback with its lines");
    assertFirst(r, tb.id, pathToFileURL(path.join(out, "errors", tb.id, "index.html")).href, "the offline search page from Enter");
  });

  test("every request was file: or data:, and the pages threw nothing", () => {
    assertAllLocal(ctx.requests, out);
    assert.deepEqual(ctx.errors, [], "errors thrown in the pages");
  });
});


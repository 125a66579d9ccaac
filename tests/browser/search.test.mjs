// errbook's search as a reader uses it, in real headless Chromium (Debian's /usr/bin/chromium,
// driven by playwright-core, which never downloads a browser).
//
//   hosted   `errbook serve` on the near-miss catalog of tests/fixtures/search: real tracebacks
//            from cases.txt pasted into the header box, arrows and Enter, highlighted words,
//            Enter with nothing chosen, and the /search/?q= page with its articles;
//   offline  `errbook build --offline` of the same catalog opened from file://: the same pastes,
//            links that are files on disk, and not one request that is not file: or data:;
//   seed     the repository's own catalog, offline, with the traceback its verification run
//            recorded on a GPU host.
//
// Run: bash .ci/browser.sh (installs chromium when missing, `npm ci`, builds errbook), or
//      ERRBOOK_BIN=target/release/errbook node --test tests/browser/
// Environment: ERRBOOK_BIN (default target/debug/errbook, else target/release/errbook),
//              CHROMIUM_BIN (default /usr/bin/chromium).

import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { chromium } from "playwright-core";

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const FIXTURE = path.join(REPO, "tests/fixtures/search");
const CHROMIUM = process.env.CHROMIUM_BIN || "/usr/bin/chromium";
const ERRBOOK = (() => {
  if (process.env.ERRBOOK_BIN) return path.resolve(REPO, process.env.ERRBOOK_BIN);
  for (const p of ["target/debug/errbook", "target/release/errbook"]) {
    if (fs.existsSync(path.join(REPO, p))) return path.join(REPO, p);
  }
  throw new Error("no errbook binary: run `cargo build` or set ERRBOOK_BIN");
})();
const STEP_MS = 15_000; // any one wait of the page
const TEST_MS = 90_000; // any one test

// ---- the catalog's own texts -------------------------------------------------------------

/** The cases of cases.txt as tests/search_cases/mod.rs reads them: [expected id, text]. */
function readCases() {
  const out = [];
  const lines = fs.readFileSync(path.join(FIXTURE, "cases.txt"), "utf8").split("\n");
  if (lines.at(-1) === "") lines.pop();
  for (const raw of lines) {
    const line = raw.replace(/\r$/, "");
    if (line.startsWith("=== ")) out.push({ id: line.slice(4).trim(), text: "" });
    else if (out.length) out.at(-1).text += line + "\n";
  }
  return out;
}
const CASES = readCases();

/** The case expecting `id` whose text contains `marker` (so a reordered file still works). */
function pick(id, marker) {
  const c = CASES.find((c) => c.id === id && c.text.includes(marker));
  assert.ok(c, `cases.txt has no case for ${id} containing ${JSON.stringify(marker)}`);
  return { ...c, marker };
}

/** The entry's message: the `# ` heading of content/errors/<id>.md. */
function entryMessage(siteRoot, id) {
  const src = fs.readFileSync(path.join(siteRoot, "content/errors", id + ".md"), "utf8");
  const m = /^# (.+)$/m.exec(src.replace(/^---\n[\s\S]*?\n---\n/, ""));
  assert.ok(m, `no # heading in ${id}.md`);
  return m[1].trim();
}

/** The articles whose front matter lists `id` under `errors:`: [{id, title}]. */
function articlesAbout(siteRoot, id) {
  const dir = path.join(siteRoot, "content/articles");
  const out = [];
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".md"))) {
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(fs.readFileSync(path.join(dir, f), "utf8"));
    if (!fm) continue;
    const errs = /^errors:\s*(\[[^\]]*\]|\n(?:\s+-\s+.*\n?)+)/m.exec(fm[1]);
    if (!errs) continue;
    const ids = errs[1].match(/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+/g) || [];
    if (!ids.includes(id)) continue;
    const title = /^title:\s*"((?:[^"\\]|\\.)*)"\s*$/m.exec(fm[1]);
    assert.ok(title, `no title in ${f}`);
    out.push({ id: f.replace(/\.md$/, ""), title: JSON.parse('"' + title[1] + '"') });
  }
  return out;
}

const squash = (s) => s.replace(/\s+/g, " ").trim();

// ---- errbook ----------------------------------------------------------------------------

function tempDir(tag) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `errbook-browser-${tag}-`));
}

/** The search fixture with the repository's theme, as tests/search_cli.rs's site_copy makes it. */
function fixtureSite(tmp) {
  const site = path.join(tmp, "site");
  fs.cpSync(FIXTURE, site, { recursive: true });
  fs.cpSync(path.join(REPO, "themes"), path.join(site, "themes"), { recursive: true });
  return site;
}

/** The repository's own catalog: book.toml, content/, themes/ and verify/. */
function seedSite(tmp) {
  const site = path.join(tmp, "site");
  fs.mkdirSync(site);
  fs.copyFileSync(path.join(REPO, "book.toml"), path.join(site, "book.toml"));
  for (const d of ["content", "themes", "verify", "static"]) {
    if (fs.existsSync(path.join(REPO, d))) fs.cpSync(path.join(REPO, d), path.join(site, d), { recursive: true });
  }
  return site;
}

function errbook(...args) {
  const r = spawnSync(ERRBOOK, args, { encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, `errbook ${args.join(" ")} failed (${r.error || "status " + r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

function buildOffline(site, out) {
  errbook("--root", site, "build", "--offline", "-d", out);
  assert.ok(fs.existsSync(path.join(out, "index.html")), "the offline build wrote no index.html");
  return out;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

const servers = new Set();
function killServers() {
  for (const p of servers) {
    try { p.kill("SIGKILL"); } catch { /* gone */ }
  }
}
process.on("exit", killServers);
for (const sig of ["SIGINT", "SIGTERM"]) process.once(sig, () => { killServers(); process.exit(130); });

/** `errbook --root site serve -p PORT`, resolved once its stderr says "serving". */
async function serve(site) {
  const port = await freePort();
  const proc = spawn(ERRBOOK, ["--root", site, "serve", "-p", String(port)], { stdio: ["ignore", "ignore", "pipe"] });
  servers.add(proc);
  let log = "";
  const exited = new Promise((resolve) => proc.once("exit", (code, sig) => { servers.delete(proc); resolve({ code, sig }); }));
  await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`errbook serve did not say "serving" within 60 s:\n${log}`)), 60_000);
    // Read stderr to the end, always: a full pipe would stall the server.
    proc.stderr.setEncoding("utf8");
    proc.stderr.on("data", (d) => {
      log += d;
      if (/serving/.test(log)) { clearTimeout(timer); resolve(); }
    });
    proc.once("error", (e) => { clearTimeout(timer); reject(e); });
    exited.then(({ code, sig }) => { clearTimeout(timer); reject(new Error(`errbook serve exited (${code ?? sig}) before serving:\n${log}`)); });
  });
  return {
    base: `http://127.0.0.1:${port}`,
    log: () => log,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) {
        proc.kill("SIGTERM");
        const t = setTimeout(() => proc.kill("SIGKILL"), 3000);
        await exited;
        clearTimeout(t);
      }
    },
  };
}

// ---- the browser ------------------------------------------------------------------------

let browser;
before(async () => {
  assert.ok(fs.existsSync(CHROMIUM), `no chromium at ${CHROMIUM} (Debian: apt-get install chromium)`);
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
});

/** A fresh context that may use the clipboard and records every request and page error. */
async function newContext() {
  const context = await browser.newContext();
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  context.setDefaultTimeout(STEP_MS);
  context.setDefaultNavigationTimeout(STEP_MS);
  const requests = [];
  const errors = [];
  const open = new Map(); // request -> when it was sent
  context.on("request", (r) => { requests.push(r.url()); open.set(r, Date.now()); });
  context.on("requestfinished", (r) => open.delete(r));
  context.on("requestfailed", (r) => open.delete(r));
  context.on("page", (p) => p.on("pageerror", (e) => errors.push(`${p.url()}: ${e.message}`)));
  const page = await context.newPage();
  const ctx = { context, page, requests, errors, stalled: null };
  /** The requests still unanswered after a second, for failure messages. */
  ctx.unanswered = () => [...open].filter(([r, t]) => Date.now() - t > 1000 && !r.url().includes("/__errbook/reload?"))
    .map(([r, t]) => `${r.url()} (${((Date.now() - t) / 1000).toFixed(0)} s)`);
  return ctx;
}

/**
 * Run one wait of the page; when it times out, say which requests went unanswered (a server
 * that stopped answering shows there; live reload's long poll is unanswered by design), and
 * fail the waits after it at once instead of each waiting its full time.
 */
async function step(ctx, what, fn) {
  if (ctx.stalled) assert.fail(`${what}: not tried, as the server stopped answering before (the first failure says where)`);
  try {
    return await fn();
  } catch (e) {
    if (e.name !== "TimeoutError") throw e;
    const open = ctx.unanswered();
    const msg = `${what}: ${e.message.split("\n")[0]}\n` +
      (open.length ? `requests never answered:\n  ${open.join("\n  ")}` : "no request was left unanswered");
    if (open.length) ctx.stalled = msg;
    throw new Error(msg, { cause: e });
  }
}

const short = (url) => (url.length > 100 ? url.slice(0, 100) + "…" : url);
const visit = (ctx, url) => step(ctx, `loading ${short(url)}`, () => ctx.page.goto(url));
const waitURL = (ctx, want) => step(ctx, `waiting for the page to go to ${want}`,
  () => ctx.page.waitForURL(typeof want === "string" ? (u) => u.href === want : want));

/**
 * Paste `text` into the box as a reader does: the clipboard, then Ctrl+V. (page.fill or typing
 * cannot stand in for it: an <input> drops line breaks and a typed newline submits the form.)
 */
async function paste(ctx, selector, text) {
  const page = ctx.page;
  await step(ctx, `pasting into ${selector}`, async () => {
    await page.fill(selector, ""); // an empty box: the results of the paste before are gone
    await page.evaluate((t) => navigator.clipboard.writeText(t), text);
    await page.focus(selector);
    await page.keyboard.press("ControlOrMeta+V");
  });
  const value = await page.inputValue(selector);
  assert.equal(squash(value), squash(text), "the paste did not reach the search box whole");
}

/** What the header box shows once it answered: the detected line and the results. */
async function boxResults(ctx) {
  const page = ctx.page;
  await step(ctx, "waiting for results in the search box", () => page.waitForFunction(() => {
    const box = document.getElementById("search-results");
    return box && !box.hidden && box.querySelector(".sr-item, .sr-none");
  }, null, { timeout: STEP_MS }));
  return page.$eval("#search-results", (box) => ({
    detected: box.querySelector(".sr-detected")?.textContent ?? "",
    none: box.querySelector(".sr-none")?.textContent ?? "",
    items: [...box.querySelectorAll(".sr-item")].map((li) => ({
      id: li.querySelector(".sr-id")?.textContent ?? "",
      score: li.querySelector(".sr-score")?.textContent ?? "",
      weak: li.classList.contains("sr-weak"),
      href: li.querySelector("a.sr-link")?.href ?? "",
      msg: li.querySelector(".sr-msg")?.textContent ?? "",
      marks: [...li.querySelectorAll(".sr-msg mark")].map((m) => m.textContent),
    })),
  }));
}

/** What the /search/ page shows once it answered. */
async function pageResults(ctx) {
  const page = ctx.page;
  await step(ctx, "waiting for the /search/ page's results", () => page.waitForFunction(() => {
    const d = document.getElementById("search-page-detected");
    return d && d.textContent.trim() !== "";
  }, null, { timeout: STEP_MS }));
  return page.evaluate(() => ({
    detected: document.getElementById("search-page-detected").textContent,
    template: document.querySelector("#search-page-detected .sr-template")?.textContent ?? "",
    query: document.getElementById("search-page-input").value,
    items: [...document.querySelectorAll("#search-page-results .sr-item")].map((li) => ({
      id: li.querySelector(".sr-id")?.textContent ?? "",
      score: li.querySelector(".sr-score")?.textContent ?? "",
      weak: li.classList.contains("sr-weak"),
      href: li.querySelector("a.sr-link")?.href ?? "",
      articles: [...li.querySelectorAll(".sr-articles a")].map((a) => ({ title: a.textContent, href: a.href })),
    })),
  }));
}

function shown(r) {
  const list = r.items.slice(0, 4).map((x, i) => `  ${i + 1}. ${x.id} (${x.score})`).join("\n");
  return `detected: ${JSON.stringify(r.detected || r.none)}\nfirst results:\n${list || "  (none)"}`;
}

function assertFirst(r, id, wantHref, what) {
  assert.ok(r.items.length > 0, `${what}: no results\n${shown(r)}`);
  assert.equal(r.items[0].id, id, `${what}: the first result is not ${id}\n${shown(r)}`);
  assert.equal(r.items[0].href, wantHref, `${what}: the first result links elsewhere\n${shown(r)}`);
}

async function assertEntryPage(ctx, site, id, url) {
  const page = ctx.page;
  await waitURL(ctx, url);
  const h1 = squash(await page.textContent("h1.message"));
  const want = squash(entryMessage(site, id));
  assert.ok(h1.includes(want), `the page at ${url} shows ${JSON.stringify(h1)}, not the message of ${id}: ${JSON.stringify(want)}`);
}

// Real pastes from cases.txt: multi-line tracebacks, wrappers (DataLoader worker, mp.spawn),
// log prefixes ([rank1]:, [E1022 ...], Oct 16 ... what():), CUDA boilerplate, Windows paths.
const BOX_CASES = [
  pick("pytorch/dataset-worker-fork-cuda", "Caught RuntimeError in DataLoader worker process"),
  pick("pytorch/default-process-group", "-- Process 1 terminated with the following error"),
  pick("pytorch/nccl-unhandled-cuda-error", "ncclUnhandledCudaError"),
  pick("pytorch/nccl-unhandled-cuda-error", "what():  NCCL error"),
  pick("pytorch/nccl-unhandled-system-error", "[rank1]: Last error:"),
  pick("pytorch/nccl-watchdog-timeout", "[rank0]:[E1022"),
  pick("pytorch/device-side-assert", "Assertion `t >= 0"),
  pick("pytorch/dataloader-shm-bus-error", "Unexpected bus error"),
  pick("pytorch/not-compiled-with-cuda", "AppData"),
  pick("pytorch/cuda-oom", "torch.grid_sampler"),
  pick("pytorch/no-kernel-image", "RTX 4090"),
];
const FORK = BOX_CASES[0];
const SPAWN = BOX_CASES[1];
const RANK = BOX_CASES[4];

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
      const hit = listed.find((l) => l.title === a.title);
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

function assertAllLocal(requests, out) {
  assert.ok(requests.length >= 10, `only ${requests.length} requests were seen: is recording working?`);
  const index = pathToFileURL(path.join(out, "search/m.js")).href;
  assert.ok(requests.includes(index), `search/m.js was not loaded from disk (${index})`);
  const shard = pathToFileURL(path.join(out, "search/d/0.js")).href.replace(/0\.js$/, "");
  assert.ok(requests.some((u) => u.startsWith(shard)), "no document shard search/d/*.js was loaded from disk");
  const bad = requests.filter((u) => !/^(file|data):/.test(u));
  assert.deepEqual(bad, [], "requests that are not file: or data:");
}

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
      const hit = r.items[0].articles.find((l) => l.title === a.title);
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
    const about = articlesAbout(site, ID);
    assert.ok(about.length > 0, "the seed has articles about its entry");
    for (const a of about) {
      const hit = r.items[0].articles.find((l) => l.title === a.title);
      assert.ok(hit, `article ${JSON.stringify(a.title)} is not listed; listed: ${JSON.stringify(r.items[0].articles)}`);
      assert.ok(fs.existsSync(fileURLToPath(hit.href)), `${hit.href} is not on disk`);
    }
  });

  test("every request was file: or data:, and the pages threw nothing", () => {
    assertAllLocal(ctx.requests, out);
    assert.deepEqual(ctx.errors, [], "errors thrown in the pages");
  });
});

// The kit of the search browser tests (search.test.mjs, search-seed.test.mjs): the catalogs'
// texts, errbook (build, serve), one Chromium per test file (launched by the `before` hook this
// module registers in the file that imports it), and the waits and assertions on results.

import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

import { REPO, ERRBOOK, tempDir, errbook, freePort, serve, launch } from "./harness.mjs";

export { REPO, ERRBOOK, tempDir, errbook, freePort, serve };
export const FIXTURE = path.join(REPO, "tests/fixtures/search");
export const STEP_MS = 15_000; // any one wait of the page
export const TEST_MS = 90_000; // any one test

// ---- the catalog's own texts -------------------------------------------------------------

/** The cases of cases.txt as tests/search_cases/mod.rs reads them: [expected id, text]. */
export function readCases() {
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
export const CASES = readCases();

/** The case expecting `id` whose text contains `marker` (so a reordered file still works). */
export function pick(id, marker) {
  const c = CASES.find((c) => c.id === id && c.text.includes(marker));
  assert.ok(c, `cases.txt has no case for ${id} containing ${JSON.stringify(marker)}`);
  return { ...c, marker };
}

/** The entry's message: the `# ` heading of content/errors/<id>.md. */
export function entryMessage(siteRoot, id) {
  const src = fs.readFileSync(path.join(siteRoot, "content/errors", id + ".md"), "utf8");
  const m = /^# (.+)$/m.exec(src.replace(/^---\n[\s\S]*?\n---\n/, ""));
  assert.ok(m, `no # heading in ${id}.md`);
  return m[1].trim();
}

/** The articles whose front matter lists `id` under `errors:`: [{id, title}]. */
export function articlesAbout(siteRoot, id, built) {
  const dir = path.join(siteRoot, "content/articles");
  const out = [];
  // Articles linked by what their text says (no `errors:`), as the built site's links.json has them.
  const inferred = new Set();
  const links = built && path.join(built, "api/links.json");
  if (links && fs.existsSync(links)) {
    for (const l of JSON.parse(fs.readFileSync(links, "utf8")).links) {
      if (l.from.type === "article" && l.to.type === "entry" && l.to.id === id) inferred.add(l.from.id);
    }
  }
  for (const f of fs.readdirSync(dir).filter((f) => f.endsWith(".md"))) {
    const fm = /^---\n([\s\S]*?)\n---\n/.exec(fs.readFileSync(path.join(dir, f), "utf8"));
    if (!fm) continue;
    const errs = /^errors:\s*(\[[^\]]*\]|\n(?:\s+-\s+.*\n?)+)/m.exec(fm[1]);
    const ids = (errs && errs[1].match(/[A-Za-z0-9_-]+\/[A-Za-z0-9_-]+/g)) || [];
    if (!ids.includes(id) && !inferred.has(f.replace(/\.md$/, ""))) continue;
    const title = /^title:\s*"((?:[^"\\]|\\.)*)"\s*$/m.exec(fm[1]);
    assert.ok(title, `no title in ${f}`);
    out.push({ id: f.replace(/\.md$/, ""), title: JSON.parse('"' + title[1] + '"') });
  }
  return out;
}

export const squash = (s) => s.replace(/\s+/g, " ").trim();

// ---- errbook ----------------------------------------------------------------------------

/** The search fixture with the repository's theme, as tests/search_cli.rs's site_copy makes it. */
export function fixtureSite(tmp) {
  const site = path.join(tmp, "site");
  fs.cpSync(FIXTURE, site, { recursive: true });
  fs.cpSync(path.join(REPO, "themes"), path.join(site, "themes"), { recursive: true });
  return site;
}

/** The repository's own catalog: book.toml, content/, themes/ and verify/. */
export function seedSite(tmp) {
  const site = path.join(tmp, "site");
  fs.mkdirSync(site);
  fs.copyFileSync(path.join(REPO, "book.toml"), path.join(site, "book.toml"));
  for (const d of ["content", "themes", "verify", "static"]) {
    if (fs.existsSync(path.join(REPO, d))) fs.cpSync(path.join(REPO, d), path.join(site, d), { recursive: true });
  }
  return site;
}

export function buildOffline(site, out) {
  errbook("--root", site, "build", "--offline", "-d", out);
  assert.ok(fs.existsSync(path.join(out, "index.html")), "the offline build wrote no index.html");
  return out;
}

// ---- the browser ------------------------------------------------------------------------

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  if (browser) await browser.close();
});

/** A fresh context that may use the clipboard and records every request and page error. */
export async function newContext() {
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
export async function step(ctx, what, fn) {
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

export const short = (url) => (url.length > 100 ? url.slice(0, 100) + "…" : url);
export const visit = (ctx, url) => step(ctx, `loading ${short(url)}`, () => ctx.page.goto(url));
export const waitURL = (ctx, want) => step(ctx, `waiting for the page to go to ${want}`,
  () => ctx.page.waitForURL(typeof want === "string" ? (u) => u.href === want : want));

/**
 * Paste `text` into the box as a reader does: the clipboard, then Ctrl+V. (page.fill or typing
 * cannot stand in for it: an <input> drops line breaks and a typed newline submits the form.)
 */
export async function paste(ctx, selector, text) {
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
export async function boxResults(ctx) {
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
export async function pageResults(ctx) {
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

export function shown(r) {
  const list = r.items.slice(0, 4).map((x, i) => `  ${i + 1}. ${x.id} (${x.score})`).join("\n");
  return `detected: ${JSON.stringify(r.detected || r.none)}\nfirst results:\n${list || "  (none)"}`;
}

export function assertFirst(r, id, wantHref, what) {
  assert.ok(r.items.length > 0, `${what}: no results\n${shown(r)}`);
  assert.equal(r.items[0].id, id, `${what}: the first result is not ${id}\n${shown(r)}`);
  assert.equal(r.items[0].href, wantHref, `${what}: the first result links elsewhere\n${shown(r)}`);
}

export async function assertEntryPage(ctx, site, id, url) {
  const page = ctx.page;
  await waitURL(ctx, url);
  const h1 = squash(await page.textContent("h1.message"));
  const want = squash(entryMessage(site, id));
  assert.ok(h1.includes(want), `the page at ${url} shows ${JSON.stringify(h1)}, not the message of ${id}: ${JSON.stringify(want)}`);
}

// Real pastes from cases.txt: multi-line tracebacks, wrappers (DataLoader worker, mp.spawn),
// log prefixes ([rank1]:, [E1022 ...], Oct 16 ... what():), CUDA boilerplate, Windows paths.
export const BOX_CASES = [
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
export const FORK = BOX_CASES[0];
export const SPAWN = BOX_CASES[1];
export const RANK = BOX_CASES[4];

export function assertAllLocal(requests, out) {
  assert.ok(requests.length >= 10, `only ${requests.length} requests were seen: is recording working?`);
  const index = pathToFileURL(path.join(out, "search/m.js")).href;
  assert.ok(requests.includes(index), `search/m.js was not loaded from disk (${index})`);
  const shard = pathToFileURL(path.join(out, "search/d/0.js")).href.replace(/0\.js$/, "");
  assert.ok(requests.some((u) => u.startsWith(shard)), "no document shard search/d/*.js was loaded from disk");
  const bad = requests.filter((u) => !/^(file|data):/.test(u));
  assert.deepEqual(bad, [], "requests that are not file: or data:");
}

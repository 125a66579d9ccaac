// Script injection, as an attacker who sends a pull request tries it: the catalog of
// tests/fixtures/xss puts each payload of payloads.txt (OWASP's filter-evasion list, mutation-XSS
// classics, the Markdown ways in) into every field of an entry and an article, and the site title
// and description. Every page of the site is opened in headless Chromium, offline from file://
// and hosted by `errbook serve`, and the payloads are pasted into the search box and the /search/
// page's address. On no page may anything run:
//
//   - alert, confirm, prompt and print are replaced before any script of the page runs, and every
//     call is recorded (payloads call them); a dialog that opens anyway is recorded too;
//   - every Content-Security-Policy violation is recorded: the policy would have stopped it, but
//     the sanitiser should have removed it first;
//   - the DOM is searched for what could run on a click or a hover: an `on*` attribute, a
//     `javascript:`/`vbscript:`/`data:` URL, a `style` attribute, and any script, frame, object,
//     form, SVG or other active element the theme does not put there itself;
//   - the page must still be at its own address (no refresh to elsewhere) and raise no error.
//
// A first test shows that these detectors fire: a page with a running payload and a page whose
// inline script the CSP blocks are both caught.

import { test, describe, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO, errbook, htmlFiles, launch, serve, siteFrom, tempDir } from "./harness.mjs";

const FIXTURE = path.join(REPO, "tests/fixtures/xss");
const STEP_MS = 15_000;
const TABS = 4; // pages open at once

/** The payloads as generate.py reads them. */
const PAYLOADS = fs.readFileSync(path.join(FIXTURE, "payloads.txt"), "utf8").split("\n")
  .filter((l) => l.trim() && !l.startsWith(";;"))
  .map((l) => l.replaceAll("\\n", "\n"));

/** Runs in every frame before the page's own scripts: the hooks a payload would trip. */
function hooks() {
  window.__xss = [];
  const note = (what) => function (...args) { window.__xss.push(`${what}(${args.map(String).join(", ")})`); };
  for (const f of ["alert", "confirm", "prompt", "print"]) window[f] = note(f);
  document.addEventListener("securitypolicyviolation", (e) => {
    window.__xss.push(`CSP blocked ${e.effectiveDirective}: ${e.blockedURI || "inline"} ${e.sample || ""}`.trim());
  }, true);
}

/** Runs in the page after it loaded: what in the DOM could run. */
function scan() {
  const found = [];
  const THEME = [
    "script[src$='theme/site.js']", "script[src$='theme/search-index.js']", "script[src$='theme/search-rank.js']", "script[src$='theme/search.js']",
    "script[src*='search/'][src$='.js']",
    "script[src='/__errbook/livereload.js']", "form.searchbox", "#search-page-form", "#search-input",
    "#search-page-input", "#search-page-form button", "button.copy", "main > noscript",
    "button#theme-switch", "li > input[type=checkbox][disabled]",
  ].join(", ");
  const ACTIVE = new Set(["script", "iframe", "frame", "frameset", "object", "embed", "applet", "base",
    "style", "link", "meta", "form", "input", "textarea", "button", "select", "svg", "math",
    "template", "noscript", "video", "audio", "source", "marquee", "bgsound", "xml", "isindex", "keygen"]);
  const URL_ATTR = /^(href|src|action|formaction|xlink:href|background|poster|srcdoc|data|dynsrc|lowsrc|srcset|ping|to|from|values)$/;
  const describe = (el) => el.outerHTML.slice(0, 160);
  for (const el of document.querySelectorAll("*")) {
    const inHead = el.closest("head") && el.localName !== "script";
    const themes = inHead || el.matches(THEME);
    for (const a of el.attributes) {
      const name = a.name.toLowerCase();
      const value = a.value.replace(/[\u0000-\u0020]/g, "").toLowerCase();
      if (name.startsWith("on")) found.push(`handler ${name}: ${describe(el)}`);
      if (name === "style") found.push(`style attribute: ${describe(el)}`);
      if (URL_ATTR.test(name) && /(^|[;,]|url=)(javascript|vbscript|data|livescript):/.test(value)) {
        found.push(`${name} URL: ${describe(el)}`);
      }
    }
    if (ACTIVE.has(el.localName) && !themes) found.push(`<${el.localName}>: ${describe(el)}`);
    if (el.localName === "meta" && el.httpEquiv && !/^content-security-policy$/i.test(el.httpEquiv)) {
      found.push(`meta http-equiv: ${describe(el)}`);
    }
    if (el.localName === "script" && !el.matches(THEME)) found.push(`script: ${describe(el)}`);
  }
  return found;
}

let browser;
before(async () => { browser = await launch(); });
after(async () => { if (browser) await browser.close(); });

/** A context whose pages carry the hooks; dialogs and page errors are recorded per page. */
async function context() {
  const ctx = await browser.newContext();
  ctx.setDefaultTimeout(STEP_MS);
  ctx.setDefaultNavigationTimeout(STEP_MS);
  await ctx.addInitScript(hooks);
  return ctx;
}

/** Open `url` in `page` and return what ran or could run there. */
async function findings(page, url, act) {
  const seen = [];
  const onDialog = (d) => { seen.push(`dialog ${d.type()}: ${d.message()}`); d.dismiss().catch(() => {}); };
  const onError = (e) => seen.push(`page error: ${e.message}`);
  page.on("dialog", onDialog);
  page.on("pageerror", onError);
  try {
    await page.goto(url, { waitUntil: "load" });
    if (act) await act(page);
    // autofocus, ontoggle, animation and media handlers fire within a few frames.
    await page.waitForTimeout(60);
    seen.push(...(await page.evaluate(() => window.__xss || ["hooks missing"])));
    seen.push(...(await page.evaluate(scan)));
    const where = (u) => { const x = new URL(u); return x.origin + x.pathname; };
    if (where(page.url()) !== where(url)) seen.push(`navigated to ${page.url()}`);
  } finally {
    page.off("dialog", onDialog);
    page.off("pageerror", onError);
  }
  return seen;
}

/** Visit every URL with TABS pages at once; returns "url: finding" lines. */
async function visitAll(urls, act) {
  const ctx = await context();
  const out = [];
  let next = 0;
  const worker = async () => {
    const page = await ctx.newPage();
    while (next < urls.length) {
      const url = urls[next++];
      for (const f of await findings(page, url, act && ((p) => act(p, url)))) out.push(`${url}: ${f}`);
    }
    await page.close();
  };
  await Promise.all(Array.from({ length: TABS }, worker));
  await ctx.close();
  return out;
}

const report = (found) => `${found.length} findings:\n  ${found.slice(0, 40).join("\n  ")}`;

describe("script injection", { timeout: 600_000 }, () => {
  let tmp, site, offline, pages;
  before(() => {
    tmp = tempDir("xss");
    site = siteFrom(FIXTURE, tmp);
    offline = path.join(tmp, "offline");
    errbook("--root", site, "build", "--offline", "-d", offline);
    pages = htmlFiles(offline);
    // One entry and one article per payload, and the list pages around them.
    assert.ok(pages.length > 2 * PAYLOADS.length, `only ${pages.length} pages`);
  });
  after(() => fs.rmSync(tmp, { recursive: true, force: true }));

  test("the detectors fire on a payload that runs and on one the CSP blocks", async () => {
    const dir = path.join(tmp, "control");
    fs.mkdirSync(dir);
    fs.writeFileSync(path.join(dir, "runs.html"), "<!DOCTYPE html><p>x<img src=x onerror=alert(1)><a href=\"javascript:alert(2)\">j</a>");
    fs.writeFileSync(path.join(dir, "blocked.html"), "<!DOCTYPE html><meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'self'\"><script>alert(3)</script>");
    const ctx = await context();
    const page = await ctx.newPage();
    const runs = await findings(page, pathToFileURL(path.join(dir, "runs.html")).href);
    assert.ok(runs.some((f) => f.startsWith("alert(1)")), `the alert was not seen: ${runs}`);
    assert.ok(runs.some((f) => f.startsWith("handler onerror")), `the handler was not seen: ${runs}`);
    assert.ok(runs.some((f) => f.startsWith("href URL")), `the javascript: link was not seen: ${runs}`);
    const blocked = await findings(page, pathToFileURL(path.join(dir, "blocked.html")).href);
    assert.ok(!blocked.some((f) => f.startsWith("alert")), `the CSP did not block: ${blocked}`);
    assert.ok(blocked.some((f) => f.startsWith("CSP blocked script-src")), `no violation seen: ${blocked}`);
    await ctx.close();
  });

  test("offline (file://): nothing runs on any page", async () => {
    const urls = pages.map((p) => pathToFileURL(path.join(offline, p)).href);
    const found = await visitAll(urls);
    assert.deepEqual(found, [], report(found));
  });

  test("hosted (errbook serve): the CSP header is sent and nothing runs on any page", async () => {
    const srv = await serve(site);
    try {
      const res = await fetch(srv.base + "/");
      const csp = res.headers.get("content-security-policy") || "";
      assert.match(csp, /script-src 'self'/, "serve sends no Content-Security-Policy");
      assert.doesNotMatch(csp, /unsafe-inline|unsafe-eval/);
      const urls = pages.map((p) => `${srv.base}/${p.replace(/(^|\/)index\.html$/, "$1")}`);
      const found = await visitAll(urls);
      assert.deepEqual(found, [], report(found));
    } finally {
      await srv.stop();
    }
  });

  test("search: payloads typed into the box and given as /search/?q= run nowhere", async () => {
    const srv = await serve(site);
    try {
      const queries = PAYLOADS.map((p) => `RuntimeError: payload ${p}`);
      // The header box: the results list shows the entries' messages, payloads and all.
      let i = 0;
      const typed = await visitAll(queries.map(() => `${srv.base}/`), async (page) => {
        const q = queries[i++ % queries.length];
        await page.fill("#search-input", q.replace(/\n/g, " "));
        await page.waitForSelector("#search-results:not([hidden])");
      });
      const search = path.join(offline, "search/index.html");
      const addressed = await visitAll([
        ...queries.map((q) => `${srv.base}/search/?q=${encodeURIComponent(q)}`),
        ...queries.map((q) => `${pathToFileURL(search).href}?q=${encodeURIComponent(q)}`),
      ]);
      const found = [...typed, ...addressed];
      assert.deepEqual(found, [], report(found));
    } finally {
      await srv.stop();
    }
  });
});

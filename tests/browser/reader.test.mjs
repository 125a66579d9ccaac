// Reader pages in real Chromium, on this repository's catalog built with --offline and opened from
// file:// (the strictest place: no server, the page's CSP, no network):
// - axe-core (WCAG 2.1 A and AA rules) finds no serious or critical violation on any page kind
//   (home, entry, article, lists, search, 404), in the light and the dark theme;
// - at 375 px nothing is wider than the screen except code, which scrolls inside its block;
// - the copy button sits beside the code, not over it;
// - the light/dark/auto switch works under the CSP and is remembered from page to page;
// - print media hides the site's controls and shows dark text on white;
// - the long entry page has a table of contents.
//
// Run: bash .ci/browser.sh, or ERRBOOK_BIN=target/debug/errbook node --test tests/browser/

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { pathToFileURL } from "node:url";
import { REPO, errbook, launch, tempDir } from "./harness.mjs";

const AXE = fs.readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");

let tmp, out, browser;

/** The site's pages of each kind, as file:// URLs. */
function pages() {
  const first = (dir) => {
    const d = path.join(out, dir);
    const name = fs.readdirSync(d).filter((n) => fs.statSync(path.join(d, n)).isDirectory()).sort()[0];
    return path.join(dir, name);
  };
  const kinds = {
    home: "index.html",
    entry: path.join(first("errors/pytorch"), "index.html"),
    article: path.join(first("articles"), "index.html"),
    "errors list": "errors/index.html",
    "articles list": "articles/index.html",
    domains: "domains/index.html",
    domain: path.join(first("domains"), "index.html"),
    search: "search/index.html",
    "not found (404)": "404.html",
  };
  return Object.entries(kinds).map(([kind, rel]) => {
    assert.ok(fs.existsSync(path.join(out, rel)), `${kind}: no ${rel}`);
    return [kind, pathToFileURL(path.join(out, rel)).href];
  });
}

/** The file:// URL of the page of one kind. */
const urlOf = (kind) => pages().find(([k]) => k === kind)[1];

before(async () => {
  tmp = tempDir("reader");
  out = path.join(tmp, "site");
  errbook("--root", REPO, "build", "--offline", "-d", out);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** axe-core's serious and critical WCAG 2.1 A/AA violations on the open page. */
async function violations(page) {
  await page.evaluate(AXE); // the page's CSP refuses a script tag; evaluate is the debugger's
  const result = await page.evaluate(async () => {
    const r = await window.axe.run(document, {
      runOnly: { type: "tag", values: ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"] },
      resultTypes: ["violations"],
    });
    return r.violations.map((v) => ({
      id: v.id,
      impact: v.impact,
      nodes: v.nodes.slice(0, 2).map((n) => `${n.target.join(" ")}: ${n.failureSummary}`),
      count: v.nodes.length,
    }));
  });
  return result.filter((v) => v.impact === "serious" || v.impact === "critical");
}

for (const scheme of ["light", "dark"]) {
  test(`axe-core finds no serious or critical violation on any page kind (${scheme})`, { timeout: 180_000 }, async () => {
    const ctx = await browser.newContext({ colorScheme: scheme });
    const page = await ctx.newPage();
    const found = [];
    for (const [kind, url] of pages()) {
      await page.goto(url);
      const v = await violations(page);
      if (v.length) found.push(`${kind} (${url}):\n${JSON.stringify(v, null, 2)}`);
    }
    await ctx.close();
    assert.deepEqual(found, [], found.join("\n\n"));
  });
}

test("at 375 px nothing but code is wider than the screen", { timeout: 120_000 }, async () => {
  const ctx = await browser.newContext({ viewport: { width: 375, height: 800 }, deviceScaleFactor: 2 });
  const page = await ctx.newPage();
  const found = [];
  for (const [kind, url] of pages()) {
    await page.goto(url);
    const wide = await page.evaluate(() => {
      const w = document.documentElement.clientWidth;
      const out = [];
      if (document.documentElement.scrollWidth > w) out.push(`the page scrolls sideways (${document.documentElement.scrollWidth} px)`);
      for (const el of document.querySelectorAll("body *")) {
        // Code scrolls inside its own block; what is inside a scrolling block is the block's.
        if (el.closest("pre")) continue;
        const r = el.getBoundingClientRect();
        if (r.width === 0 || r.height === 0) continue;
        if (r.right > w + 1 || r.left < -1) {
          const name = el.tagName.toLowerCase() + (el.id ? "#" + el.id : "") + (el.className && typeof el.className === "string" ? "." + el.className.split(" ").join(".") : "");
          out.push(`${name} spans ${Math.round(r.left)}..${Math.round(r.right)} px`);
        }
      }
      return out.slice(0, 10);
    });
    if (wide.length) found.push(`${kind}: ${wide.join("; ")}`);
  }
  await ctx.close();
  assert.deepEqual(found, [], found.join("\n"));
});

test("reader text holds no internal score and no raw Markdown backticks", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  const found = [];
  for (const [kind, url] of pages()) {
    await page.goto(url);
    const bad = await page.evaluate(() => {
      const out = [];
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      for (let n = walker.nextNode(); n; n = walker.nextNode()) {
        const el = n.parentElement;
        if (!el || el.closest("pre, code, script, textarea")) continue;
        const t = n.textContent;
        if (t.includes("`") || /\bscore\s+\d/i.test(t)) out.push(t.trim().slice(0, 120));
      }
      return out;
    });
    if (bad.length) found.push(`${kind}: ${bad.join(" | ")}`);
  }
  await page.close();
  assert.deepEqual(found, [], found.join("\n"));
});

test("the copy button sits beside the code, never over it", { timeout: 60_000 }, async () => {
  const page = await browser.newPage({ viewport: { width: 375, height: 800 } });
  for (const [kind, url] of pages().filter(([k]) => k === "entry" || k === "article")) {
    await page.goto(url);
    const overlaps = await page.evaluate(() => {
      const out = [];
      const wraps = document.querySelectorAll(".code-wrap");
      for (const w of wraps) {
        const b = w.querySelector("button.copy").getBoundingClientRect();
        const p = w.querySelector("pre").getBoundingClientRect();
        const apart = b.bottom <= p.top || b.top >= p.bottom || b.right <= p.left || b.left >= p.right;
        if (!apart) out.push(`button ${JSON.stringify(b)} over code ${JSON.stringify(p)}`);
      }
      return { count: wraps.length, out };
    });
    assert.ok(overlaps.count > 0, `${kind} has code blocks`);
    assert.deepEqual(overlaps.out, [], kind);
  }
  await page.close();
});

test("the theme switch works under the CSP, from file://, and is remembered", { timeout: 60_000 }, async () => {
  const ctx = await browser.newContext({ colorScheme: "light" });
  const page = await ctx.newPage();
  const errors = [];
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("pageerror", (e) => errors.push(String(e)));
  const [home, entry] = [urlOf("home"), urlOf("entry")];
  await page.goto(home);
  const bg = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  const btn = page.locator("#theme-switch");
  assert.match(await btn.innerText(), /auto/);
  const light = await bg();
  await btn.click(); // auto -> light
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "light");
  assert.equal(await bg(), light);
  await btn.click(); // light -> dark
  assert.match(await btn.innerText(), /dark/);
  const dark = await bg();
  assert.notEqual(dark, light, "dark differs from light");

  await page.goto(entry); // another page remembers the choice
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), "dark");
  assert.equal(await bg(), dark);
  assert.match(await page.locator("#theme-switch").innerText(), /dark/);
  // The code's colours (at the end of theme/style.css) follow the choice too.
  const keyword = () => page.evaluate(() => getComputedStyle(document.querySelector("pre.code .k")).color);
  const darkCode = await keyword();
  await page.locator("#theme-switch").click(); // dark -> auto: the system's (light) again
  assert.equal(await page.evaluate(() => document.documentElement.hasAttribute("data-theme")), false);
  assert.equal(await bg(), light);
  const lightCode = await keyword();
  assert.notEqual(lightCode, darkCode, "dark code colours differ from light ones");
  assert.deepEqual(errors, [], "no script error, no CSP refusal");
  await ctx.close();
});

test("print media: the site's controls hidden, dark text on white, code wrapped", { timeout: 60_000 }, async () => {
  const ctx = await browser.newContext({ colorScheme: "dark" });
  const page = await ctx.newPage();
  const entry = urlOf("entry");
  await page.goto(entry);
  await page.emulateMedia({ media: "print", colorScheme: "dark" });
  const seen = await page.evaluate(() => {
    const shown = (sel) => [...document.querySelectorAll(sel)].some((e) => getComputedStyle(e).display !== "none");
    const pre = document.querySelector("pre.code");
    return {
      header: shown(".site-header"),
      footer: shown(".site-footer"),
      copy: shown("button.copy"),
      theme: shown("#theme-switch"),
      bg: getComputedStyle(document.body).backgroundColor,
      fg: getComputedStyle(document.body).color,
      wrap: pre ? getComputedStyle(pre).whiteSpace : "pre-wrap",
      // The dark theme's highlighting would be light on white: printed code is dark.
      code: [...document.querySelectorAll("pre.code b, pre.code i")].every((s) => getComputedStyle(s).color === "rgb(0, 0, 0)"),
      message: shown("#message"),
    };
  });
  assert.deepEqual(seen, {
    header: false, footer: false, copy: false, theme: false,
    bg: "rgb(255, 255, 255)", fg: "rgb(0, 0, 0)", wrap: "pre-wrap", message: true, code: true,
  });
  await ctx.close();
});

test("the entry page has a table of contents whose links lead to its sections", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  const entry = urlOf("entry");
  await page.goto(entry);
  const toc = await page.evaluate(() => [...document.querySelectorAll("nav.toc a")].map((a) => [a.textContent, !!document.getElementById(a.getAttribute("href").slice(1))]));
  assert.ok(toc.length >= 4, JSON.stringify(toc));
  assert.deepEqual(toc.filter(([, there]) => !there), [], "every link has its section");
  // The answer first: what works here leads the contents.
  assert.equal(toc[0]?.[0], "What works here", JSON.stringify(toc));
  await page.close();
});

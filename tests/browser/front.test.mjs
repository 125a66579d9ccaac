// The reader's front door (issue 40, points 1-5), on this repository's catalog built with
// --offline and opened from file://, at 1280x800 and at 375x800, positions measured with
// getBoundingClientRect:
// 1. the entry page leads with the answer: the first working workaround's summary starts within
//    900 px (1280 wide) or 1,600 px (375 wide) of the top; a version table whose rows all say
//    the same is one line, with the line saying which claimed versions the runs cover;
// 2. one vocabulary: the catalog's figures are labelled as its claims, never a bar; no page
//    kind says "contradicted" or "confirmed"; no green chip beside a red one in one fix;
// 3. run details are collapsed, one per outcome (not one per machine); no code block repeats
//    its workaround's summary;
// 4. a search result says what to do (the verified workaround), shows no raw score, says
//    "no close match" rather than listing a 0.00 result, and renders titles as text;
// 5. a contents link puts its heading below the sticky header.
//
// Run: bash .ci/browser.sh, or ERRBOOK_BIN=target/debug/errbook node --test tests/browser/

import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { REPO, errbook, launch, tempDir } from "./harness.mjs";

const WIDTHS = [
  { width: 1280, height: 800, answerBy: 900 },
  { width: 375, height: 800, answerBy: 1600 },
];

let tmp, out, browser;
const url = (rel) => pathToFileURL(path.join(out, rel)).href;
const ENTRY = "errors/pytorch/dataset-worker-fork-cuda/index.html";
const ARTICLES = () =>
  fs.readdirSync(path.join(out, "articles"))
    .filter((n) => fs.statSync(path.join(out, "articles", n)).isDirectory())
    .map((n) => `articles/${n}/index.html`);

before(async () => {
  tmp = tempDir("front");
  out = path.join(tmp, "site");
  errbook("--root", REPO, "build", "--offline", "-d", out);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

for (const vp of WIDTHS) {
  const at = `${vp.width}x${vp.height}`;

  test(`the entry page leads with what works here (${at})`, { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    await page.goto(url(ENTRY));
    const m = await page.evaluate(() => {
      const top = (el) => el.getBoundingClientRect().top + window.scrollY;
      const first = document.querySelector("#works-here .fixes > li > p");
      const order = ["#works-here", "#failed-here", "#dead-ends", "#root-cause", "#versions", "#about"]
        .map((s) => [s, document.querySelector(s)])
        .filter(([, el]) => el)
        .map(([s, el]) => [s, top(el)]);
      return {
        answer: document.querySelector(".answer")?.textContent ?? "",
        summaryTop: first ? top(first) : null,
        summary: first?.textContent ?? "",
        order,
        versionRows: document.querySelectorAll("#versions tbody tr").length,
        versionsLine: document.querySelector("#versions .versions-line")?.textContent ?? "",
        coverage: document.querySelector("#versions .coverage")?.textContent ?? "",
      };
    });
    assert.ok(m.summaryTop !== null, "no working workaround on the entry page");
    assert.ok(m.summaryTop <= vp.answerBy, `the first working workaround's summary starts at ${Math.round(m.summaryTop)} px, past ${vp.answerBy} px`);
    assert.match(m.answer, /^Worked here: workaround 3 ran as described on H100 and H200/);
    const tops = m.order.map(([, t]) => t);
    assert.deepEqual(tops, [...tops].sort((a, b) => a - b), `sections out of order: ${JSON.stringify(m.order)}`);
    assert.equal(m.versionRows, 0, "a version table whose rows all say 'active' is still a table");
    assert.match(m.versionsLine, /: all active \(the catalog's claim\)$/);
    assert.match(m.coverage, /errbook's runs cover none of the versions the entry claims; not run on PyTorch 1\.13\.0, PyTorch 2\.0\.0, CUDA 11\.7 and CUDA 12\.1 \(the runs used PyTorch 2\.11\.0 and CUDA 13\.0\); Ubuntu 20\.04 and Ubuntu 22\.04 not recorded by a run\./);
    await page.close();
  });

  test(`one vocabulary: claims labelled, results not contradicted by figures (${at})`, { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    const found = [];
    for (const rel of [ENTRY, ...ARTICLES()]) {
      await page.goto(url(rel));
      const bad = await page.evaluate(() => {
        const out = [];
        const text = document.body.innerText;
        for (const w of ["contradicted", "confirmed", "Fix rate 9", "% success failed"]) {
          if (text.includes(w)) out.push(`says "${w}"`);
        }
        // Every catalog figure sits in a label that says it is the catalog's.
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let n = walker.nextNode(); n; n = walker.nextNode()) {
          if (!/\d+% (success|fail)/.test(n.textContent) || n.parentElement.closest("pre, code")) continue;
          const label = n.parentElement.closest(".claimed");
          if (!label || !/the catalog says/.test(label.textContent)) out.push(`unlabelled figure: ${n.textContent.trim().slice(0, 80)}`);
        }
        // No bar drawn beside a verdict, and never a green chip beside a red one.
        for (const li of document.querySelectorAll(".fixes > li, .flag")) {
          for (const el of li.querySelectorAll(":scope > *")) {
            const before = getComputedStyle(el, "::before");
            if (before.content !== "none" && before.backgroundImage.includes("gradient")) out.push(`a bar in ${li.id || li.className}`);
          }
          const ok = li.querySelector(":scope > .verdict-ok"), red = li.querySelector(":scope > .verdict-bad");
          if (ok && red) out.push(`green beside red in ${li.id}`);
        }
        return out;
      });
      if (bad.length) found.push(`${rel}: ${bad.join("; ")}`);
    }
    await page.close();
    assert.deepEqual(found, [], found.join("\n"));
  });

  test(`run details collapsed, once per outcome, and no repeated summary (${at})`, { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    const found = [];
    for (const rel of [ENTRY, ...ARTICLES()]) {
      await page.goto(url(rel));
      const bad = await page.evaluate(() => {
        const out = [];
        for (const d of document.querySelectorAll("details.run, details.run-record")) {
          if (d.open) out.push(`open: ${d.querySelector("summary").textContent.slice(0, 60)}`);
        }
        for (const d of document.querySelectorAll("details.run")) {
          const words = [...d.querySelectorAll(":scope > details.run-record > summary .verdict")].map((v) => v.textContent);
          if (new Set(words).size !== words.length) out.push(`an outcome shown twice: ${words.join(", ")}`);
          // Hidden until opened: nothing of the runs takes room on the page.
          const rec = d.querySelector("details.run-record");
          if (rec && rec.checkVisibility()) out.push("a run's facts show while collapsed");
        }
        const squash = (s) => s.replace(/[`*_]/g, "").replace(/\s+/g, " ").trim();
        for (const li of document.querySelectorAll(".fixes > li")) {
          const summary = squash(li.querySelector(":scope > p")?.textContent ?? "");
          for (const pre of li.querySelectorAll("pre")) {
            if (summary && squash(pre.textContent) === summary) out.push(`${li.id}: its code block repeats its summary`);
          }
        }
        return out;
      });
      if (bad.length) found.push(`${rel}: ${bad.join("; ")}`);
    }
    await page.close();
    assert.deepEqual(found, [], found.join("\n"));
  });

  test(`search results say what to do, with no raw score (${at})`, { timeout: 90_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    await page.goto(url("index.html"));
    const ask = async (q) => {
      await page.fill("#search-input", "");
      await page.fill("#search-input", q);
      await page.waitForFunction(() => {
        const box = document.getElementById("search-results");
        return box && !box.hidden && box.querySelector(".sr-item, .sr-none");
      }, null, { timeout: 30_000 });
      return page.$eval("#search-results", (box) => ({
        text: box.innerText,
        none: box.querySelector(".sr-none")?.textContent ?? "",
        items: [...box.querySelectorAll(".sr-item")].map((li) => ({
          id: li.querySelector(".sr-id")?.textContent ?? "",
          fix: li.querySelector(".sr-fix")?.textContent ?? "",
          fixTop: li.querySelector(".sr-fix")?.getBoundingClientRect().top ?? null,
          msgBottom: li.querySelector(".sr-msg").getBoundingClientRect().bottom,
        })),
      }));
    };
    const hit = await ask("RuntimeError: Cannot re-initialize CUDA in forked subprocess");
    assert.equal(hit.items[0]?.id, "pytorch/dataset-worker-fork-cuda", hit.text);
    assert.match(hit.items[0].fix, /^Works here \(H100 and H200\): Wrap the training code/, hit.text);
    assert.ok(hit.items[0].fixTop >= hit.items[0].msgBottom - 1, "the fix sits under the message");
    assert.doesNotMatch(hit.text, /\b\d\.\d\d\b|weak ·/, `a raw score is shown:\n${hit.text}`);
    const miss = await ask("zyxwv qqqq plonk");
    assert.match(miss.none, /No close match/, miss.text);
    assert.equal(miss.items.length, 0, `a result that shares nothing is listed:\n${miss.text}`);
    assert.doesNotMatch(miss.text, /0\.00/);

    // The /search/ page lists the articles of each result by title, as text.
    await page.goto(url("search/index.html") + "?q=" + encodeURIComponent("Cannot re-initialize CUDA in forked subprocess"));
    await page.waitForFunction(() => document.querySelector("#search-page-results .sr-item"), null, { timeout: 30_000 });
    const titles = await page.$$eval("#search-page-results .sr-articles a", (as) => as.map((a) => a.textContent));
    const text = await page.$eval("#search-page-results", (el) => el.innerText);
    assert.ok(titles.length > 0, "no article listed");
    for (const t of titles) assert.ok(!t.includes("`"), `raw Markdown in a title: ${t}`);
    assert.doesNotMatch(text, /\b\d\.\d\d\b/, text);
    await page.close();
  });

  test(`contents links land their heading below the sticky header (${at})`, { timeout: 60_000 }, async () => {
    const page = await browser.newPage({ viewport: { width: vp.width, height: vp.height } });
    const found = [];
    for (const rel of [ENTRY, ...ARTICLES()]) {
      await page.goto(url(rel));
      const links = await page.$$eval(".toc a[href^='#']", (as) => as.map((a) => a.getAttribute("href")));
      assert.ok(links.length > 0, `${rel}: no contents`);
      for (const href of links) {
        await page.evaluate((h) => { window.scrollTo(0, 0); document.querySelector(`.toc a[href='${h}']`).click(); }, href);
        await page.waitForTimeout(50);
        const m = await page.evaluate((h) => {
          const header = document.querySelector(".site-header").getBoundingClientRect();
          const sticky = getComputedStyle(document.querySelector(".site-header")).position === "sticky";
          const t = document.getElementById(decodeURIComponent(h.slice(1))).getBoundingClientRect();
          const atEnd = window.scrollY + window.innerHeight >= document.documentElement.scrollHeight - 1;
          return { headerBottom: sticky ? header.bottom : 0, top: t.top, atEnd };
        }, href);
        // A heading near the page's end cannot scroll to the top; it is in view below the header.
        if (m.top < m.headerBottom) found.push(`${rel}${href}: heading at ${Math.round(m.top)} px, under the header (bottom ${Math.round(m.headerBottom)} px)`);
        if (!m.atEnd && m.top > m.headerBottom + 100) found.push(`${rel}${href}: heading at ${Math.round(m.top)} px, far below the header`);
      }
    }
    await page.close();
    assert.deepEqual(found, [], found.join("\n"));
  });
}

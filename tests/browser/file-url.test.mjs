// A hosted build opened from disk explains itself: a note says why folder links and the search
// fail there and points to `errbook build --offline`; an offline bundle shows no such note.
//
// Run: bash .ci/browser.sh, or ERRBOOK_BIN=target/release/errbook node --test tests/browser/

import { test, before, after } from "node:test";
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

let tmp, browser;

function build(dest, extra) {
  const r = spawnSync(ERRBOOK, ["--root", REPO, "build", "-d", dest, ...extra], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
}

before(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), "errbook-file-url-"));
  build(path.join(tmp, "hosted"), []);
  build(path.join(tmp, "offline"), ["--offline"]);
  browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--no-first-run"],
  });
});

after(async () => {
  await browser?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

test("the hosted build opened from file:// says why and points to --offline", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(path.join(tmp, "hosted", "index.html")).href);
  const note = page.locator(".file-note");
  await note.waitFor({ timeout: 15_000 });
  const text = await note.innerText();
  assert.match(text, /hosted build, opened from disk/);
  assert.match(text, /errbook build --offline/);
  const ph = await page.locator("#search-input").getAttribute("placeholder");
  assert.match(ph, /--offline/);
  await page.close();
});

test("an offline bundle from file:// and a served site show no such note", { timeout: 60_000 }, async () => {
  const page = await browser.newPage();
  await page.goto(pathToFileURL(path.join(tmp, "offline", "index.html")).href);
  await page.waitForLoadState("load");
  assert.equal(await page.locator(".file-note").count(), 0);
  await page.close();
});

// Screenshots of one catalog's entry page at 1280x800 and 375x800 (the reader's two widths), for
// bench/screens/: node tests/browser/screens.mjs SITE_DIR OUT_PREFIX. SITE_DIR is a built site
// (errbook build --offline -d SITE_DIR); writes OUT_PREFIX-1280.png and OUT_PREFIX-375.png (the
// first screen) and prints the page's height and where the first working workaround's summary
// starts.

import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { launch } from "./harness.mjs";

const [site, prefix] = process.argv.slice(2);
const dir = path.join(site, "errors");
const domain = fs.readdirSync(dir).filter((n) => fs.statSync(path.join(dir, n)).isDirectory()).sort()[0];
const slug = fs.readdirSync(path.join(dir, domain)).filter((n) => fs.statSync(path.join(dir, domain, n)).isDirectory()).sort()[0];
const url = pathToFileURL(path.join(dir, domain, slug, "index.html")).href;
const browser = await launch();
for (const width of [1280, 375]) {
  const page = await browser.newPage({ viewport: { width, height: 800 } });
  await page.goto(url);
  const m = await page.evaluate(() => {
    // The first working workaround's summary: its list item is marked fix-ok.
    const p = document.querySelector(".fixes > li.fix-ok > p");
    return {
      height: document.documentElement.scrollHeight,
      answer: p ? Math.round(p.getBoundingClientRect().top + window.scrollY) : null,
    };
  });
  await page.screenshot({ path: `${prefix}-${width}.png`, fullPage: false, type: "png" });
  console.log(`${width}x800: page ${m.height} px tall, first working workaround's summary at ${m.answer} px`);
  await page.close();
}
await browser.close();

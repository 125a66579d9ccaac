// What the browser tests share: where errbook, Chromium and the repository are, running errbook
// (a build, or `errbook serve` on a free port, killed when the tests end) and launching headless
// Chromium with the flags this machine's closed network needs.

import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";

export const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const CHROMIUM = process.env.CHROMIUM_BIN || "/usr/bin/chromium";
export const ERRBOOK = (() => {
  if (process.env.ERRBOOK_BIN) return path.resolve(REPO, process.env.ERRBOOK_BIN);
  for (const p of ["target/debug/errbook", "target/release/errbook"]) {
    if (fs.existsSync(path.join(REPO, p))) return path.join(REPO, p);
  }
  throw new Error("no errbook binary: run `cargo build` or set ERRBOOK_BIN");
})();

export function tempDir(tag) {
  return fs.mkdtempSync(path.join(os.tmpdir(), `errbook-browser-${tag}-`));
}

/** A copy of the fixture catalog at `fixture` with the repository's theme, under `tmp`. */
export function siteFrom(fixture, tmp) {
  const site = path.join(tmp, "site");
  fs.cpSync(fixture, site, { recursive: true });
  fs.cpSync(path.join(REPO, "themes"), path.join(site, "themes"), { recursive: true });
  return site;
}

/** Run errbook; it must succeed. */
export function errbook(...args) {
  const r = spawnSync(ERRBOOK, args, { encoding: "utf8", timeout: 120_000 });
  assert.equal(r.status, 0, `errbook ${args.join(" ")} failed (${r.error || "status " + r.status}):\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Every `.html` file under `dir`, as paths relative to it with `/`. */
export function htmlFiles(dir) {
  const out = [];
  const walk = (d, rel) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const r = rel ? `${rel}/${e.name}` : e.name;
      if (e.isDirectory()) walk(path.join(d, e.name), r);
      else if (e.name.endsWith(".html")) out.push(r);
    }
  };
  walk(dir, "");
  return out.sort();
}

export function freePort() {
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
export async function serve(site) {
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
    port,
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

/** Headless Debian Chromium; playwright-core never downloads a browser. */
export function launch() {
  assert.ok(fs.existsSync(CHROMIUM), `no chromium at ${CHROMIUM} (Debian: apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    timeout: 60_000,
    args: [
      "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
      "--disable-background-networking", "--disable-component-update", "--disable-sync",
    ],
  });
}

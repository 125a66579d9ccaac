// The theme's search computing over a built site's shards, in node (not a timed test): N
// pasted messages of entries drawn from the site (seeded), each ranked through the theme's own
// search-rank.js and search-index.js as the page ranks it, the files read and parsed outside
// the timing, so the figure is the ranking's computing alone (first-query.mjs measures the
// whole first query in Chromium). Prints a hash of every answer (two themes or two sites that
// answer the same print the same), the computing's median and mean, the rounds, files (by
// kind: t/ runs, p/ tiers, d/ entries...) and raw bytes a query read, and a model of its time
// in Chromium: 2.5 ms a round, 1 ms a file and 6.5 ms a MB besides the computing, the costs
// scripts/search-bench/fetch-cost.mjs measured on the 2-core benchmark machine
// (bench/scale/2026-11-27-s35-first-query-costs.txt at 3618223), for comparing two themes' trade-offs of
// rounds against files and bytes before timing them in Chromium; and the share of a query's
// files that the query before it read too.
//
//   node compute.cjs SITE [N]            (TYPED=1: the first words of each message instead,
//                                        the last cut short; JS=DIR: the theme's scripts there (default: SITE/theme);
//                                        SHARED=1: also the medians by how many entries have the
//                                        pasted message, read from every entries' shard)
"use strict";
const fs = require("fs");
const path = require("path");
const crypto = require("crypto");

const SITE = process.argv[2];
// The site's own scripts by default: the theme's search-rank.js gets the numbers it shares with
// the Rust ranking from errbook when a site is built.
const JS = process.env.JS || path.join(SITE || ".", "theme");
const rank = require(path.join(JS, "search-rank.js"));
const index = require(path.join(JS, "search-index.js"));
const N = Number(process.argv[3] || 20);
if (!SITE) {
  console.error("usage: node compute.cjs SITE [N]");
  process.exit(2);
}
const dir = path.join(SITE, "search");
const manifest = JSON.parse(fs.readFileSync(path.join(dir, "m.json"), "utf8"));

// The queries: messages of entries drawn with a fixed seed.
let seed = 7;
const random = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
const entry = (d) => {
  const shard = path.join(dir, "d", `${Math.floor(d / manifest.docs)}.json`);
  return JSON.parse(fs.readFileSync(shard, "utf8"))[d % manifest.docs];
};
const queries = [];
for (let i = 0; i < N; i++) queries.push(entry(Math.floor(random() * manifest.n))[1]);
if (process.env.TYPED) {
  for (let i = 0; i < N; i++) {
    const words = queries[i].split(/\s+/).filter((w) => /^[A-Za-z]{3,}$/.test(w)).slice(0, 3);
    if (words.length) words[words.length - 1] = words[words.length - 1].slice(0, 4);
    queries[i] = words.join(" ").toLowerCase();
  }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
const mean = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;

(async () => {
  const computing = [];
  const files = [];
  const bytes = [];
  const rounds = [];
  const model = [];
  const kinds = new Map();
  const answers = [];
  const each = [];
  // The files of each query that the query before it read too (a reader's next query, on
  // the next page, finds in the browser's HTTP cache at most these).
  let prev = new Map();
  let again = 0;
  for (const text of queries) {
    const read = new Map();
    const view = rank.sharded(manifest, (name) => {
      const body = fs.readFileSync(path.join(dir, `${name}.json`), "utf8");
      read.set(name, body.length);
      return Promise.resolve(JSON.parse(body));
    });
    const answer = await rank.query(view, text, 8);
    // Every pass forgotten: the next query folds all it reads, as a fresh page's would.
    index.forget();
    answers.push(JSON.stringify(answer.hits));
    const ms = answer.timing.compute.reduce((a, b) => a + b, 0);
    const raw = [...read.values()].reduce((a, b) => a + b, 0);
    computing.push(ms);
    files.push(read.size);
    bytes.push(raw);
    rounds.push(answer.rounds);
    model.push(2.5 * answer.rounds + read.size + (6.5 * raw) / 1e6 + ms);
    each.push({ text, rounds: answer.rounds, files: read.size, raw, model: model[model.length - 1] });
    for (const name of read.keys()) {
      const kind = name.slice(0, name.indexOf("/") + 1);
      kinds.set(kind, (kinds.get(kind) || 0) + 1);
      if (prev.has(name)) again++;
    }
    prev = read;
  }
  const hash = crypto.createHash("md5").update(answers.join("\n")).digest("hex").slice(0, 8);
  console.log(
    `answers ${hash}  computing ms median ${median(computing).toFixed(1)} mean ${mean(computing).toFixed(1)}` +
      `  files ${mean(files).toFixed(1)}  raw KB ${(mean(bytes) / 1e3).toFixed(0)}`
  );
  const byKind = [...kinds].sort().map(([k, n]) => `${k} ${(n / N).toFixed(1)}`).join(", ");
  console.log(
    `rounds ${mean(rounds).toFixed(2)}  files by kind ${byKind}` +
      `  model ms median ${median(model).toFixed(1)} mean ${mean(model).toFixed(1)}` +
      `  read by the query before ${((100 * again) / (files.reduce((a, b) => a + b, 0) - files[0])).toFixed(1)}%`
  );
  if (process.env.SHARED) shared(each);
})();

// The queries by how many entries of the catalog have their text as message (a paste of a
// message thousands of entries share has thousands of near-ties to tell apart): each group's
// medians of rounds, files, raw bytes and the model.
function shared(each) {
  const count = new Map(each.map((q) => [q.text, 0]));
  for (let k = 0; k * manifest.docs < manifest.n; k++) {
    for (const doc of JSON.parse(fs.readFileSync(path.join(dir, "d", `${k}.json`), "utf8"))) {
      if (count.has(doc[1])) count.set(doc[1], count.get(doc[1]) + 1);
    }
  }
  for (const [lo, hi, name] of [[1, 1, "its own"], [2, 99, "2-99 entries"], [100, Infinity, "100 or more"]]) {
    const group = each.filter((q) => count.get(q.text) >= lo && count.get(q.text) <= hi);
    if (!group.length) continue;
    const of = (key) => median(group.map((q) => q[key]));
    console.log(
      `message in ${name}: ${group.length} queries, medians: rounds ${of("rounds")}  files ${of("files")}` +
        `  raw KB ${(of("raw") / 1e3).toFixed(0)}  model ms ${of("model").toFixed(1)}`
    );
  }
}

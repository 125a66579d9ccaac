// errbook search's index lookups: a query term to the index terms it stands for (`expand`, as
// crates/errbook-search/src/expand.rs, with `osa` and `idf`), and the views the ranking reads the index through
// (`view`: a whole index; `sharded`: the site's shards, crates/errbook-search/src/shards.rs), and the first
// pass where common terms' postings are in impact tiers (`tieredTop`), and a query over shards
// in rounds of fetches (`rounds`). A classic script
// (offline bundles work from file://) that sets window.errbookIndexView, loaded before
// search-rank.js; in node, module.exports.
(function () {
  "use strict";

  // ---- expand (crates/errbook-search/src/expand.rs) ---------------------------------------------
  var PREFIX_FACTOR = 0.8, MAX_PREFIX = 30, TYPO1 = 0.7, TYPO2 = 0.5;

  function idf(n, df) {
    df = Math.max(df, 1);
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
  }

  function osa(a, b, max) {
    var n = a.length, m = b.length;
    if (Math.abs(n - m) > max) return max + 1;
    var d = [];
    for (var i = 0; i <= n; i++) { d.push(new Array(m + 1).fill(0)); d[i][0] = i; }
    for (var j = 0; j <= m; j++) d[0][j] = j;
    for (i = 1; i <= n; i++) {
      var rowMin = Infinity;
      for (j = 1; j <= m; j++) {
        var cost = a[i - 1] !== b[j - 1] ? 1 : 0;
        var v = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
        if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, d[i - 2][j - 2] + 1);
        d[i][j] = v;
        rowMin = Math.min(rowMin, v);
      }
      if (rowMin > max) return max + 1;
    }
    return d[n][m];
  }

  // Byte-wise comparison, as Rust's str ordering (terms are ASCII).
  function lowerBound(terms, q) {
    var lo = 0, hi = terms.length;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (terms[mid] < q) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // ix: the index through its view (below); a term number of -1 is one not known yet.
  function expand(ix, q, last, typed) {
    var out = [], count = ix.count;
    var start = ix.lower(q, last && typed);
    if (start < 0) return out;
    var exact = start < count && ix.termAt(start) === q;
    if (exact) out.push([start, 1.0]);
    if (!exact || (last && typed)) {
      var j = start + (exact ? 1 : 0);
      while (j < count && ix.termAt(j).indexOf(q) === 0 && out.length < MAX_PREFIX) { out.push([j, PREFIX_FACTOR]); j++; }
    }
    // (Not while a sharded view misses something: a run cut short may still hold a prefix.)
    if (out.length === 0 && typed && q.length >= 4 && !ix.incomplete()) {
      // Only terms of about the same length can be a typo or two away: scan those (the
      // expansions' order does not matter, only which terms and factors).
      var max = q.length >= 8 ? 2 : 1;
      for (var len = q.length - max; len <= q.length + max; len++) {
        ix.ofLength(len).forEach(function (t) {
          var dist = osa(q, t, max), f = dist === 1 ? TYPO1 : dist === 2 && dist <= max ? TYPO2 : 0;
          if (f === 0) return;
          var i = ix.lower(t);
          if (i >= 0) out.push([i, f]);
        });
      }
    }
    return out;
  }

  // ---- the index a query reads -------------------------------------------------------------
  // The ranking reads the index through a view: of a whole index (errbook search's JSON, as
  // node's tests pass it) or of the site's shards (crates/errbook-search/src/shards.rs). A sharded view notes
  // what a query needed and did not have; search() stops there, and query() fetches it and
  // runs again, until nothing is missing: the answer is then the whole index's.
  function view(idx) {
    if (typeof idx.lower === "function") return idx;
    if (idx.__view) return idx.__view;
    var terms = idx.terms, byLen = null;
    var v = {
      n: idx.docs.length, count: terms.length, texts: new Map(),
      lower: function (q) { return lowerBound(terms, q); },
      termAt: function (i) { return terms[i]; },
      post: function (i) { return idx.post[i]; },
      dfAt: function (i) { return idx.post[i].length / 2; },
      tiered: function () { return null; },
      doc: function (d) { return idx.docs[d]; },
      art: function (a) { return idx.arts[a]; },
      df: function (t) { var i = lowerBound(terms, t); return i < terms.length && terms[i] === t ? idx.post[i].length / 2 : 0; },
      long: function () { return false; },
      ofLength: function (len) {
        if (!byLen) { byLen = []; terms.forEach(function (t) { (byLen[t.length] || (byLen[t.length] = [])).push(t); }); }
        return byLen[len] || [];
      },
      incomplete: function () { return false; }
    };
    Object.defineProperty(idx, "__view", { value: v, enumerable: false, configurable: true });
    return v;
  }

  // Where tier k of a long term's slot p is: its file, and its place in that file's list.
  // A slot's `f`: how many tiers its first file holds (three, or more for a term in many
  // documents), then one a file. (Two a file after the first: 18% fewer files at a million
  // entries, 5-12% more bytes, and the same time in Chromium; not made.)
  function tierFile(p, k) { return "p/" + p.p + "-" + (k < p.f ? 0 : k - p.f + 1); }
  function tierAt(p, k) { return k < p.f ? k : 0; }

  // A view of the shards under search/: m is the manifest (search/m), fetchShard(name) a promise
  // of the shard of that name (t/..., p/..., d/K, a/K, l/LEN).
  function sharded(m, fetchShard) {
    var runs = m.t, shards = {}, loading = {}, missing = {};
    var lens = {};
    m.lens.forEach(function (l) { lens[l] = true; });
    function get(name) { var s = shards[name]; if (s === undefined) missing[name] = true; return s; }
    // The last run whose item at key k is <= x (its first term, or its first term's number).
    function last(k, x) {
      var lo = 0, hi = runs.length - 1;
      while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (runs[mid][k] <= x) lo = mid; else hi = mid - 1; }
      return lo;
    }
    function run(r) { return get("t/" + runs[r][0]); }
    // The long terms (the manifest's `long`: term, number, slot), the commonest words: a query
    // finds their slots here, not in their runs (a paste at 100,000 entries fetched 11 runs,
    // now 4).
    var long = m.long || [], longAt = new Map(), longOf = new Map();
    long.forEach(function (l, k) { longAt.set(l[0], k); longOf.set(l[1], k); });
    function slot(i) {
      var k = longOf.get(i);
      if (k !== undefined) return long[k][2];
      var r = last(2, i), s = run(r);
      return s ? s[1][i - runs[r][2]] : undefined;
    }
    var v = {
      n: m.n, count: m.count, weak: m.weak, manifest: m, texts: new Map(),
      // false (`search.exact = false`): the first pass ranks by each long term's first file of
      // tiers (settle()).
      exact: m.exact !== false,
      // prefix: q may be a word's start, whose terms can go on into the next run; the manifest
      // tells when they do (its first term starts with q), so that run comes in the same round.
      lower: function (q, prefix) {
        if (!runs.length) return 0;
        var k = prefix ? undefined : longAt.get(q);
        if (k !== undefined) return long[k][1];
        var r = last(1, q), s = run(r);
        if (prefix) for (var x = r + 1; x < runs.length && x <= r + 2 && runs[x][1].indexOf(q) === 0; x++) run(x);
        if (!s) return -1;
        var k = lowerBound(s[0], q);
        return k < s[0].length ? runs[r][2] + k : r + 1 < runs.length ? runs[r + 1][2] : m.count;
      },
      termAt: function (i) {
        var k = longOf.get(i);
        if (k !== undefined) return long[k][0];
        var r = last(2, i);
        if (runs[r][2] === i) return runs[r][1];
        var s = run(r);
        return s ? s[0][i - runs[r][2]] : "";
      },
      // A term's postings; a long term's are in tiers (`tiered`), its slot says where.
      post: function (i) { var p = slot(i); return Array.isArray(p) ? p : []; },
      dfAt: function (i) { var p = slot(i); return p === undefined ? 0 : Array.isArray(p) ? p.length / 2 : p.df; },
      tiered: function (i) { var p = slot(i); return p !== undefined && !Array.isArray(p) ? p : null; },
      // Tier k of a long term's slot p; `has` only looks, noting nothing missing. A term's
      // files of tiers (crates/errbook-search/src/tiers.rs): the first p.f tiers in file 0, then one a
      // file.
      tier: function (p, k) { var f = get(tierFile(p, k)); return f ? f[tierAt(p, k)] : undefined; },
      hasTier: function (p, k) { return shards[tierFile(p, k)] !== undefined; },
      doc: function (d) { var s = get("d/" + Math.floor(d / m.docs)); return s ? s[d % m.docs] : null; },
      art: function (a) { var s = get("a/" + Math.floor(a / m.arts)); return s ? s[a % m.arts] : null; },
      df: function (t) {
        var i = v.lower(t);
        return i >= 0 && i < m.count && v.termAt(i) === t ? v.dfAt(i) : 0;
      },
      // Whether t is a long term: its document frequency is the manifest's, not a shard's.
      long: function (t) { return longAt.has(t); },
      ofLength: function (len) { return lens[len] === true ? get("l/" + len) || [] : []; },
      incomplete: function () { for (var k in missing) return true; return false; },
      // The names missing so far, forgotten once asked.
      missing: function () { var out = Object.keys(missing); missing = {}; return out; },
      load: function (name) {
        if (shards[name] !== undefined) return Promise.resolve();
        if (!loading[name]) {
          loading[name] = fetchShard(name).then(function (data) { shards[name] = data; delete loading[name]; },
            function (e) { delete loading[name]; throw e; });
        }
        return loading[name];
      }
    };
    return v;
  }

  // ---- a query over a sharded view -----------------------------------------------------------
  // search(ix, text, limit, weak) (search-rank.js) until it misses nothing, fetching what each
  // run missed (answer.rounds: how many rounds of fetches it took). answer.timing: the
  // milliseconds each run of search() took (compute) and each round's wait for its files
  // (wait), which scripts/search-bench/first-query.mjs reports.
  var MAX_ROUNDS = 256;
  var now = typeof performance !== "undefined" ? function () { return performance.now(); } : Date.now;
  function rounds(search, ix, text, limit, weak) {
    var timing = { compute: [], wait: [] };
    return new Promise(function (resolve, reject) {
      (function round(k) {
        var t0 = now(), ans = search(ix, text, limit, weak), names = ix.missing ? ix.missing() : [];
        var t1 = now();
        timing.compute.push(t1 - t0);
        if (!names.length) { settled(); ans.rounds = k; ans.timing = timing; return resolve(ans); }
        if (k >= MAX_ROUNDS) { settled(); return reject(new Error("search index: shards still missing")); }
        Promise.all(names.map(ix.load)).then(function () { timing.wait.push(now() - t1); round(k + 1); },
          function (e) { settled(); reject(e); });
      })(0);
    });
  }

  // ---- the first pass where long terms are in impact tiers (crates/errbook-search/src/tiers.rs) ---
  // A query's first pass, kept from one round to the next: `rounds` runs search() again once a
  // round's files are in, and each run folds in only the lists the one before had not (at a
  // million entries a paste meets 400,000 documents over six rounds; folding every tier again
  // each round was most of its time). Keyed by the view and the query's expansions, weights,
  // denominator and size; a finished pass keeps only its answer (a paste's readings each have
  // one, and an earlier reading is asked again each round). The last KEEP passes are kept.
  // Rows: the documents met, in the order met (docs[r], the first `rows` of it); slot[d] is d's
  // row + 1. Each row's values per query term k (known: `codes` below) and per tiered term t
  // (met) are kept a term's column at a time, k * cap + r: a list is one term's, and folding it
  // writes one column, not a byte here and there in every row (at a million entries a paste's
  // rows are tens of MB, far past the processor's caches).
  // SPARE: a slot array of a pass let go, zeroed again, for the next (4 MB at a million
  // entries: the page's warm-up asks eight queries, each of a fresh view).
  var KEEP = 4, PASSES = [], SPARE = null;
  // A pass lets go of its arrays: all but its answer, if it has one.
  function release(s) {
    if (s.slot) {
      for (var j = 0; j < s.rows; j++) s.slot[s.docs[j]] = 0;
      SPARE = s.slot;
    }
    s.slot = s.docs = s.known = s.met = s.lo = s.dirty = s.touched = null;
  }
  // A query's rounds are over: the passes not finished let go (tens of MB at a million
  // entries); one another query still needs starts again, to the same answer.
  function settled() {
    PASSES = PASSES.filter(function (s) { if (s.out === null) release(s); return s.out !== null; });
  }
  // Every pass forgotten: the next query folds all it reads (first-query.mjs times the ranking so).
  function forget() { PASSES.forEach(release); PASSES = []; }
  function pass(ix, key, K, T) {
    for (var i = 0; i < PASSES.length; i++) if (PASSES[i].ix === ix && PASSES[i].key === key) return PASSES[i];
    if (PASSES.length >= KEEP) release(PASSES.shift());
    // No rows yet: grow() makes room for each round's as its lists come.
    var cap = 0, slot = SPARE !== null && SPARE.length === ix.n ? SPARE : new Int32Array(ix.n);
    if (slot === SPARE) SPARE = null;
    var s = { ix: ix, key: key, out: null, slot: slot, docs: new Int32Array(0), rows: 0, cap: cap,
              folded: [], tab: null, codeOf: null, Codes: null, known: null, met: new Uint8Array(cap * T),
              lo: new Float64Array(cap), dirty: new Uint8Array(cap), touched: new Int32Array(cap) };
    PASSES.push(s);
    return s;
  }
  // Room for `rows` rows at least: at once, not doubling as they come (a paste at 100,000
  // entries meets 50,000 documents; copying its arrays seven times was a quarter of its pass).
  function grow(s, K, T, rows, n) {
    if (rows <= s.cap) return;
    var old = s.cap, cap = Math.max(rows, Math.min(old * 2, n)), used = s.rows, k;
    var kn = new s.Codes(cap * K), mt = new Uint8Array(cap * T), lo = new Float64Array(cap),
        dt = new Uint8Array(cap), dc = new Int32Array(cap);
    // Only the rows in use: the room past them was never written, and copying it would make
    // the system supply its memory.
    for (k = 0; k < K; k++) kn.set(s.known.subarray(k * old, k * old + used), k * cap);
    for (k = 0; k < T; k++) mt.set(s.met.subarray(k * old, k * old + used), k * cap);
    lo.set(s.lo.subarray(0, used)); dt.set(s.dirty.subarray(0, used)); dc.set(s.docs.subarray(0, used));
    s.known = kn; s.met = mt; s.lo = lo; s.dirty = dt; s.docs = dc; s.cap = cap;
    s.touched = new Int32Array(cap);
  }

  // The first pass's best `max` documents, [[doc, score / denom]...] best first, the same as
  // over whole posting lists, to the bit. exs[k]: query term k's expansions [[term, factor]...];
  // ws[k][e]: each one's weight. A long term's tiers are read highest impact first: a document
  // missing from the tiers read so far has at most the next tier's maximum. Done once no
  // document not met can reach the max-th best score, and every one that can is known (no term
  // left in doubt for it). Otherwise notes what to fetch and returns null, all a round needs at
  // once (each round waits for the one before, and a round costs more than a tier): while a
  // document not met could still reach the best, the next tiers of every term that leaves
  // something to gain, as deep as the tiers' maxima say it takes (`ahead`), with the entries'
  // shards of the best so far; then the next DOUBT tiers of every term left in doubt over the
  // documents that could (each twice the one before: a few KB, where another round costs more),
  // and the entries' shards of the best so far, which the second pass reads. (Four steps ahead,
  // not three: the same answers to 12 queries in 55 rounds, not 60, and fewer bytes, at a
  // million entries; 37 rounds, not 43, at 100,000: each round also fetched the best so far.)
  var STEPS = 4, DOUBT = 3;
  function tieredTop(ix, exs, ws, denom, max) {
    var K = exs.length, tiers = [], key = [], T = 0, k, e, j, f = 0, t;
    for (k = 0; k < K; k++) {
      for (e = 0; e < exs[k].length; e++) {
        var long = ix.tiered(exs[k][e][0]) !== null;
        if (long) T++;
        key.push(exs[k][e][0] + (long ? "t" : "l") + ws[k][e]);
      }
      key.push("|");
    }
    key.push(denom, max);
    var s = pass(ix, key.join(" "), K, T);
    if (s.out) return s.out.slice();
    if (!s.tab) codes(s, ws);
    var tab = s.tab, codeOf = s.codeOf;
    var slot = s.slot, fold = [], more = 0;
    for (k = 0; k < K; k++) {
      for (e = 0; e < exs[k].length; e++, f++) {
        var i = exs[k][e][0], w = ws[k][e], p = ix.tiered(i), from = s.folded[f] || 0, lists = [], ti = -1;
        if (p) {
          var h = 0;
          while (h < p.max.length && ix.hasTier(p, h)) h++;
          for (var x = from; x < h; x++) lists.push(ix.tier(p, x));
          s.folded[f] = h;
          ti = tiers.length;
          tiers.push({ k: k, w: w, p: p, h: h, term: ix.termAt(i), rest: h < p.max.length ? w * p.max[h] / 100 : 0 });
        } else if (from === 0) {
          var whole = ix.post(i);
          if (whole.length) { lists.push(whole); s.folded[f] = 1; }
        }
        for (var l = 0; l < lists.length; l++) { fold.push(lists[l], k, ti, codeOf[f]); more += lists[l].length / 2; }
      }
    }
    // Room first for as many new rows as the lists have postings (at most the catalog), then
    // each list folded as it came.
    grow(s, K, T, Math.min(ix.n, s.rows + more), ix.n);
    var docs = s.docs, rows = s.rows, touched = s.touched, nt = 0;
    var known = s.known, met = s.met, dirty = s.dirty, cap = s.cap;
    for (var g = 0; g < fold.length; g += 4) {
      var list = fold[g], d = 0, kf = fold[g + 1], tf = fold[g + 2], cf = fold[g + 3];
      for (j = 0; j < list.length; j += 2) {
        d += list[j];
        var c = cf[list[j + 1]], r = slot[d] - 1;
        if (r < 0) {
          r = rows++;
          docs[r] = d;
          slot[d] = r + 1;
        }
        if (tf >= 0) met[tf * cap + r] = 1;
        if (c > known[kf * cap + r]) known[kf * cap + r] = c;
        if (dirty[r] === 0) { dirty[r] = 1; touched[nt++] = r; }
      }
    }
    // The score so far of each row this run changed (summed in term order, as a whole list's).
    var lo = s.lo, y;
    for (j = 0; j < nt; j++) lo[touched[j]] = 0;
    for (k = 0; k < K; k++) {
      var col = k * cap, tk = tab[k];
      for (j = 0; j < nt; j++) { y = touched[j]; lo[y] += tk[known[col + y]]; }
    }
    for (j = 0; j < nt; j++) {
      y = touched[j];
      lo[y] = denom > 0 ? lo[y] / denom : 0;
      dirty[y] = 0;
    }
    // Runs still missing: the first file of every long term's tiers comes in the same round
    // (the first pass reads it whatever the runs say).
    if (ix.incomplete()) { for (t = 0; t < tiers.length; t++) if (tiers[t].h === 0) ix.tier(tiers[t].p, 0); }
    s.rows = rows;
    var out = ix.incomplete() ? null : settle(ix, tiers, docs, rows, known, tab, met, lo, K, T, denom, max, cap);
    // Finished: only the answer stays.
    if (out !== null) { s.out = out; release(s); }
    return out;
  }

  // A pass's rows keep, for each query term, not its best contribution so far (a float, eight
  // bytes) but that contribution's number among all it can be (two bytes): w * impact / 100 for
  // each of the term's expansions' weights w and every impact, 0 to 100 (crates/errbook-search/src/format.rs),
  // above 0, sorted, numbered from 1 (0: none). A larger number is a larger contribution, and
  // s.tab[k][number] is it, the same float. (At a million entries a paste's rows take a
  // quarter of the memory, and with the columns its computing in Chromium went from 88-108 ms
  // to 32-35: bench/scale/2026-11-27-s36-first-pass-columns.txt at 3618223.)
  var IMPACTS = 101;
  function codes(s, ws) {
    var tabs = [], codeOf = [], most = 0, k, e, i;
    for (k = 0; k < ws.length; k++) {
      // (A typed array sorts numbers natively: a typed query's last word has 30 expansions.)
      var all = new Float64Array(ws[k].length * IMPACTS), n = 0;
      for (e = 0; e < ws[k].length; e++) {
        for (i = 0; i < IMPACTS; i++) { var c = ws[k][e] * i / 100; if (c > 0) all[n++] = c; }
      }
      all = all.subarray(0, n).sort();
      var tab = new Float64Array(n + 1), m = 1;
      for (i = 0; i < n; i++) if (all[i] !== tab[m - 1]) tab[m++] = all[i];
      tab = tab.subarray(0, m);
      tabs.push(tab);
      most = Math.max(most, m);
      for (e = 0; e < ws[k].length; e++) {
        var of = new Uint32Array(IMPACTS);
        for (i = 0; i < IMPACTS; i++) of[i] = numberOf(tab, m, ws[k][e] * i / 100);
        codeOf.push(of);
      }
    }
    s.tab = tabs; s.codeOf = codeOf;
    s.Codes = most <= 65536 ? Uint16Array : Uint32Array;
    s.known = new s.Codes(0);
  }
  // c's number in tab[0..m] (sorted, distinct, tab[0] = 0), 0 where it is not above 0.
  function numberOf(tab, m, c) {
    if (!(c > 0)) return 0;
    var lo = 1, hi = m - 1;
    while (lo < hi) { var mid = (lo + hi) >> 1; if (tab[mid] < c) lo = mid + 1; else hi = mid; }
    return lo;
  }

  // tieredTop's second half: bounds, the answer or what to fetch.
  // lo[r]: row r's score so far (tieredTop keeps it), read from an array, not an array per
  // row: a query meets thousands of rows, and this runs before the engine has compiled it.
  function settle(ix, tiers, docs, rows, known, tab, met, lo, K, T, denom, max, cap) {
    var n = rows, rest = new Float64Array(K), unseen = 0, up = new Float64Array(K), k, t, r;
    var rt = new Float64Array(T), kt = new Int32Array(T), first = [];
    for (t = 0; t < T; t++) { rt[t] = tiers[t].rest; kt[t] = tiers[t].k; }
    for (t = 0; t < T; t++) if (rt[t] > rest[kt[t]]) rest[kt[t]] = rt[t];
    for (k = 0; k < K; k++) unseen += rest[k];
    var norm = function (x) { return denom > 0 ? x / denom : 0; };
    // The best `max` rows, kept as they come.
    for (r = 0; r < n; r++) {
      var l = lo[r], j;
      // By score, then by document (before()): a full sort's order.
      j = first.length;
      if (j === max && !(l > lo[first[j - 1]] || (l === lo[first[j - 1]] && docs[r] < docs[first[j - 1]]))) continue;
      while (j > 0 && (l > lo[first[j - 1]] || (l === lo[first[j - 1]] && docs[r] < docs[first[j - 1]]))) j--;
      first.splice(j, 0, r);
      if (first.length > max) first.pop();
    }
    var full = first.length === max, th = full ? lo[first[max - 1]] : -Infinity;
    // A site built with `search.exact = false`: once each long term's first file of tiers is
    // in, the best by what they hold (each entry's score so far, at most its score) are the
    // answer, and deeper tiers are not read. At a million entries a paste then answered in
    // 44-52 ms in Chromium, not 134-205, its first hit of the pasted message's template in 38
    // of 40 pastes (39 exact), but the 8 it showed were the exact ones in 11 of 40
    // (bench/scale/2026-11-27-s38-doubt-shards.txt at 3618223).
    if (ix.exact === false) {
      var firstFiles = true;
      for (t = 0; t < T; t++) if (tiers[t].h === 0) { ix.tier(tiers[t].p, 0); firstFiles = false; }
      first.forEach(function (y) { ix.doc(docs[y]); });
      return firstFiles ? first.map(function (y) { return [docs[y], lo[y]]; }) : null;
    }
    if (unseen > 0 && !(full && norm(unseen) < th)) {
      ahead(ix, tiers, K, full ? function (x) { return norm(x) < th; } : null);
      // The best so far's entries too, which the second pass will read: most stay among the
      // best, and their shards come in this round instead of one of their own at the end.
      first.forEach(function (y) { ix.doc(docs[y]); });
      return null;
    }
    // The rows still in doubt: a term's tier not read holds more for them (`up`), and with it
    // they could reach the max-th best. A row's upper bound is at most its score so far and
    // every term's most left (`unseen`), so a row below the max-th by more than that is not in
    // doubt (the margin covers the sums' rounding: the rows left are those the bound says).
    var gain = new Float64Array(T), doubtful = false, reach = norm(unseen);
    for (r = 0; r < n; r++) {
      if ((lo[r] + reach) * (1 + 1e-9) < th) continue;
      var d = 0, h = 0;
      for (t = 0; t < T; t++) {
        if (met[t * cap + r] === 1 || rt[t] === 0) continue;
        if (d === 0) { d = 1; up.fill(0); }
        if (rt[t] > up[kt[t]]) up[kt[t]] = rt[t];
      }
      if (d === 0) continue;
      for (k = 0; k < K; k++) h += Math.max(tab[k][known[k * cap + r]], up[k]);
      if (norm(h) < th) continue;
      doubtful = true;
      for (t = 0; t < T; t++) if (met[t * cap + r] !== 1) gain[t] += rt[t];
    }
    if (!doubtful) return first.map(function (y) { return [docs[y], lo[y]]; });
    for (t = 0; t < T; t++) {
      var z = tiers[t];
      if (gain[t] === 0) continue;
      for (var x = z.h; x < Math.min(z.h + DOUBT, z.p.max.length); x++) ix.tier(z.p, x);
    }
    first.forEach(function (y) { ix.doc(docs[y]); });
    return null;
  }

  // The tiers to fetch while a document not met could still reach the best: the next tier of
  // every term that leaves something to gain, again as the tiers' maxima (in the slots) say,
  // until what no document met could have is low enough (`enough`: below the max-th best score
  // known; null while fewer than max are known: one step then), at most STEPS deep: the rounds
  // that would have come one after another, were that score to stay, in one.
  function ahead(ix, tiers, K, enough) {
    var h = tiers.map(function (y) { return y.h; }), rest = tiers.map(function (y) { return y.rest; });
    for (var step = 0; step < STEPS; step++) {
      var top = new Float64Array(K), sum = 0, any = false, t;
      for (t = 0; t < tiers.length; t++) if (rest[t] > top[tiers[t].k]) top[tiers[t].k] = rest[t];
      for (t = 0; t < K; t++) sum += top[t];
      if (step > 0 && enough(sum)) return;
      for (t = 0; t < tiers.length; t++) {
        var y = tiers[t];
        if (rest[t] === 0) continue;
        any = true;
        ix.tier(y.p, h[t]++);
        rest[t] = h[t] < y.p.max.length ? y.w * y.p.max[h[t]] / 100 : 0;
      }
      if (!any || !enough) return;
    }
  }

  // [doc, score] a before b: by score, then by document, a full sort's order.
  function before(a, b) { return a[1] > b[1] || (a[1] === b[1] && a[0] < b[0]); }

  var api = { idf: idf, osa: osa, expand: expand, view: view, sharded: sharded, rounds: rounds,
              tieredTop: tieredTop, before: before, forget: forget, tierFile: tierFile };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else if (typeof window !== "undefined") window.errbookIndexView = api;
})();

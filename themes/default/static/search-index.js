// errbook search's index lookups: a query term to the index terms it stands for (`expand`, as
// src/search/expand.rs, with `osa` and `idf`), and the views the ranking reads the index through
// (`view`: a whole index; `sharded`: the site's shards, src/search/shards.rs). A classic script
// (offline bundles work from file://) that sets window.errbookIndexView, loaded before
// search-rank.js; in node, module.exports.
(function () {
  "use strict";

  // ---- expand (src/search/expand.rs) -------------------------------------------------------
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
    var start = ix.lower(q);
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
  // node's tests pass it) or of the site's shards (src/search/shards.rs). A sharded view notes
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
      doc: function (d) { return idx.docs[d]; },
      art: function (a) { return idx.arts[a]; },
      df: function (t) { var i = lowerBound(terms, t); return i < terms.length && terms[i] === t ? idx.post[i].length / 2 : 0; },
      ofLength: function (len) {
        if (!byLen) { byLen = []; terms.forEach(function (t) { (byLen[t.length] || (byLen[t.length] = [])).push(t); }); }
        return byLen[len] || [];
      },
      incomplete: function () { return false; }
    };
    Object.defineProperty(idx, "__view", { value: v, enumerable: false, configurable: true });
    return v;
  }

  // A view of the shards under search/: m is the manifest (search/m), fetchShard(name) a promise
  // of the shard of that name (t/..., d/K, a/K, l/LEN).
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
    var v = {
      n: m.n, count: m.count, weak: m.weak, manifest: m, texts: new Map(),
      lower: function (q) {
        if (!runs.length) return 0;
        var r = last(1, q), s = run(r);
        if (!s) return -1;
        var k = lowerBound(s[0], q);
        return k < s[0].length ? runs[r][2] + k : r + 1 < runs.length ? runs[r + 1][2] : m.count;
      },
      termAt: function (i) {
        var r = last(2, i);
        if (runs[r][2] === i) return runs[r][1];
        var s = run(r);
        return s ? s[0][i - runs[r][2]] : "";
      },
      post: function (i) { var r = last(2, i), s = run(r); return s ? s[1][i - runs[r][2]] : []; },
      doc: function (d) { var s = get("d/" + Math.floor(d / m.docs)); return s ? s[d % m.docs] : null; },
      art: function (a) { var s = get("a/" + Math.floor(a / m.arts)); return s ? s[a % m.arts] : null; },
      df: function (t) {
        var i = v.lower(t);
        return i >= 0 && i < m.count && v.termAt(i) === t ? v.post(i).length / 2 : 0;
      },
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

  var api = { idf: idf, osa: osa, expand: expand, view: view, sharded: sharded };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else if (typeof window !== "undefined") window.errbookIndexView = api;
})();

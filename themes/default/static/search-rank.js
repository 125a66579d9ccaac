// errbook search's ranking: a paste against the index, the same steps as crates/errbook-search/src/ (clean,
// template, normalise, tokenise, expand, rerank, rank); tests/it/search_parity.rs runs both on
// the same pastes and compares readings, terms, ranking and scores. A classic script (no
// modules, so that offline bundles work from file://) that sets window.errbookRank, after
// search-index.js (expand, and the views of a whole or sharded index); search.js is the page
// around it. In node, module.exports. The numbers it shares with the ranking in Rust are written
// there only: errbook puts each `/* errbook: NAME, ... */` as `var NAME = value, ...;` when it
// loads the theme (crates/errbook-search/src/js.rs).
(function () {
  "use strict";

  // ---- clean (crates/errbook-search/src/clean.rs) -----------------------------------------------
  var ANSI = /\x1b\[[0-9;]*[A-Za-z]/g;
  var RANK = /^(?:\[(?:rank|default)\s*([0-9]+)\]:|\[\s*[Rr]ank\s*([0-9]+)\s*\])\s*/;
  var PREFIX = new RegExp("^(?:" + [
    "\\[?rank\\s*[0-9]+\\]?\\s*:\\s*",
    "\\[default[0-9]+\\]:\\s*",
    "\\[\\s*[Rr]ank\\s*[0-9]+\\s*\\]:?\\s*",
    "\\[PG [^\\]]*\\]\\s*",
    "\\[?[0-9]{4}-[0-9][0-9]-[0-9][0-9][T _][0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?(?:Z|[+-][0-9][0-9]:?[0-9][0-9])?\\]?\\s*(?:[-|:]\\s*)?",
    "\\[?[0-9][0-9]/[0-9][0-9]/[0-9]{4}[- ][0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\]?\\s*",
    "\\[?[0-9][0-9]:[0-9][0-9]:[0-9][0-9](?:[.,][0-9]+)?\\]?\\s*(?:[-|:]\\s*)?",
    "\\[?[A-Z][a-z]{2} [A-Z][a-z]{2} +[0-9]{1,2} [0-9][0-9]:[0-9][0-9]:[0-9][0-9] [0-9]{4}\\]\\s*",
    "[A-Z][a-z]{2} +[0-9]{1,2} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\s+",
    "[EWIF][0-9]{4} [0-9][0-9]:[0-9][0-9]:[0-9][0-9]\\.[0-9]+\\s+[0-9]+\\s+[A-Za-z0-9_./-]+:[0-9]+\\]\\s*",
    "[EWIF] [A-Za-z0-9_./-]+\\.(?:cc|cpp|h|py):[0-9]+\\]\\s*",
    "\\[[EWIF][0-9]*\\s[^\\]]*\\]\\s*",
    "\\[[0-9]+\\]\\s+",
    ".*[0-9.]+(?:it/s|s/it)\\]\\s*",
    "\\[(?:[A-Z][A-Za-z0-9_.-]{0,15}|[EWIF])\\]:?\\s*",
    "\\[?(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|FATAL)\\b\\]?\\s*(?::[A-Za-z0-9_.]*:|[:|-])?\\s*",
    "\\(pid=[0-9]+(?:,\\s*ip=[0-9.]+)?\\)\\s*",
    "what\\(\\):\\s*",
    "[0-9]+:\\s+",
    "(?:>|\\*\\*|__|```|`|\\$|#)\\s*"
  ].join("|") + ")");
  var SUFFIX = /(?:\*\*|__|```|`)\s*$/;

  function cleanLine(line) {
    var s = line.replace(ANSI, "").trim();
    for (;;) {
      var m = PREFIX.exec(s);
      if (!m || m[0].length === 0) break;
      var next = s.slice(m[0].length).replace(/^\s+/, "");
      if (next === s) break;
      s = next;
    }
    return s.replace(SUFFIX, "").replace(/\s+$/, "");
  }

  function lines(text) {
    // Rust's str::lines: split on \n, drop one trailing empty line, strip \r.
    var ls = text.split("\n");
    if (ls.length && ls[ls.length - 1] === "") ls.pop();
    return ls.map(function (l) { return l.replace(/\r$/, ""); });
  }

  function rankOf(line) {
    var c = RANK.exec(line.replace(/^\s+/, ""));
    return c ? parseInt(c[1] !== undefined ? c[1] : c[2], 10) : null;
  }

  // A paste is hostile input too: at most MAX_PASTE characters (code points; beyond it the
  // first PASTE_HEAD and the rest from the end, joined by a line break), and no word (a run
  // between white space) longer than MAX_WORD, which keeps every pattern here linear.
  /* errbook: MAX_PASTE, PASTE_HEAD, MAX_WORD */
  function isSpace(c) { return c === 32 || c === 9 || c === 10 || c === 13 || c === 12; }
  // The length in UTF-16 units of the code point at s[i].
  function unit(s, i) {
    var c = s.charCodeAt(i);
    return c >= 0xD800 && c <= 0xDBFF && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xFC00) === 0xDC00 ? 2 : 1;
  }
  function bound(text) {
    if (text.length > MAX_PASTE) {
      var n = 0, i = 0, head = -1;
      for (; i < text.length; i += unit(text, i)) { if (n === PASTE_HEAD) head = i; n++; }
      if (n > MAX_PASTE) {
        var skip = n - (MAX_PASTE - PASTE_HEAD), k = 0;
        for (i = 0; k < skip; i += unit(text, i)) k++;
        text = text.slice(0, head) + "\n" + text.slice(i);
      }
    }
    // from: where the stretch being kept began; -1 while a word's excess is dropped.
    var out = [], run = 0, from = 0, j = 0;
    while (j < text.length) {
      run = isSpace(text.charCodeAt(j)) ? 0 : run + 1;
      if (run > MAX_WORD) {
        if (from >= 0) { out.push(text.slice(from, j)); from = -1; }
      } else if (from < 0) from = j;
      j += unit(text, j);
    }
    if (from >= 0) out.push(text.slice(from));
    return out.join("");
  }

  function cleanLines(text) {
    var raw = lines(bound(text)), order = [], tags = [], current = null;
    raw.forEach(function (l) {
      var r = rankOf(l);
      if (r !== null) { current = r; if (order.indexOf(r) < 0) order.push(r); }
      tags.push(current);
    });
    var idx = raw.map(function (_, i) { return i; });
    if (order.length > 1) {
      var group = function (i) { return tags[i] === null ? 0 : Math.max(0, order.indexOf(tags[i])); };
      idx.sort(function (a, b) { return group(a) - group(b) || a - b; });
    }
    return idx.map(function (i) { return cleanLine(raw[i]); });
  }

  // ---- template (crates/errbook-search/src/template.rs) -----------------------------------------
  var ADVICE = new RegExp("(?:" + [
    "If reserved (?:but unallocated )?memory is (?:large|>> allocated memory) try setting [A-Za-z_=:]+ to avoid fragmentation\\.?",
    "See documentation for Memory Management(?: and PYTORCH_CUDA_ALLOC_CONF| *\\([^)]*\\))?",
    "CUDA kernel errors might be asynchronously reported at some other API call, ?so the stacktrace below might be incorrect\\.?",
    "For debugging consider passing CUDA_LAUNCH_BLOCKING=1\\.?",
    "Compile with .TORCH_USE_CUDA_DSA. to enable device-side assertions\\.?"
  ].join("|") + ")", "g");
  var URL_RE = /\b[a-zA-Z][a-zA-Z0-9+.-]*:\/\/\S+/g;
  var PATH = /(?:[A-Za-z]:)?(?:\.{1,2}|~)?(?:[\\/][A-Za-z0-9_.@~+-]+){2,}[\\/]?/g;
  var HEX = /\b0x[0-9a-fA-F]+\b|\b[0-9a-f]{8,}\b/g;
  var SIZE = /\b[0-9]+(?:\.[0-9]+)?\s*(?:[KMGTP]i?B|[kK]B|bytes|B)\b/g;
  var NUMBER = /[-+]?\b[0-9]+(?:\.[0-9]+)*(?:[eE][-+]?[0-9]+)?(?:x[0-9]+)*\b/g;
  var CUDA_DEV = /\b(cuda|cpu|xpu|mps):[0-9]+/g;
  var REPEAT = /(<(?:n|path|hex|size|url)>)(?:[\s,x*]*<(?:n|path|hex|size|url)>)+/g;

  function template(message) {
    var s = message.replace(ADVICE, "").replace(URL_RE, "<url>").replace(PATH, "<path>").replace(CUDA_DEV, "$1");
    s = s.replace(HEX, function (m) {
      var hexy = m.indexOf("0x") === 0 || (/[0-9]/.test(m) && /[A-Za-z]/.test(m));
      return hexy ? "<hex>" : m;
    });
    s = s.replace(SIZE, "<size>").replace(NUMBER, "<n>").replace(REPEAT, "$1");
    return s.trim().replace(/\s+/g, " ");
  }

  // ---- normalise: the readings of a paste (crates/errbook-search/src/normalise.rs) --------------
  /* errbook: MAX_READINGS */
  var EXC = "((?:[A-Za-z_][A-Za-z0-9_]*\\.)*([A-Za-z][A-Za-z0-9_]*(?:Error|Exception|Interrupt|Exit|Warning|Failure)))";
  var EXC_LINE = new RegExp("^" + EXC + "\\s*(?::\\s*(.*))?$");
  var EXC_INLINE = new RegExp("(^|[^A-Za-z0-9.])[*_]*([\"'`\u201c\u2018\u300c(]?)" + EXC + ":\\s*(\\S.*)$");
  var WRAPPER_MSG = /^caught [A-Za-z0-9_]+ in (?:dataloader worker process|replica)|terminated with the following error/i;
  var BANNER = /unexpected [a-z ]{3,30} encountered in worker/i;
  var CHAIN = /^(?:During handling of the above exception|The above exception was the direct cause)/;
  var STOP_LINE = /^(?:Traceback \(most recent call last\)|Original Traceback|During handling of the above|The above exception was|File |Exception raised from|frame #|-- Process [0-9]+)/;
  var BOILERPLATE = /^(?:CUDA kernel errors might be asynchronously|For debugging consider passing|Compile with .TORCH_USE_CUDA_DSA|To enable traceback see|Set TORCH_SHOW_CPP_STACKTRACES|Search for .cuda[A-Za-z]+. in|\^+$|~*\^+~*$)/i;
  var FRAME = /^\s*File "[^"]*", line [0-9]+/;
  var RAISED_FROM = /^Exception raised from /;
  var ERRORISH = /(?:^|[^a-z])(?:errors?|errno|fail|failed|failure|fatal|exception|abort(?:ed)?|assert(?:ion)?|cannot|can't|could ?not|unable|not found|no such|invalid|illegal|unhandled|time[ds]? ?out|killed|denied|refused|mismatch|expected|unexpected(?:ly)?|not implemented|not compiled|too old|out of memory|segmentation fault|core dumped|undefined symbol|not supported|no kernel)(?:[^a-z]|$)|[A-Z0-9]+_(?:ERROR|FAILED|FAILURE)|[A-Za-z]+_STATUS_[A-Z_]+/i;
  var QUOTED = /"([^"]+)"|\u201c([^\u201d]+)\u201d|`([^`]+)`|'([^']+)'|\u2018([^\u2019]+)\u2019/g;
  var CLOSING = { "\"": "\"", "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019", "\u300c": "\u300d", "(": ")" };

  // Readings past MAX_READINGS would be cut: none is made (a paste of a thousand exceptions
  // costs what one of four does).
  function push(out, exception, message) {
    if (out.length >= MAX_READINGS) return;
    var t = template(message);
    var tpl = exception === null ? t : (t === "" ? exception : exception + ": " + t);
    if (tpl === "" || out.some(function (d) { return d.template === tpl; })) return;
    out.push({ exception: exception, template: tpl });
  }

  function candidates(ls) {
    var out = [], i = 0;
    while (i < ls.length) {
      var c = EXC_LINE.exec(ls[i]);
      if (!c) { i++; continue; }
      var full = c[1] || "", short = c[2] || "", first = (c[3] || "").trim(), message = first;
      var j = 0, taken = 0, after = i + 1;
      while (after + j < ls.length && taken < 4) {
        var l = ls[after + j];
        if (l === "" || STOP_LINE.test(l) || EXC_LINE.test(l) || CHAIN.test(l)) break;
        if (!BOILERPLATE.test(l)) { message += " " + l; taken++; }
        j++;
      }
      var wrapper = WRAPPER_MSG.test(message) || short === "ProcessRaisedException" ||
        short === "ChildFailedError" || short === "ProcessExitedException" ||
        (/DistBackendError$/.test(full) && message === "");
      out.push({ exception: short, first: first, message: message.trim(), wrapper: wrapper, line: i });
      i += 1 + j;
    }
    return out;
  }

  function primary(ls, cands) {
    var sep = -1, k;
    for (k = 0; k < ls.length; k++) if (CHAIN.test(ls[k])) { sep = k; break; }
    if (sep >= 0) for (k = cands.length - 1; k >= 0; k--) if (cands[k].line < sep && !cands[k].wrapper) return k;
    for (k = cands.length - 1; k >= 0; k--) if (!cands[k].wrapper) return k;
    return cands.length ? cands.length - 1 : -1;
  }

  function structured(ls, out) {
    var cands = candidates(ls), p = primary(ls, cands);
    if (p < 0) return;
    var order = [p];
    for (var k = cands.length - 1; k >= 0; k--) if (k !== p) order.push(k);
    order.forEach(function (k) {
      var c = cands[k];
      push(out, c.exception, c.message);
      if (c.first !== c.message) push(out, c.exception, c.first);
    });
  }

  function raisedFrom(ls, out) {
    var k = -1, i;
    for (i = 0; i < ls.length; i++) if (RAISED_FROM.test(ls[i])) { k = i; break; }
    if (k < 0) return;
    while (k > 0 && (ls[k - 1] === "" || BOILERPLATE.test(ls[k - 1]))) k--;
    var message = [];
    while (k > 0 && message.length < 3) {
      var l = ls[k - 1], underFrame = k >= 2 && FRAME.test(ls[k - 2]);
      if (l === "" || FRAME.test(l) || STOP_LINE.test(l) || underFrame) break;
      message.push(l);
      k--;
      if (EXC_LINE.test(l)) break;
    }
    push(out, null, message.reverse().join(" "));
  }

  function embedded(ls, out) {
    ls.forEach(function (l) {
      var c = EXC_INLINE.exec(l);
      if (!c) return;
      var message = c[5] || "", close = CLOSING[c[2] || ""];
      if (close) { var end = message.indexOf(close); if (end >= 0) message = message.slice(0, end); }
      push(out, c[4] || "", message);
    });
  }

  function introduced(ls, out) {
    ls.forEach(function (l, i) {
      if (!/[:\uff1a]$/.test(l) || EXC_LINE.test(l)) return;
      var k = i + 1, block = [];
      while (k < ls.length && ls[k] === "") k++;
      while (k < ls.length && block.length < 3 && ls[k] !== "" && !FRAME.test(ls[k])) block.push(ls[k++]);
      if (block.length) push(out, null, block.join(" "));
    });
  }

  function withoutFrames(ls) {
    var kept = [], skipCode = false;
    ls.forEach(function (l) {
      if (l === "" || l.indexOf("Traceback (most recent call last)") === 0) { skipCode = false; return; }
      if (FRAME.test(l)) { skipCode = true; return; }
      if (skipCode) { skipCode = false; return; }
      if (BOILERPLATE.test(l)) return;
      kept.push(l);
    });
    return kept;
  }

  function errorLike(ls, out) {
    var text = withoutFrames(ls);
    text.forEach(function (l) {
      var lineIs = ERRORISH.test(l), c;
      QUOTED.lastIndex = 0;
      while ((c = QUOTED.exec(l))) {
        var q = [c[1], c[2], c[3], c[4], c[5]].find(function (x) { return x !== undefined; }) || "";
        var words = q.split(/\s+/).filter(Boolean).length;
        if ((words >= 2 && ERRORISH.test(q)) || (words >= 3 && lineIs)) push(out, null, q);
      }
    });
    text.forEach(function (l) { if (ERRORISH.test(l)) push(out, null, l); });
  }

  function readings(text) {
    var ls = cleanLines(text), out = [];
    var banner = ls.find(function (l) { return BANNER.test(l); });
    if (banner !== undefined) push(out, null, banner);
    raisedFrom(ls, out);
    structured(ls, out);
    if (!out.length) { embedded(ls, out); introduced(ls, out); errorLike(ls, out); }
    if (!out.length) push(out, null, withoutFrames(ls).join(" "));
    return out.slice(0, MAX_READINGS);
  }

  function normalise(text) { return readings(text)[0] || { exception: null, template: "" }; }

  // ---- tokenise (crates/errbook-search/src/tokenise.rs) -----------------------------------------
  var PLACEHOLDER = /<(?:n|path|hex|size|str|url)>/g;
  var WORD = /[a-z0-9]+(?:[-_][a-z0-9]+)*/g;
  var STOP = {}, GENERIC = {};
  ("a an and are as at be by for from has have if in into is it its of on or so that the this to " +
   "was were with you your").split(" ").forEach(function (w) { STOP[w] = true; });
  var SUFFIXES = ["ations", "ation", "ings", "ing", "ed", "es", "s", "e"];

  function asciiLower(s) { return s.replace(/[A-Z]+/g, function (m) { return m.toLowerCase(); }); }

  function stem(w) {
    if (w.length < 4 || /[0-9]/.test(w)) return w;
    for (var i = 0; i < SUFFIXES.length; i++) {
      var suf = SUFFIXES[i];
      if (w.endsWith(suf) && w.length - suf.length >= 3 && !(suf === "s" && w.endsWith("ss")))
        return w.slice(0, w.length - suf.length);
    }
    return w;
  }

  ("error exception fail failed failure fatal cannot can could not no unable invalid unexpected " +
   "unexpectedly expected found got get encountered occurred unhandled unknown unsupported supported " +
   "missing such file directory open object load library call calling function argument value type " +
   "version please try make sure check use using run running see details more information when while " +
   "during all any least must should might may need available enabled initialized default given raised " +
   "reported but does did been being there which what than then only also will would other another same " +
   "instead following above below runtimeerror valueerror typeerror importerror oserror assertionerror " +
   "indexerror keyerror attributeerror modulenotfounderror notimplementederror userwarning warning")
    .split(" ").forEach(function (w) { GENERIC[stem(w)] = true; });

  function keep(w) { return w.length >= 2 && !/^[0-9]+$/.test(w) && !STOP[w]; }

  function tokens(text) {
    var lower = asciiLower(text.replace(PLACEHOLDER, " "));
    var out = [], m;
    WORD.lastIndex = 0;
    while ((m = WORD.exec(lower))) {
      var w = m[0];
      if (/[-_]/.test(w)) {
        var joined = w.replace(/-/g, "");
        if (keep(joined)) out.push(stem(joined));
        w.split(/[-_]/).forEach(function (p) { if (keep(p)) out.push(stem(p)); });
      } else if (keep(w)) {
        out.push(stem(w));
      }
    }
    return out;
  }

  // ---- expand and the index's views: search-index.js (window.errbookIndexView) ------------
  var X = typeof module !== "undefined" && module.exports ? require("./search-index.js") : window.errbookIndexView;
  /* errbook: MAX_QUERY_TERMS, TYPED_TERMS */
  var idf = X.idf, osa = X.osa, expand = X.expand, view = X.view, sharded = X.sharded, before = X.before;

  // search() over a sharded view, fetching what each run missed until none is: search-index.js.
  function query(ix, text, limit, weak) { return X.rounds(search, ix, text, limit, weak); }

  // The articles of the hits' entries, fetched where sharded.
  function articles(ix, hits) {
    if (!ix.missing) return Promise.resolve();
    hits.forEach(function (h) { var d = ix.doc(h.doc); if (d) d[2].forEach(function (a) { ix.art(a); }); });
    return Promise.all(ix.missing().map(ix.load));
  }

  // ---- rerank (crates/errbook-search/src/rerank.rs) ---------------------------------------------
  /* errbook: RERANK, COVER_CAP, ENOUGH, DISTINCT_CAP, LOOKALIKE */
  /* errbook: LOOKALIKE_TOP, SHARED_ONLY, FIRST_PASS, GENERIC_WEIGHT */
  /* errbook: SUBSTITUTION, CODE_MISMATCH */

  function genericWeight(t, w) { return GENERIC[t] === true ? w * GENERIC_WEIGHT : w; }
  // An entry's texts (message, then aliases): terms in order, and each distinct term with its
  // weight (its document frequency from the shard's list where sharded, d[4], but for a long
  // term's, which the manifest has). Kept per index: a page asks about the same entries again
  // and again.
  var NO_TEXTS = [{ seq: [], terms: [] }];
  function prepare(ix, doc) {
    var cache = ix.texts;
    if (cache.has(doc)) return cache.get(doc);
    var d = ix.doc(doc);
    if (!d) return NO_TEXTS;
    var dfs = d[4], k = 0;
    var texts = [d[1]].concat(d[3] || []).map(function (s) {
      var seq = tokens(normalise(s).template), seen = {}, terms = [];
      seq.forEach(function (t) {
        if (seen[t] === true) return;
        seen[t] = true;
        var df = dfs && !ix.long(t) ? dfs[k++] : ix.df(t);
        terms.push([t, genericWeight(t, idf(ix.n, df))]);
      });
      return { seq: seq, terms: terms };
    });
    cache.set(doc, texts);
    return texts;
  }

  function share(held, total, cap) {
    return total > 0 ? Math.min(1, held / Math.min(total, Math.max(cap, ENOUGH * total))) : 0;
  }

  function coverage(q, text, cap) {
    var total = 0, held = 0, missing = 0, set = {};
    text.terms.forEach(function (tw) {
      var f = q.hits.has(tw[0]) ? q.hits.get(tw[0]) : 0;
      total += tw[1];
      held += tw[1] * f;
      if (f === 0) missing = Math.max(missing, tw[1]);
      set[tw[0]] = true;
    });
    var asked = 0, explained = 0, extra = 0, otherCode = false;
    q.weights.forEach(function (w, k) {
      asked += w;
      var f = 0;
      q.reach[k].forEach(function (r) { if (set[r[0]] === true && r[1] > f) f = r[1]; });
      explained += w * f;
      if (f === 0) { extra = Math.max(extra, w); otherCode = otherCode || q.codes[k]; }
    });
    return share(held, total, cap) * share(explained, asked, cap) *
      substituted(held, Math.min(missing, extra)) * codes(q, text, otherCode);
  }

  function substituted(held, subst) { return held > 0 ? held / (held + SUBSTITUTION * subst) : 0; }

  // A status or error code (CUBLAS_STATUS_EXECUTION_FAILED): a compound term of three parts or
  // more, one of which says status or error.
  function isCode(t) {
    var parts = t.split("_");
    return parts.length >= 3 && parts.some(function (p) {
      return p === "status" || p === "error" || p === "err" || p === "fail" || p === "failur";
    });
  }

  function codes(q, text, otherCode) {
    var own = text.terms.filter(function (tw) { return isCode(tw[0]); });
    if (!otherCode || !own.length) return 1;
    return own.some(function (tw) { return q.hits.has(tw[0]); }) ? 1 : CODE_MISMATCH;
  }

  function overlap(a, b) {
    var sb = {}, both = 0, wa = 0, wb = 0;
    b.terms.forEach(function (tw) { sb[tw[0]] = true; });
    a.terms.forEach(function (tw) { if (sb[tw[0]] === true) both += tw[1]; });
    a.terms.forEach(function (tw) { wa += tw[1]; });
    b.terms.forEach(function (tw) { wb += tw[1]; });
    var least = Math.min(wa, wb);
    return least > 0 ? both / least : 0;
  }

  function features(t) {
    var w = {}, out = t.terms.slice();
    t.terms.forEach(function (tw) { w[tw[0]] = tw[1]; });
    for (var i = 0; i + 1 < t.seq.length; i++) {
      out.push([t.seq[i] + " " + t.seq[i + 1], Math.min(w[t.seq[i]], w[t.seq[i + 1]])]);
    }
    return out;
  }

  function distinct(q, own, others, cap) {
    var shared = {}, total = 0, held = 0;
    others.forEach(function (t) { features(t).forEach(function (f) { shared[f[0]] = true; }); });
    features(own).forEach(function (f) {
      if (shared[f[0]] === true) return;
      total += f[1];
      var present = f[0].indexOf(" ") >= 0 ? (q.pairs[f[0]] === true ? 1 : 0) : (q.hits.has(f[0]) ? q.hits.get(f[0]) : 0);
      held += f[1] * present;
    });
    return total > 0 ? Math.min(1, held / Math.min(total, cap)) : null;
  }

  function byScore(a, b) { return b.score - a.score || a.doc - b.doc; }

  function rerank(idx, q, cands) {
    var rare = idf(idx.n, 1);
    var out = cands.map(function (c) {
      var best = 0, m = 0;
      prepare(idx, c[0]).forEach(function (t, i) {
        var s = coverage(q, t, COVER_CAP * rare);
        if (s > m) { best = i; m = s; }
      });
      return { doc: c[0], score: (1 - FIRST_PASS) * m + FIRST_PASS * c[1], best: best };
    });
    out.sort(byScore);
    lookalikes(idx, q, out, rare);
    out.sort(byScore);
    return out;
  }

  function lookalikes(idx, q, out, rare) {
    var top = Math.min(out.length, LOOKALIKE_TOP);
    var own = function (m) { return prepare(idx, m.doc)[m.best]; };
    var factors = [];
    for (var a = 0; a < top; a++) {
      var others = [];
      for (var b = 0; b < top; b++) {
        if (b !== a && overlap(own(out[a]), own(out[b])) >= LOOKALIKE) others = others.concat(prepare(idx, out[b].doc));
      }
      if (!others.length) { factors.push(1); continue; }
      var d = distinct(q, own(out[a]), others, DISTINCT_CAP * rare);
      factors.push(SHARED_ONLY + (1 - SHARED_ONLY) * (d === null ? 1 : d));
    }
    factors.forEach(function (f, k) { out[k].score *= f; });
  }

  // ---- rank (crates/errbook-search/src/rank.rs) -------------------------------------------------
  function queryTerms(detected) {
    var seen = {}, out = [];
    tokens(detected.template).forEach(function (t) {
      if (!Object.prototype.hasOwnProperty.call(seen, t) && out.length < MAX_QUERY_TERMS) { seen[t] = true; out.push(t); }
    });
    return out;
  }

  // The first pass's arrays, kept between queries (and zeroed after each: only the documents
  // a query touched), so that a query allocates nothing as large as the catalog.
  var BUF = null;
  function buffers(n) {
    if (!BUF || BUF.score.length !== n) {
      BUF = { score: new Float64Array(n), best: new Float64Array(n), seen: new Uint8Array(n),
              touched: new Int32Array(n), any: new Int32Array(n) };
    }
    return BUF;
  }

  // Both passes for one reading.
  function rankReading(idx, detected, limit) {
    var terms = queryTerms(detected);
    var typed = terms.length <= TYPED_TERMS && detected.exception === null;
    var n = idx.n, buf = buffers(n);
    var score = buf.score, best = buf.best, seen = buf.seen, any = buf.any, na = 0;
    var denom = 0, matched = {};
    var toks = tokens(detected.template), pairs = {};
    for (var p = 0; p + 1 < toks.length; p++) pairs[toks[p] + " " + toks[p + 1]] = true;
    var q = { weights: [], reach: [], hits: new Map(), pairs: pairs, codes: terms.map(isCode) };
    var exs = [], ws = [], tiered = false;
    for (var k = 0; k < terms.length; k++) {
      var ex = expand(idx, terms[k], k + 1 === terms.length, typed);
      var qIdf = ex.length && ex[0][1] === 1.0 ? idf(n, idx.dfAt(ex[0][0])) : idf(n, 1);
      denom += qIdf;
      q.weights.push(genericWeight(terms[k], qIdf));
      q.reach.push(ex.map(function (e) {
        var t = idx.termAt(e[0]);
        if (!q.hits.has(t) || e[1] > q.hits.get(t)) q.hits.set(t, e[1]);
        matched[t] = true;
        return [t, e[1]];
      }));
      exs.push(ex);
      ws.push(ex.map(function (e) {
        if (idx.tiered(e[0])) tiered = true;
        return e[1] * Math.min(idf(n, idx.dfAt(e[0])), qIdf);
      }));
    }
    var max = Math.max(limit, RERANK), first = [];
    if (tiered) first = X.tieredTop(idx, exs, ws, denom, max); // long terms' tiers: search-index.js
    else {
      for (k = 0; k < terms.length; k++) {
        var touched = buf.touched, nt = 0;
        for (var e = 0; e < exs[k].length; e++) {
          var list = idx.post(exs[k][e][0]), w = ws[k][e], d = 0;
          for (var i = 0; i < list.length; i += 2) {
            d += list[i];
            var c = w * list[i + 1] / 100;
            if (best[d] === 0) touched[nt++] = d;
            if (c > best[d]) best[d] = c;
          }
        }
        for (var t = 0; t < nt; t++) {
          var dd = touched[t];
          score[dd] += best[dd];
          best[dd] = 0;
          if (!seen[dd]) { seen[dd] = 1; any[na++] = dd; }
        }
      }
    }
    // A sharded index lacked some terms: what it would rank now is not the answer.
    if (idx.incomplete() || first === null) {
      for (var z = 0; z < na; z++) { score[any[z]] = 0; seen[any[z]] = 0; }
      return { detected: detected, terms: terms, matched: matched, hits: [] };
    }
    // The first pass's best (a paste matches most of a large catalog; sorting every match was
    // most of a query's time): the same order as a full sort.
    for (var a = 0; a < na; a++) {
      var doc = any[a], sc = denom > 0 ? score[doc] / denom : 0, j = first.length;
      score[doc] = 0;
      seen[doc] = 0;
      if (j === max && !(sc > first[j - 1][1] || (sc === first[j - 1][1] && doc < first[j - 1][0]))) continue;
      var h = [doc, sc];
      while (j > 0 && before(h, first[j - 1])) j--;
      first.splice(j, 0, h);
      if (first.length > max) first.pop();
    }
    var hits = rerank(idx, q, first).slice(0, limit).map(function (m) { return { doc: m.doc, score: m.score }; });
    return { detected: detected, terms: terms, matched: matched, hits: hits };
  }

  // search.weak_score's default; the page passes the site's own.
  /* errbook: DEFAULT_WEAK */

  // Each reading in turn: the first whose best entry is confident, else the best of them.
  // A sharded view that misses something stops at that reading (query() fetches and asks again).
  function search(idx, text, limit, weak) {
    if (typeof weak !== "number") weak = DEFAULT_WEAK;
    var ix = view(idx), rs = readings(text), found = null;
    for (var r = 0; r < rs.length; r++) {
      var ans = rankReading(ix, rs[r], limit);
      var top = ans.hits.length ? ans.hits[0].score : 0;
      if (top >= weak || ix.incomplete()) return ans;
      if (!found || top > (found.hits.length ? found.hits[0].score : 0)) found = ans;
    }
    return found || { detected: { exception: null, template: "" }, terms: [], matched: {}, hits: [] };
  }

  var api = { normalise: normalise, readings: readings, template: template, tokens: tokens, stem: stem, search: search, osa: osa,
              view: view, sharded: sharded, query: query, articles: articles, tierFile: X.tierFile };
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else if (typeof window !== "undefined") window.errbookRank = api;
})();

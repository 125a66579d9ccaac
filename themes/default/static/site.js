// errbook: the light/dark/auto switch, copy buttons for code blocks and the error message, the
// search's scripts, and a note when a hosted build is opened from disk. No network, no
// modules. Loaded in the head (not deferred), so that a chosen theme is set before the page is
// drawn.
(function () {
  "use strict";
  // The colour theme: "auto" follows the system; "light" and "dark" are the reader's choice,
  // remembered in localStorage (which works from file:// too). CSS reads html[data-theme].
  var THEMES = ["auto", "light", "dark"];
  var KEY = "errbook-theme";
  function stored() {
    try { return localStorage.getItem(KEY); } catch (e) { return null; }
  }
  function applyTheme(t) {
    if (THEMES.indexOf(t) < 0) t = "auto";
    var html = document.documentElement;
    if (t === "auto") html.removeAttribute("data-theme"); else html.setAttribute("data-theme", t);
    var btn = document.getElementById("theme-switch");
    if (btn) {
      btn.textContent = t === "auto" ? "Theme: auto" : t === "light" ? "Theme: light" : "Theme: dark";
      btn.setAttribute("aria-label", "Colour theme: " + t + (t === "auto" ? " (follows the system)" : "") + "; change it");
    }
    return t;
  }
  var theme = applyTheme(stored());
  function addThemeSwitch() {
    var row = document.querySelector(".header-row");
    if (!row || document.getElementById("theme-switch")) return;
    var btn = document.createElement("button");
    btn.type = "button";
    btn.id = "theme-switch";
    btn.className = "theme-switch";
    row.appendChild(btn);
    btn.addEventListener("click", function () {
      theme = THEMES[(THEMES.indexOf(theme) + 1) % THEMES.length];
      try { localStorage.setItem(KEY, theme); } catch (e) { /* private mode: this page only */ }
      applyTheme(theme);
    });
    applyTheme(theme);
  }
  function ready(f) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", f);
    else f();
  }
  ready(addThemeSwitch);
  // The header's search box as the search's scripts use it: its hint, no autocomplete or
  // spelling marks, and the list its results show in. Made here, not written into every page:
  // they only matter with scripts (the search runs in them). Before `explainFileUrl`, which may
  // give the box another hint.
  function searchBox() {
    var input = document.getElementById("search-input");
    if (!input) return;
    if (!input.hasAttribute("placeholder")) {
      input.setAttribute("placeholder", "Paste an error message or traceback\u2026");
    }
    input.setAttribute("autocomplete", "off");
    input.setAttribute("spellcheck", "false");
    if (document.getElementById("search-results")) return;
    var box = document.createElement("div");
    box.id = "search-results";
    box.setAttribute("role", "listbox");
    box.setAttribute("aria-label", "Search results");
    box.hidden = true;
    input.parentNode.appendChild(box);
  }
  ready(searchBox);
  // A hosted build opened from file:// shows folders as listings and cannot fetch its search
  // index: say so, and how to get a copy that works from disk.
  function explainFileUrl() {
    var html = document.documentElement;
    if (location.protocol !== "file:" || html.getAttribute("data-offline") === "true") return;
    var note = document.createElement("div");
    note.className = "file-note";
    note.setAttribute("role", "note");
    note.innerHTML =
      "<strong>This is the hosted build, opened from disk.</strong> Links that end in a folder " +
      "and the search need a web server. Serve this folder (for example " +
      "<code>python3 -m http.server</code> in it), or build a copy for disk with " +
      "<code>errbook build --offline</code>.";
    var main = document.querySelector("main") || document.body;
    main.insertBefore(note, main.firstChild);
    var boxes = document.querySelectorAll("input[type=search], textarea.search-input");
    for (var i = 0; i < boxes.length; i++) {
      boxes[i].setAttribute("placeholder", "Search needs a web server or an --offline build");
    }
  }
  ready(explainFileUrl);
  // The copy buttons (each code block's, the error message's) are made here, not written into
  // every page: they only work with scripts, and they are the same on every page.
  function copyButton(className, label) {
    var btn = document.createElement("button");
    btn.type = "button";
    btn.className = className;
    btn.setAttribute("aria-label", label);
    btn.textContent = "Copy";
    return btn;
  }
  function addCopyButtons() {
    var wraps = document.querySelectorAll(".code-wrap");
    for (var i = 0; i < wraps.length; i++) {
      if (wraps[i].querySelector("button.copy")) continue;
      wraps[i].insertBefore(copyButton("copy", "Copy code"), wraps[i].firstChild);
    }
    var box = document.querySelector(".message-box");
    if (box && document.getElementById("message") && !box.querySelector("button.copy")) {
      var btn = copyButton("copy copy-message", "Copy the error message");
      btn.setAttribute("data-copy", "#message");
      box.appendChild(btn);
    }
  }
  ready(addCopyButtons);
  // The search's scripts, in this order, once the page is parsed (where `defer` ran them): made
  // here, not three tags on every page. Those a page names itself (a theme's own base.html) are
  // not loaded twice.
  function loadSearch() {
    var root = document.documentElement.getAttribute("data-root") || "";
    ["search-index.js", "search-rank.js", "search.js"].forEach(function (name) {
      if (document.querySelector("script[src$='theme/" + name + "']")) return;
      var s = document.createElement("script");
      s.src = root + "theme/" + name;
      s.async = false;
      document.body.appendChild(s);
    });
  }
  ready(loadSearch);
  function copy(text, btn) {
    var done = function () {
      btn.classList.add("done");
      btn.textContent = "Copied";
      setTimeout(function () { btn.classList.remove("done"); btn.textContent = "Copy"; }, 1500);
    };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { fallback(text); done(); });
    } else {
      fallback(text);
      done();
    }
  }
  function fallback(text) {
    var t = document.createElement("textarea");
    t.value = text;
    t.setAttribute("readonly", "");
    t.style.position = "absolute";
    t.style.left = "-9999px";
    document.body.appendChild(t);
    t.select();
    try { document.execCommand("copy"); } catch (e) { /* nothing to do */ }
    document.body.removeChild(t);
  }
  document.addEventListener("click", function (ev) {
    var btn = ev.target.closest ? ev.target.closest("button.copy") : null;
    if (!btn) return;
    var sel = btn.getAttribute("data-copy");
    var src = sel ? document.querySelector(sel) : btn.parentNode.querySelector("pre code");
    if (src) copy(src.textContent.replace(/\s+$/, ""), btn);
  });
})();

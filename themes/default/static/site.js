// errbook: copy buttons for code blocks and the error message, and a note when a hosted build is
// opened from disk. No network, no modules.
(function () {
  "use strict";
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
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", explainFileUrl);
  else explainFileUrl();
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

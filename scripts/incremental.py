#!/usr/bin/env python3
"""Incremental figures for scripts/bench.sh: run `errbook serve` on a catalog, make each kind of
edit several times, and time each edit until serve answers the edited page with the new text, and
until serve's whole update is done (its `built: N pages in M ms` line).

usage: incremental.py ERRBOOK ROOT [EDITS] [KINDS]
KINDS: comma-separated, of "entry-text" (a sentence added to an entry's Root Cause),
"entry-message" (the entry's message, its `# ` line, changed: lists, related entries and the
articles that quote it follow), "article-text" (a sentence added to an article). Default: all
three, entry-text first.
prints, one line per kind, the first as bench.sh reads it:
  "<median> ms (edit -> page served, median of N edits; min..max; the whole update ... M ms)"
With RUST_LOG in the environment (RUST_LOG=errbook=info: errbook's stages), also each stage's
median over the kind's updates: serve then prints each span's time as it closes (tracing's
`close time.busy=...` lines, before its `built:` line), the stage named by its spans
(`snapshot:link:link.articles`); they go to stderr as they come, too. (`--debug` would show the
script's own requests as well.)
"""
import os, re, socket, statistics, subprocess, sys, threading, time, urllib.request

errbook, root = sys.argv[1], sys.argv[2]
edits = int(sys.argv[3]) if len(sys.argv) > 3 else 7
kinds = (sys.argv[4] if len(sys.argv) > 4 else "entry-text,entry-message,article-text").split(",")

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]


def md_files(sub):
    top = os.path.join(root, "content", sub)
    return sorted(
        os.path.join(dp, f) for dp, _, fs in os.walk(top) for f in fs if f.endswith(".md")
    )


entries, articles = md_files("errors"), md_files("articles")


def entry_page(src):
    rel = os.path.relpath(src, os.path.join(root, "content", "errors"))[:-3]
    domain, slug = rel.split(os.sep)
    return f"errors/{domain}/{slug}/"


def article_page(src):
    text = open(src, encoding="utf-8").read()
    m = re.search(r'^id:\s*"?([^"\n]+)"?\s*$', text, re.M)
    slug = m[1].strip() if m else os.path.basename(src)[:-3]
    return f"articles/{slug}/"


def entry_text(text, token):
    return text.replace("## Root Cause\n\n", f"## Root Cause\n\nEdited ({token}). ", 1)


def entry_message(text, token):
    return re.sub(r"^(# .*?)\s*$", lambda m: f"{m[1]} ({token})", text, count=1, flags=re.M)


def article_text(text, token):
    # After the front matter: the first paragraph of the body.
    end = text.find("\n---\n", 4)
    if end < 0:
        return text + f"\n\nEdited ({token}).\n"
    end += len("\n---\n")
    return text[:end] + f"Edited ({token}).\n\n" + text[end:]


# Each kind: the file it edits (the middle one of its kind), its page, how it edits.
KINDS = {
    "entry-text": lambda: (entries[len(entries) // 2], entry_page, entry_text),
    "entry-message": lambda: (entries[len(entries) // 3], entry_page, entry_message),
    "article-text": lambda: (articles[len(articles) // 2], article_page, article_text),
}
for k in kinds:
    if k not in KINDS:
        sys.exit(f"unknown kind {k!r}: one of {', '.join(KINDS)}")

proc = subprocess.Popen(
    [errbook, "--root", root, "serve", "-p", str(port)],
    stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True, encoding="utf-8", errors="replace",
)
# `built` holds each update's whole time; `stages` each update's span-close lines (they come
# before its `built:` line).
lines, ready, built, stages, current = [], threading.Event(), [], [], []
# `2026-12-07T18:06:40.378279Z  INFO snapshot{changed=1}:link:link.articles: errbook_link: close
# time.busy=828µs time.idle=7.04µs`: the spans (their fields left out), the time running.
CLOSE = re.compile(r"^\S+\s+[A-Z]+\s+(.*?): [\w:]+: close time\.busy=([\d.]+)(ns|µs|ms|s)\b")
MS = {"ns": 1e-6, "µs": 1e-3, "ms": 1.0, "s": 1e3}


def closed(line):
    """(stage, ms) of a span-close line, or None."""
    m = CLOSE.match(line)
    if not m:
        return None
    return re.sub(r"\{[^}]*\}", "", m[1]), float(m[2]) * MS[m[3]]


def reader():
    for line in proc.stderr:
        lines.append(line)
        sys.stderr.write(line)
        if line.startswith("serving "):
            ready.set()
        t = closed(line)
        if t and ready.is_set():
            current.append(t)
        m = re.search(r"built: \d+ pages in (\d+) ms", line)
        if m and ready.is_set():
            built.append(int(m.group(1)))
            stages.append(list(current))
            current.clear()
threading.Thread(target=reader, daemon=True).start()


def run_kind(kind):
    src, page_of, change = KINDS[kind]()
    page = page_of(src)
    original = open(src, encoding="utf-8").read()
    times, first = [], len(built)
    try:
        for i in range(edits):
            token = f"benchmark-edit-{i}-{time.time_ns()}"
            text = change(original, token)
            if text == original:
                sys.exit(f"{kind}: {src} has nothing to edit")
            before = len(built)
            with open(src, "w", encoding="utf-8") as f:
                f.write(text)
            t0 = time.perf_counter()
            deadline = t0 + 30
            while True:
                try:
                    url = f"http://127.0.0.1:{port}/{page}"
                    if token in urllib.request.urlopen(url).read().decode("utf-8", "replace"):
                        break
                except OSError:
                    pass
                if time.perf_counter() > deadline:
                    sys.exit(f"{kind} edit {i}: {page} never showed the edit")
                time.sleep(0.001)
            times.append((time.perf_counter() - t0) * 1000)
            # Let serve finish and settle before the next edit.
            end = time.perf_counter() + 5
            while len(built) == before and time.perf_counter() < end:
                time.sleep(0.01)
            time.sleep(0.3)
    finally:
        with open(src, "w", encoding="utf-8") as f:
            f.write(original)
        # The file put back is an update too: waited for, and not counted.
        end = time.perf_counter() + 10
        n = len(built)
        while len(built) == n and time.perf_counter() < end:
            time.sleep(0.01)
        time.sleep(0.3)
    whole, ups = built[first:first + edits], stages[first:first + edits]
    own = (f"; the whole update (graph, pages linking to it, lists, search index) done in "
           f"{statistics.median(whole):.0f} ms" if whole else "")
    label = "" if kind == "entry-text" else f"{kind}: "
    out = [
        f"{label}{statistics.median(times):.0f} ms (edit -> page served, median of {len(times)} "
        f"edits; {min(times):.0f}..{max(times):.0f} ms{own})"
    ]
    if whole:
        out[0] += f" [whole updates: {', '.join(str(w) for w in whole)}]"
    # Each stage's median over the updates that noted it, in the order they first came.
    order, by = [], {}
    for up in ups:
        for name, ms in up:
            if name not in by:
                order.append(name)
                by[name] = []
            by[name].append(ms)
    for name in order:
        v = by[name]
        out.append(f"  {kind} {name}: {statistics.median(v):.1f} ms ({min(v):.1f}..{max(v):.1f}, n={len(v)})")
    return out


try:
    if not ready.wait(600):
        sys.exit("serve did not start")
    time.sleep(1.0)
    report = []
    for kind in kinds:
        report.extend(run_kind(kind))
finally:
    proc.terminate()
    proc.wait(10)
print("\n".join(report))

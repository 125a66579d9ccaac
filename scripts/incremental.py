#!/usr/bin/env python3
"""Incremental figure for scripts/bench.sh: run `errbook serve` on a catalog, edit one entry
several times, and time each edit until the entry's page on disk holds the new text.

usage: incremental.py ERRBOOK ROOT [EDITS]
prints: "<median> ms (edit -> page written, median of N edits; min..max; the whole update ... M ms)"
"""
import os, re, socket, statistics, subprocess, sys, threading, time

errbook, root = sys.argv[1], sys.argv[2]
edits = int(sys.argv[3]) if len(sys.argv) > 3 else 7

with socket.socket() as s:
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]

entries = sorted(
    os.path.join(dp, f)
    for dp, _, fs in os.walk(os.path.join(root, "content", "errors"))
    for f in fs
    if f.endswith(".md")
)
src = entries[len(entries) // 2]
domain, slug = os.path.relpath(src, os.path.join(root, "content", "errors"))[:-3].split(os.sep)
page = os.path.join(root, "book", "errors", domain, slug, "index.html")
original = open(src, encoding="utf-8").read()

proc = subprocess.Popen(
    [errbook, "--root", root, "serve", "-p", str(port)],
    stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
)
lines, ready, built = [], threading.Event(), []
def reader():
    for line in proc.stderr:
        lines.append(line)
        sys.stderr.write(line)
        if "serving" in line:
            ready.set()
        m = re.search(r"built: \d+ pages in (\d+) ms", line)
        if m and ready.is_set():
            built.append(int(m.group(1)))
threading.Thread(target=reader, daemon=True).start()
try:
    if not ready.wait(600):
        sys.exit("serve did not start")
    time.sleep(1.0)
    times = []
    for i in range(edits):
        token = f"benchmark-edit-{i}-{time.time_ns()}"
        text = original.replace("## Root Cause\n\n", f"## Root Cause\n\nEdited ({token}). ", 1)
        before = len(built)
        with open(src, "w", encoding="utf-8") as f:
            f.write(text)
        t0 = time.perf_counter()
        deadline = t0 + 30
        while True:
            try:
                with open(page, encoding="utf-8") as f:
                    if token in f.read():
                        break
            except FileNotFoundError:
                pass
            if time.perf_counter() > deadline:
                sys.exit(f"edit {i}: {page} never showed the edit")
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
    time.sleep(0.5)
    proc.terminate()
    proc.wait(10)

own = (f"; the whole update (graph, pages linking to it, lists, search index) done in "
       f"{statistics.median(built):.0f} ms" if built else "")
print(
    f"{statistics.median(times):.0f} ms (edit -> page written, median of {len(times)} edits; "
    f"{min(times):.0f}..{max(times):.0f} ms{own})"
)

#!/usr/bin/env python3
"""`errbook serve`'s edit-to-served-page latency without a browser: the time from writing an
entry's file to the moment `serve` answers that page with the edit in it (watch, rebuild of the
page, HTTP), polled every 2 ms; then the time until serve has written everything the edit
affects ("built:"). The browser's part (one request and a DOM swap) is what
scripts/bench-serve.mjs adds. Prints figures; asserts nothing.

    python3 scripts/bench-serve-http.py ERRBOOK SITE [RUNS]
"""
import os, re, shutil, socket, statistics, subprocess, sys, tempfile, threading, time, urllib.request

errbook, site = sys.argv[1], sys.argv[2]
runs = int(sys.argv[3]) if len(sys.argv) > 3 else 20
errors = os.path.join(site, "content", "errors")
domain = sorted(os.listdir(errors))[0]
name = sorted(f for f in os.listdir(os.path.join(errors, domain)) if f.endswith(".md"))[0]
entry = os.path.join(errors, domain, name)
entries = sum(len(os.listdir(os.path.join(errors, d))) for d in os.listdir(errors))
original = open(entry, encoding="utf-8").read()

s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
proc = subprocess.Popen([errbook, "--root", site, "serve", "-p", str(port)], stderr=subprocess.PIPE, text=True)
log, lock = [], threading.Lock()
def read():
    for line in proc.stderr:
        with lock: log.append(line)
threading.Thread(target=read, daemon=True).start()
def count(pat):
    with lock: return sum(1 for l in log if l.startswith(pat))
while not count("serving"):
    if proc.poll() is not None: sys.exit("serve exited:\n" + "".join(log))
    time.sleep(0.05)
url = f"http://127.0.0.1:{port}/errors/{domain}/{name[:-3]}/"
visible, settled = [], []
try:
    for i in range(runs + 2):
        mark = f"BENCH-MARK-{i}-{time.time_ns()}"
        before = count("built:")
        t0 = time.perf_counter()
        with open(entry, "w", encoding="utf-8") as f:
            f.write(original.replace("## Root Cause\n\n", f"## Root Cause\n\n{mark} ", 1))
        while mark not in urllib.request.urlopen(url).read().decode("utf-8", "replace"):
            if time.perf_counter() - t0 > 120: sys.exit("the edit never showed:\n" + "".join(log[-20:]))
            time.sleep(0.002)
        seen = time.perf_counter() - t0
        while count("built:") == before:
            time.sleep(0.002)
        if i >= 2:
            visible.append(seen * 1000); settled.append((time.perf_counter() - t0) * 1000)
        time.sleep(0.3)
finally:
    with open(entry, "w", encoding="utf-8") as f: f.write(original)
    proc.terminate(); proc.wait()
def fig(xs):
    xs = sorted(xs); q = lambda p: xs[min(len(xs) - 1, int(p * len(xs)))]
    return f"median {statistics.median(xs):.0f} ms, p90 {q(0.9):.0f} ms, max {xs[-1]:.0f} ms"
print(f"{site} ({entries} entries), {len(visible)} edits, {os.cpu_count()} CPUs:")
print(f"  edit to page served:        {fig(visible)}")
print(f"  edit to everything written: {fig(settled)}")

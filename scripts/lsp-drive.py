#!/usr/bin/env python3
"""Drive `errbook lsp` over stdio: the benchmark of bench/lsp/README.md.

    python3 scripts/lsp-drive.py BINARY ROOT [EDITS]

Starts the server on the catalog ROOT, opens its first entry, and measures: start to the first
diagnostics of that file (its own, parsed alone) and to the first check of the whole catalog;
then EDITS edits (default 100), each typing one character at the end of the entry's title,
timed from the change sent to its diagnostics (the file's own, then the whole catalog's); and
the server's peak memory (VmHWM). Prints the figures.
"""
import json, os, subprocess, sys, time, glob, statistics

def main():
    binary, root = sys.argv[1], os.path.abspath(sys.argv[2])
    edits = int(sys.argv[3]) if len(sys.argv) > 3 else 100
    entry = sorted(glob.glob(os.path.join(root, "content/errors/*/*.md")))[0]
    uri = "file://" + entry
    text = open(entry, encoding="utf-8").read()
    t0 = time.monotonic()
    p = subprocess.Popen([binary, "--root", root, "lsp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    def send(msg):
        body = json.dumps(msg).encode()
        p.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        p.stdin.flush()
    def recv():
        n = 0
        while True:
            line = p.stdout.readline()
            if not line:
                raise SystemExit("server closed")
            line = line.strip()
            if not line:
                break
            if line.lower().startswith(b"content-length:"):
                n = int(line.split(b":")[1])
        return json.loads(p.stdout.read(n))
    def wait_for(pred):
        while True:
            m = recv()
            if pred(m):
                return m
    send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"capabilities": {}, "rootUri": "file://" + root, "workspaceFolders": [{"uri": "file://" + root, "name": "c"}]}})
    wait_for(lambda m: m.get("id") == 1)
    send({"jsonrpc": "2.0", "method": "initialized", "params": {}})
    send({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": {"uri": uri, "languageId": "markdown", "version": 1, "text": text}}})
    def diag_of(version):
        return lambda m: m.get("method") == "textDocument/publishDiagnostics" and m["params"]["uri"] == uri and m["params"].get("version") == version
    wait_for(diag_of(1))
    first_own = time.monotonic() - t0
    # The whole check: the second publish of version 1, or any publish for another file.
    wait_for(lambda m: m.get("method") == "textDocument/publishDiagnostics")
    first_full = time.monotonic() - t0
    time.sleep(3)  # let the first check settle
    own, full = [], []
    title_end = text.index("\n")
    for i in range(edits):
        v = i + 2
        text = text[:title_end] + "x" + text[title_end:]
        title_end += 1
        s = time.monotonic()
        send({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": {"textDocument": {"uri": uri, "version": v}, "contentChanges": [{"text": text}]}})
        wait_for(diag_of(v))
        own.append((time.monotonic() - s) * 1000)
        wait_for(diag_of(v))
        full.append((time.monotonic() - s) * 1000)
    hwm = 0
    for line in open(f"/proc/{p.pid}/status"):
        if line.startswith("VmHWM"):
            hwm = int(line.split()[1]) // 1024
    send({"jsonrpc": "2.0", "id": 2, "method": "shutdown"})
    wait_for(lambda m: m.get("id") == 2)
    send({"jsonrpc": "2.0", "method": "exit"})
    p.wait(timeout=10)
    def q(xs, f):
        xs = sorted(xs)
        return xs[min(len(xs) - 1, int(round(f * (len(xs) - 1))))]
    print(f"start to first diagnostics (the file's own): {first_own*1000:.0f} ms")
    print(f"start to first whole-catalog diagnostics:    {first_full*1000:.0f} ms")
    print(f"keystroke to the file's own diagnostics:     median {statistics.median(own):.1f} ms, p95 {q(own, .95):.1f} ms ({edits} edits)")
    print(f"keystroke to whole-catalog diagnostics:      median {statistics.median(full):.1f} ms, p95 {q(full, .95):.1f} ms")
    print(f"peak memory (VmHWM): {hwm} MiB")

main()

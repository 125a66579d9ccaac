#!/usr/bin/env python3
"""Time `errbook check` (and `build`) on hostile content files, each at two sizes, to show that
every path is linear and bounded: the time of the larger size should be about 4x the smaller,
never 16x, and memory should stay far below 1 GB.

    cargo build --release
    python3 scripts/hostile.py                    # target/release/errbook, sizes 4,000 and 16,000
    ERRBOOK_BIN=target/debug/errbook python3 scripts/hostile.py 1000 4000

Each case is one entry or article written as an attacker (or a runaway generator) would: 16,000
unknown or repeated `##` sections, code blocks whose `after=` names nothing, thousands of
workarounds or table rows, a 1 MB line with an error at its end, a YAML alias bomb, deep
nesting, thousands of unknown front matter keys, thousands of broken content links, emphasis and
bracket runs. The figures are printed as a table (seconds, peak memory, diagnostics); a ratio
over 6 for 4x the input is marked SUPERLINEAR.
"""

import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile
import time

REPO = pathlib.Path(__file__).resolve().parent.parent
BIN = os.environ.get("ERRBOOK_BIN", str(REPO / "target/release/errbook"))

HEAD = """# RuntimeError: something failed

- **ID:** `demo/x`
- **Domain:** demo
- **Category:** config_error
- **Error Code:** `E1`
- **Verification:** human
- **Fix Rate:** 50%

"""
ROOT = "## Root Cause\nx\n\n"
ONE_FIX = "## Workarounds\n1. **Do it** (50% success)\n\n"
ART = '---\ntitle: "A"\ndate: "2025-01-01"\nid: a\n---\n'


def cases(n):
    yield "unknown sections", "entry", HEAD + ROOT + ONE_FIX + "".join(f"## Unknown {i}\ntext\n\n" for i in range(n))
    yield "repeated sections", "entry", HEAD + ROOT + ONE_FIX + "## Notes\ntext\n\n" * n
    yield "after= to nothing", "entry", HEAD + ROOT + ONE_FIX + "## Notes\n" + "".join(f"```python run after=none{i}\nx\n```\n" for i in range(n))
    yield "workarounds with code", "entry", HEAD + ROOT + "## Workarounds\n" + "".join(f"{i + 1}. **Fix {i}** (50% success)\n   ```python\n   x = {i}\n   ```\n" for i in range(n))
    yield "version table rows", "entry", HEAD + ROOT + "## Version Compatibility\n| Version | Status | Introduced | Deprecated |\n|---|---|---|---|\n" + "".join(f"| v{i} | active | x | y |\n" for i in range(n)) + "\n" + ONE_FIX
    yield "bad percentages", "entry", HEAD + ROOT + "## Workarounds\n" + "".join(f"{i + 1}. **Fix {i}** ({i + 101}% success)\n" for i in range(n))
    yield "1 MB line, error at its end", "entry", HEAD.replace("- **Fix Rate:** 50%", "- **Fix Rate:** " + "x" * (n * 60)) + ROOT + ONE_FIX
    yield "code blocks in an article", "article", ART + "".join(f"```python\nprint({i})\n```\n\n" for i in range(n))
    yield "broken content links", "article", ART + "".join(f"[x{i}](@/errors/demo/none{i}.md) " for i in range(n))
    yield "unknown front matter keys", "article", ART.replace("id: a\n", "id: a\n" + "".join(f"k{i}: v\n" for i in range(min(n, 6000))))
    yield "emphasis runs", "article", ART + ("*a **b " * n) + "\n"
    yield "bracket runs", "article", ART + ("[a](" * n) + "\n"
    yield "nested quotes and lists", "article", ART + "".join("> " * (i % 50) + "- x\n" for i in range(n))
    bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n" + "".join(
        f"{c}: &{c} [{', '.join(['*' + p] * 10)}]\n" for p, c in zip("abcdefghi", "bcdefghij")
    )
    yield "YAML alias bomb", "article", ART.replace("id: a\n", "id: a\n" + bomb)
    yield "YAML nesting", "article", ART.replace("id: a\n", "id: a\nx: " + "[" * min(n, 60000) + "\n")


def run(args, root):
    t0 = time.perf_counter()
    p = subprocess.run(
        ["/usr/bin/time", "-f", "%M", BIN, "--root", str(root)] + args,
        capture_output=True,
        text=True,
        timeout=600,
    )
    secs = time.perf_counter() - t0
    lines = p.stderr.strip().splitlines()
    peak_kb = int(lines[-1]) if lines and lines[-1].isdigit() else 0
    diags = len(re.findall(r"^(error|warning)\[", p.stderr, re.M))
    return secs, peak_kb / 1024, diags


def main():
    sizes = [int(a) for a in sys.argv[1:]] or [4000, 16000]
    print(f"errbook: {BIN}")
    print(f"{'case':30} {'n':>7} {'bytes':>9} {'check s':>8} {'peak MB':>8} {'diags':>6}   ratio")
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        shutil.copytree(REPO / "themes", tmp / "themes")
        (tmp / "book.toml").write_text("")
        prev = {}
        for n in sizes:
            for name, kind, text in cases(n):
                content = tmp / "content"
                shutil.rmtree(content, ignore_errors=True)
                path = content / ("errors/demo/x.md" if kind == "entry" else "articles/a.md")
                path.parent.mkdir(parents=True)
                path.write_text(text)
                secs, peak, diags = run(["check"], tmp)
                ratio = ""
                if name in prev and prev[name] > 0.05:
                    r = secs / prev[name]
                    ratio = f"{r:5.1f}x" + ("  SUPERLINEAR" if r > 6 * (n / sizes[0]) / 4 else "")
                prev[name] = secs
                print(f"{name:30} {n:7} {len(text):9} {secs:8.2f} {peak:8.1f} {diags:6}   {ratio}")


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Run a page's examples and compare what they print, byte for byte.

A fenced block is an example when the line before its fence is one of:

  <!-- example: file NAME -->   the block's text is the file NAME
  <!-- example: run -->         a shell script; it must exit 0 (output not shown)
  <!-- example: transcript -->  `$ command` lines (`> ` continues one), each
                                followed by exactly what it prints, stdout
                                and stderr together

Every example of the page runs in one scratch directory, files first, then
the scripts and transcripts in page order, so later examples use what
earlier ones made. OTIMAGE (and any other program named by --bin NAME=PATH)
is found on PATH under its own name. Prints one line per example and
"N passed, N failed"; exits 1 when one failed.

  scripts/doc-examples.py --bin otimage=build/otimage docs/otimage.md
"""
import argparse
import difflib
import os
import re
import subprocess
import sys
import tempfile

MARK = re.compile(r"^<!-- example: (file (\S+)|run|transcript) -->$")


def examples(path):
    """(line, kind, name, text) for every marked block, in page order."""
    lines = open(path).read().split("\n")
    out = []
    i = 0
    while i < len(lines):
        m = MARK.match(lines[i])
        if not m:
            i += 1
            continue
        if i + 1 >= len(lines) or not lines[i + 1].startswith("```"):
            sys.exit(f"{path}:{i + 1}: an example mark not followed by a fenced block")
        end = i + 2
        while end < len(lines) and lines[end] != "```":
            end += 1
        if end == len(lines):
            sys.exit(f"{path}:{i + 2}: the example's block is not closed")
        kind = "file" if m.group(2) else m.group(1)
        out.append((i + 2, kind, m.group(2), "\n".join(lines[i + 2:end]) + "\n"))
        i = end + 1
    return out


def transcript(text):
    """The commands of a transcript and what they print, in order."""
    commands, expected = [], ""
    for line in text.split("\n")[:-1]:
        if line.startswith("$ "):
            commands.append(line[2:])
        elif line.startswith("> ") and commands and commands[-1].endswith("\\"):
            commands[-1] += "\n" + line[2:]
        elif not commands:
            sys.exit(f"transcript output before any command: {line!r}")
        else:
            expected += line + "\n"
    return commands, expected


def shell(script, cwd, env):
    p = subprocess.run(["bash", "-c", script], cwd=cwd, env=env, stdout=subprocess.PIPE,
                       stderr=subprocess.STDOUT)
    return p.returncode, p.stdout.decode("utf-8", "replace")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--bin", action="append", default=[], metavar="NAME=PATH")
    ap.add_argument("page")
    a = ap.parse_args()
    found = examples(a.page)
    if not found:
        sys.exit(f"{a.page}: no examples")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as work:
        bindir = os.path.join(work, ".bin")
        os.mkdir(bindir)
        for spec in a.bin:
            name, _, target = spec.partition("=")
            os.symlink(os.path.abspath(target), os.path.join(bindir, name))
        env = dict(os.environ, PATH=bindir + os.pathsep + os.environ["PATH"], LC_ALL="C")
        for line, kind, name, text in found:
            if kind == "file":
                with open(os.path.join(work, name), "w") as f:
                    f.write(text)
        for line, kind, name, text in found:
            where = f"{a.page}:{line}"
            if kind == "file":
                continue
            if kind == "run":
                rc, got = shell("set -eo pipefail\n" + text, work, env)
                ok = rc == 0
                why = f"exit {rc}:\n{got}"
            else:
                commands, want = transcript(text)
                rc, got = shell("\n".join(commands) + "\n", work, env)
                ok = got == want
                why = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True),
                                                   "page", "otimage"))
            if ok:
                passed += 1
                print(f"ok   {where}: {kind}")
            else:
                failed += 1
                print(f"FAIL {where}: {kind}")
                print("".join("     " + l for l in why.splitlines(True)), end="")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

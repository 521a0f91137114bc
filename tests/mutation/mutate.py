#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Mutation tests of the security-critical lines (issue 28, item 7).

Each mutation in tests/mutation/mutations.txt is a small named change of
one security line - a salt left out of the tag key, a floor check skipped,
a lock not taken. For each one this compiles the mutated copy of its
source file (the build's own compile line, from `make -n`), links each
unit test binary the mutation names with that object in front of the
project's archives (so it replaces the original), and runs them in order:
the mutation is KILLED when one of them fails, SURVIVED when all pass.
A surviving mutation is a security line no test holds, and fails the run.

Before any mutant runs, the unmutated binaries run with the same case
filter and must pass: a test that fails anyway would kill everything.
A mutation whose original text is not in its file exactly once is STALE
and fails the run too: the line moved, and the list must follow it.

  tests/mutation/mutate.py            every mutation (make mutate)
  tests/mutation/mutate.py --fast     the ones marked fast (make test)
  tests/mutation/mutate.py NAME...    the ones named
  tests/mutation/mutate.py --list     names, files and tests
  --markdown                          the result table as docs/mutation.md shows it
  --tests BIN[:CASE]...               these tests instead of each mutation's own
  --no-baseline                       skip the unmutated run (it just passed)

Prints one line per mutation and "N passed, N failed" (a kill is a pass).
"""
import argparse
import os
import re
import shlex
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
LIST = os.path.join(HERE, "mutations.txt")
TIMEOUT = 600  # seconds per test binary run; a hang counts as a kill (the test noticed)


class Mutation:
    def __init__(self, name, line):
        self.name = name
        self.line = line
        self.why = ""
        self.file = None
        self.tests = []  # (binary, tcase or None)
        self.fast = False
        self.hunks = []  # (original, replacement)


def parse(path):
    """The list: blocks of '== name', key: value lines, then @@ hunks of -/+ lines."""
    muts, cur, hunk = [], None, None
    with open(path, encoding="utf-8") as f:
        for n, raw in enumerate(f, 1):
            line = raw.rstrip("\n")
            where = f"{path}:{n}"
            if line.startswith("== "):
                cur = Mutation(line[3:].strip(), n)
                if any(m.name == cur.name for m in muts):
                    sys.exit(f"{where}: mutation {cur.name} named twice")
                muts.append(cur)
                hunk = None
            elif cur is None or not line.strip() or line.startswith("#"):
                continue
            elif line == "@@":
                hunk = [[], []]
                cur.hunks.append(hunk)
            elif hunk is not None and line[:1] in "-+":
                hunk[0 if line[0] == "-" else 1].append(line[1:])
            elif hunk is None and ":" in line:
                key, val = (s.strip() for s in line.split(":", 1))
                if key == "why":
                    cur.why = val
                elif key == "file":
                    cur.file = val
                elif key == "tests":
                    for t in val.split():
                        b, _, c = t.partition(":")
                        cur.tests.append((b, c or None))
                elif key == "fast":
                    cur.fast = val == "yes"
                else:
                    sys.exit(f"{where}: unknown key {key}")
            else:
                sys.exit(f"{where}: cannot read this line")
    for m in muts:
        if not (m.file and m.tests and m.hunks and all(h[0] for h in m.hunks)):
            sys.exit(f"{path}:{m.line}: {m.name} needs file, tests and @@ hunks with - lines")
    return muts


def mutated_text(m):
    """The file with every hunk applied, or None when a hunk's text is not there exactly once."""
    with open(os.path.join(ROOT, m.file), encoding="utf-8") as f:
        text = f.read()
    for old, new in m.hunks:
        o, r = "\n".join(old) + "\n", "\n".join(new) + ("\n" if new else "")
        if text.count(o) != 1:
            return None
        text = text.replace(o, r)
    return text


def make_env():
    """The environment for a make of our own: not the jobserver of a make that runs us."""
    return {k: v for k, v in os.environ.items() if k not in ("MAKEFLAGS", "MFLAGS", "MAKELEVEL")}


def make_dry(b, target, newer):
    """The command make would run for target when newer changed (the build's own flags)."""
    out = subprocess.run(["make", "-s", "-n", f"B={b}", "-W", newer, target], cwd=ROOT,
                         env=make_env(), capture_output=True, text=True, check=True).stdout
    for line in out.replace("\\\n", " ").splitlines():
        try:
            words = shlex.split(line)
        except ValueError:
            continue  # another recipe's shell, not a compiler line
        if "-o" in words and words[words.index("-o") + 1] == target:
            return words
    sys.exit(f"make -n gave no command for {target}:\n{out}")


_compile_cache = {}


def compile_mutant(b, m, text, outdir):
    src = os.path.join(outdir, os.path.basename(m.file))
    obj = src[:-2] + ".o"
    with open(src, "w", encoding="utf-8") as f:
        f.write(text)
    orig_obj = f"{b}/{m.file[:-2]}.o"
    if m.file not in _compile_cache:
        _compile_cache[m.file] = make_dry(b, orig_obj, m.file)
    cmd = []
    for w in _compile_cache[m.file]:
        if w in ("-MMD", "-MP"):
            continue
        cmd.append(obj if w == orig_obj else src if w == m.file else w)
    # The copy's own directory is not its source's: look there for "" includes first.
    cmd.insert(1, "-iquote" + os.path.dirname(m.file))
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"{m.name}: the mutant does not compile (fix the list):\n{r.stderr}")
    return obj


_link_cache = {}


def defined_symbols(path):
    out = subprocess.run(["nm", "--defined-only", "-g", path], cwd=ROOT, capture_output=True,
                         text=True, check=True).stdout
    return {line.split()[-1] for line in out.splitlines() if line.strip()}


def links_file(b, binary, m):
    """Whether the binary carries the mutated file at all (else the mutant cannot reach it)."""
    orig = defined_symbols(f"{b}/{m.file[:-2]}.o")
    return bool(orig & defined_symbols(f"{b}/tests/unit/{binary}"))


def link(b, binary, obj, out):
    target = f"{b}/tests/unit/{binary}"
    if not os.path.exists(os.path.join(ROOT, f"{target}.o")):
        # make drops a test binary's object as an intermediate file: build it again.
        subprocess.run(["make", "-s", f"B={b}", f"{target}.o"], cwd=ROOT, env=make_env(),
                       check=True)
    if binary not in _link_cache:
        _link_cache[binary] = make_dry(b, target, f"{target}.o")
    cmd = []
    for w in _link_cache[binary]:
        cmd.append(out if w == target else w)
        if w == f"{target}.o":
            cmd.append(obj)  # before the archives: its symbols win
    r = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"linking {out} failed:\n{r.stderr}")


def run(path, tcase, log):
    env = dict(os.environ, CK_FORK="yes")
    env.pop("CK_RUN_SUITE", None)
    if tcase:
        env["CK_RUN_CASE"] = tcase
    else:
        env.pop("CK_RUN_CASE", None)
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"== {path} {tcase or ''}\n")
        f.flush()
        try:
            r = subprocess.run([path], cwd=ROOT, env=env, stdout=f, stderr=subprocess.STDOUT,
                               timeout=TIMEOUT)
        except subprocess.TimeoutExpired:
            return "timeout"
    return "pass" if r.returncode == 0 else "fail"


def failing_tests(log):
    """check's failure lines, test names only, for the report."""
    names = []
    with open(log, encoding="utf-8", errors="replace") as f:
        for line in f:
            mm = re.match(r"^[^:]+:\d+:[EF]:[^:]*:([^:]+):", line)
            if mm and mm.group(1) not in names:
                names.append(mm.group(1))
    return names


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("names", nargs="*")
    ap.add_argument("--fast", action="store_true")
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--build", default=os.environ.get("B", "build"))
    ap.add_argument("--no-baseline", action="store_true",
                    help="skip the unmutated run (when it just passed)")
    ap.add_argument("--tests", nargs="+", metavar="BIN[:CASE]",
                    help="run these tests against every selected mutation instead of its own")
    a = ap.parse_args()

    muts = parse(LIST)
    if a.names:
        unknown = set(a.names) - {m.name for m in muts}
        if unknown:
            sys.exit(f"no such mutation: {' '.join(sorted(unknown))}")
        muts = [m for m in muts if m.name in a.names]
    if a.fast:
        muts = [m for m in muts if m.fast]
    if a.tests:
        for m in muts:
            m.tests = [(t.partition(":")[0], t.partition(":")[2] or None) for t in a.tests]
    if a.list:
        for m in muts:
            tests = " ".join(t + (":" + c if c else "") for t, c in m.tests)
            print(f"{m.name:34} {'fast' if m.fast else '    '} {m.file:40} {tests}")
        return 0

    b = a.build
    work = os.path.join(ROOT, b, "mutation")
    os.makedirs(work, exist_ok=True)
    t0 = time.monotonic()

    # The tests as they are must pass, each binary and case once.
    base_log = os.path.join(work, "baseline.log")
    open(base_log, "w").close()
    for binary, tcase in sorted({t for m in muts for t in m.tests} if not a.no_baseline else (),
                                key=str):
        path = os.path.join(ROOT, b, "tests", "unit", binary)
        if not os.access(path, os.X_OK):
            sys.exit(f"{path} is not built (make {b}/tests/unit/{binary})")
        if run(path, tcase, base_log) != "pass":
            sys.exit(f"{binary} {tcase or ''} fails without any mutation: see {base_log}")

    rows, killed, bad = [], 0, 0
    for m in muts:
        outdir = os.path.join(work, m.name)
        os.makedirs(outdir, exist_ok=True)
        log = os.path.join(outdir, "run.log")
        open(log, "w").close()
        text = mutated_text(m)
        by, result = "", ""
        if text is None:
            result = "STALE"
        else:
            obj = compile_mutant(b, m, text, outdir)
            result = "SURVIVED"
            for binary, tcase in m.tests:
                if not links_file(b, binary, m):
                    continue  # e.g. a parser test: the file is not in it
                exe = os.path.join(outdir, binary)
                link(b, binary, obj, exe)
                outcome = run(exe, tcase, log)
                if outcome != "pass":
                    names = failing_tests(log)
                    by = f"{binary}" + (f" ({', '.join(names[:3])})" if names else f" ({outcome})")
                    result = "KILLED"
                    break
        if result == "KILLED":
            killed += 1
        else:
            bad += 1
        rows.append((m, result, by))
        print(f"{result:8} {m.name:34} {by}", flush=True)

    secs = time.monotonic() - t0
    if a.markdown:
        print()
        print("| mutation | file | what it breaks | result | killed by |")
        print("|---|---|---|---|---|")
        for m, result, by in rows:
            print(f"| `{m.name}` | `{m.file}` | {m.why} | {result} | {by} |")
    print(f"mutations: {killed} killed, {bad} not killed, {secs:.0f} s")
    print(f"{killed} passed, {bad} failed")
    return 0 if bad == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

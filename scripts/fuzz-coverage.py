#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Coverage of each fuzz target's kept corpus, on the code it is meant to reach.

usage: fuzz-coverage.py [--update-docs] TARGET...

TARGET is a fuzz target's name. Its coverage build (build/fuzz/cov/<name>:
clang -fprofile-instr-generate -fcoverage-mapping, no sanitizers) runs once
over tests/fuzz/corpus/<name>/ (libFuzzer -runs=0); llvm-profdata merges the
profile and llvm-cov export reports lines, branches, functions and regions
of the files tests/fuzz/reach.txt lists for the target. Written per target:
  build/fuzz/results/<name>.cov        key=value totals
  build/fuzz/results/<name>.uncovered  every function never entered and every
                                       region never run, by file and line
Then the table of every target (with the figures scripts/run-fuzz.sh left in
build/fuzz/results/<name>.run) is printed, and with --update-docs written
into docs/fuzzing.md between its fuzz-table markers.
"""
import glob
import json
import os
import re
import subprocess
import sys

RESULTS = "build/fuzz/results"
COV_BIN = "build/fuzz/cov"
DOC = "docs/fuzzing.md"
BEGIN, END = "<!-- fuzz-table:begin -->", "<!-- fuzz-table:end -->"


def tool(name):
    """llvm-profdata / llvm-cov of the clang that built the binaries."""
    ver = re.search(r"version (\d+)", subprocess.run(
        ["clang", "--version"], capture_output=True, text=True, check=True).stdout).group(1)
    for cand in (f"{name}-{ver}", name):
        if subprocess.run(["sh", "-c", f"command -v {cand}"], capture_output=True).returncode == 0:
            return cand
    sys.exit(f"fuzz-coverage: {name} not found (Debian's llvm package)")


def reach_table():
    table = {}
    with open("tests/fuzz/reach.txt") as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if line:
                files = []
                for g in line[1:]:
                    hits = sorted(glob.glob(g))
                    if not hits:  # moved or removed: report on the rest
                        print(f"fuzz-coverage: warning: tests/fuzz/reach.txt: {g} matches nothing")
                    files += hits
                if not files:
                    sys.exit(f"fuzz-coverage: tests/fuzz/reach.txt: nothing left for {line[0]}")
                table[line[0]] = files
    return table


def read_kv(path):
    try:
        with open(path) as f:
            return dict(l.rstrip("\n").split("=", 1) for l in f if "=" in l)
    except FileNotFoundError:
        return {}


def measure(name, files, profdata, llvm_cov):
    binary = os.path.join(COV_BIN, name)
    corpus = os.path.join("tests/fuzz/corpus", name)
    raw = os.path.join(COV_BIN, name + ".profraw")
    prof = os.path.join(COV_BIN, name + ".profdata")
    if os.path.exists(raw):
        os.remove(raw)
    env = dict(os.environ, LLVM_PROFILE_FILE=raw)
    run = subprocess.run([binary, "-runs=0", corpus], env=env, capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(raw):
        sys.stderr.write(run.stderr[-3000:])
        sys.exit(f"fuzz-coverage: {binary} failed over {corpus}")
    subprocess.run([profdata, "merge", "-sparse", raw, "-o", prof], check=True)
    exp = subprocess.run([llvm_cov, "export", "-format=text", binary, "-instr-profile=" + prof]
                         + [os.path.abspath(f) for f in files],
                         capture_output=True, text=True, check=True)
    data = json.loads(exp.stdout)["data"][0]
    wanted = {os.path.abspath(f) for f in files}
    tot = {k: [0, 0] for k in ("lines", "branches", "functions", "regions")}
    for f in data["files"]:
        if os.path.abspath(f["filename"]) not in wanted:
            continue
        for k in tot:
            tot[k][0] += f["summary"][k]["covered"]
            tot[k][1] += f["summary"][k]["count"]
    # Functions never entered, and regions never run inside the others. A
    # function from a header has one record per file that includes it:
    # its counts are summed over them, region by region.
    funcs = {}
    for fn in data["functions"]:
        path = os.path.abspath(fn["filenames"][0])
        if path not in wanted:
            continue
        # "file.c:name" for static functions: the same one in each includer.
        agg = funcs.setdefault((path, fn["name"].split(":")[-1]), {"count": 0, "line": fn["regions"][0][0],
                                                     "regions": {}})
        agg["count"] += fn["count"]
        for r in fn["regions"]:
            if r[7] == 0 and os.path.abspath(fn["filenames"][r[5]]) == path:
                key = tuple(r[0:4])
                agg["regions"][key] = agg["regions"].get(key, 0) + r[4]
    uncovered = []
    for (path, fname), agg in funcs.items():
        rel = os.path.relpath(path)
        short = fname.split(":")[-1]
        if agg["count"] == 0:
            uncovered.append((rel, agg["line"], f"{short}() never entered"))
            continue
        lines = sorted({k[0] for k, n in agg["regions"].items() if n == 0})
        if lines:
            uncovered.append((rel, lines[0], f"{short}(): lines {', '.join(map(str, lines))} never run"))
    uncovered.sort()
    with open(os.path.join(RESULTS, name + ".uncovered"), "w") as f:
        for rel, line, what in uncovered:
            f.write(f"{rel}:{line}: {what}\n")
    kv = {f"{k}_{w}": tot[k][i] for k in tot for i, w in ((0, "covered"), (1, "total"))}
    kv["uncovered_items"] = len(uncovered)
    kv["never_entered"] = ", ".join(sorted({w.split("(")[0] for _, _, w in uncovered
                                            if "never entered" in w}))
    with open(os.path.join(RESULTS, name + ".cov"), "w") as f:
        for k, v in kv.items():
            f.write(f"{k}={v}\n")
    return kv, uncovered


def pct(c, t):
    return "-" if not int(t) else f"{100.0 * int(c) / int(t):.1f}% ({c}/{t})"


def table(names):
    rows = ["| target | executions | per second | per minute | run | lines | branches "
            "| functions | corpus | never entered |",
            "|---|---:|---:|---:|---|---:|---:|---:|---:|---|"]
    dates = set()
    for n in names:
        r, c = read_kv(os.path.join(RESULTS, n + ".run")), read_kv(os.path.join(RESULTS, n + ".cov"))
        if r.get("date"):
            dates.add(r["date"])
        rate = int(r.get("exec_per_sec", 0) or 0)
        never = [x.strip() for x in c.get("never_entered", "").split(",") if x.strip()]
        if len(never) > 6:
            never = never[:6] + [f"... {len(never) - 6} more"]
        rows.append("| `{}` | {:,} | {:,} | {:,} | {} s, {}, load {} | {} | {} | {} | {} units, {} KiB | {} |".format(
            n, int(r.get("executions", 0) or 0), rate, rate * 60, r.get("seconds", "?"),
            r.get("stop", "?"), r.get("load", "?"), pct(c.get("lines_covered", 0), c.get("lines_total", 0)),
            pct(c.get("branches_covered", 0), c.get("branches_total", 0)),
            pct(c.get("functions_covered", 0), c.get("functions_total", 0)),
            r.get("corpus_units", "?"), int(r.get("corpus_bytes", 0) or 0) // 1024,
            ", ".join(never) or "none"))
    return rows, dates


def update_docs(rows, dates, plateau, maxsecs):
    with open(DOC) as f:
        text = f.read()
    if BEGIN not in text or END not in text:
        sys.exit(f"fuzz-coverage: {DOC} has no {BEGIN} ... {END}")
    body = [BEGIN,
            f"Measured {', '.join(sorted(dates)) or '?'} with `make fuzz` (plateau {plateau} s without "
            f"a new unit, bound {maxsecs} s; ASan+UBSan build; coverage from the clang "
            "coverage build over the kept corpus). The machine has 2 cores and is shared: "
            "load is its 1-minute load average when the target stopped.", ""] + rows + [END]
    head, rest = text.split(BEGIN, 1)
    text = head + "\n".join(body) + rest.split(END, 1)[1]
    with open(DOC, "w") as f:
        f.write(text)


def main():
    args = sys.argv[1:]
    docs = "--update-docs" in args
    names = [os.path.basename(a) for a in args if a != "--update-docs"]
    if not names:
        print(__doc__)
        return 2
    os.makedirs(RESULTS, exist_ok=True)
    reach = reach_table()
    profdata, llvm_cov = tool("llvm-profdata"), tool("llvm-cov")
    for n in names:
        files = reach.get(n)
        if files is None:
            sys.exit(f"fuzz-coverage: {n} is not in tests/fuzz/reach.txt")
        kv, unc = measure(n, files, profdata, llvm_cov)
        print(f"coverage {n}: lines {pct(kv['lines_covered'], kv['lines_total'])}, "
              f"branches {pct(kv['branches_covered'], kv['branches_total'])}, "
              f"functions {pct(kv['functions_covered'], kv['functions_total'])}; "
              f"{len(unc)} uncovered places (build/fuzz/results/{n}.uncovered)")
        for rel, line, what in unc[:6]:
            print(f"    {rel}:{line}: {what}")
        if len(unc) > 6:
            print(f"    ... {len(unc) - 6} more")
    rows, dates = table(names)
    print("\n".join(rows))
    if docs:
        run = read_kv(os.path.join(RESULTS, names[0] + ".run"))
        update_docs(rows, dates, run.get("plateau", "?"), run.get("max", "?"))
        print(f"fuzz-coverage: table written to {DOC}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""otimage's exit codes, from the one status list (status.h).

An otimage failure exits with its status's class code (ota_class_exit_code,
the classes' last column in OTA_CLASS_LIST), so the table of which status
exits with what is derived, never written: every status otimage can
return - those named by its own sources and by the libotattest core
sources of the checks it runs (SOURCES) - under its class's exit code.
docs/otimage.md carries the table between the markers below; `make
otimage-exits` rewrites it and tests/tools/otimage-docs.sh checks it.

  scripts/otimage-exits.py --markdown        print the table
  scripts/otimage-exits.py --write FILE      put it into FILE between the markers
  scripts/otimage-exits.py --check-doc FILE  FILE's table is the current one
"""
import argparse
import glob
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
STATUS_H = "libotattest/include/otattest/status.h"

# Where otimage's statuses come from: its own sources, and the core code
# and inline header checks it runs (parsers, the stage check, SLH-DSA).
SOURCES = [
    "libotattest/tools/otimage/*.c",
    "libotattest/src/core/manifest*.c", "libotattest/src/core/dlgc.c",
    "libotattest/src/core/deleg.c", "libotattest/src/core/usage.c",
    "libotattest/src/core/stage_*.c", "libotattest/src/core/deleg_verify.c",
    "libotattest/src/core/image_sig.c", "libotattest/src/core/otp.c",
    "libotattest/src/core/owner_config.c", "libotattest/src/core/flash_layout.c",
    "libotattest/src/core/boot_data.c", "libotattest/src/core/tag_table.c",
    "libotattest/src/core/two_copy.c", "libotattest/src/core/identity_cert.c",
    "libotattest/src/core/keys.c", "libotattest/src/core/thermometer.c",
    "libotattest/include/otattest/record.h",
]

CLASS_RE = re.compile(r'X\((\w+), (0x[0-9a-f]+), \w+, "\w+", (\d+)\)')
STATUS_RE = re.compile(r'X\((\w+), (\w+), \w+, \d+, "')

BEGIN = "<!-- exits: begin (scripts/otimage-exits.py --markdown) -->\n"
END = "<!-- exits: end -->\n"


def status_list():
    text = open(os.path.join(ROOT, STATUS_H)).read()
    classes = {name: int(code) for name, _, code in CLASS_RE.findall(text)}
    statuses = STATUS_RE.findall(text)
    if not classes or not statuses:
        sys.exit(f"{STATUS_H}: no class or status list found")
    return classes, statuses


def named_by_otimage(statuses):
    names = {name for name, _ in statuses}
    used = set()
    for pattern in SOURCES:
        paths = glob.glob(os.path.join(ROOT, pattern))
        if not paths:
            sys.exit(f"otimage-exits: {pattern} matches no file")
        for path in paths:
            used |= set(re.findall(r"\bOTA_([A-Z0-9_]+)\b", open(path).read())) & names
    return used


def label(cls):
    return {"IO": "I/O"}.get(cls, cls.lower().replace("_", " "))


def markdown():
    classes, statuses = status_list()
    used = named_by_otimage(statuses)
    rows = ["| exit | class | statuses |", "|---|---|---|",
            "| 0 | success | |",
            "| 2 | usage | none: a bad command line (unknown option, missing or conflicting options) |"]
    for cls, code in sorted(classes.items(), key=lambda kv: kv[1]):
        mine = [f"`{name}`" for name, c in statuses if c == cls and name in used]
        if mine:
            rows.append(f"| {code} | {label(cls)} | {', '.join(mine)} |")
    return "\n".join(rows) + "\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--write")
    ap.add_argument("--check-doc")
    a = ap.parse_args()
    if a.markdown:
        sys.stdout.write(markdown())
        return 0
    path = a.write or a.check_doc
    if not path:
        ap.print_usage(sys.stderr)
        return 2
    text = open(path).read()
    if BEGIN not in text or END not in text:
        print(f"{path}: no exits block", file=sys.stderr)
        return 1
    head, rest = text.split(BEGIN, 1)
    block, tail = rest.split(END, 1)
    if a.write:
        if block != markdown():
            with open(path + ".tmp", "w") as f:
                f.write(head + BEGIN + markdown() + END + tail)
            os.replace(path + ".tmp", path)
        return 0
    if block != markdown():
        print(f"{path}: the exit table is not what scripts/otimage-exits.py --markdown prints "
              "(run make otimage-exits)", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

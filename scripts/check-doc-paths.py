#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Every path the docs name exists.

Reads README.md, HACKING.md, docs/*.md and docs/man/*, takes each word
that starts with one of the tree's top-level folders (backticked or not)
and holds no pattern or placeholder, and checks it exists (a trailing
:line or punctuation is dropped). A name may be a prefix of files
(tests/unit/test_formats_) or a build product of a source
(kernel/otattest.ko from kernel/otattest.*). Prints each missing path with
the document that names it; exits 1 when there is one.

  scripts/check-doc-paths.py [ROOT]
"""
import glob
import os
import re
import sys

TOP = ("firmware/", "qemu-model/", "libotattest/", "kernel/", "daemon/", "tests/",
       "scripts/", "systemd/", "docs/", "mk/")


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    docs = [os.path.join(root, p) for p in ("README.md", "HACKING.md")]
    docs += sorted(glob.glob(os.path.join(root, "docs", "*.md")))
    docs += sorted(glob.glob(os.path.join(root, "docs", "man", "*")))
    missing = []
    for doc in docs:
        text = open(doc, encoding="utf-8").read()
        for m in re.finditer(r"(?<![\w/.-])((?:%s)[\w./-]+)" % "|".join(re.escape(t) for t in TOP), text):
            p = m.group(1).split(":")[0].rstrip(".,;)")
            if any(c in p for c in "*<>{}$[]|"):
                continue
            full = os.path.join(root, p)
            stem = full.rsplit(".", 1)[0] if "." in os.path.basename(full) else full
            if not (os.path.exists(full) or glob.glob(full + "*") or glob.glob(stem + ".*")):
                missing.append((os.path.relpath(doc, root), p))
    for doc, p in missing:
        print(f"{doc}: names {p}, which does not exist")
    print(f"check-doc-paths: {len(docs)} documents, {len(missing)} missing paths")
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())

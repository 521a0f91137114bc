# SPDX-License-Identifier: MIT
"""The one check() of the Python interop checkers: prints "ok - NAME" or
"not ok - NAME" and counts; summary() prints "N passed, N failed" and
returns the exit code. Plain Python, so any interpreter's checker can
import it (Debian's python3 and the pyenv python3.11 alike)."""
counts = {"passed": 0, "failed": 0}


def check(name, cond):
    counts["passed" if cond else "failed"] += 1
    print(("ok - " if cond else "not ok - ") + name)
    return cond


def reset():
    """Count from zero again: a caller running one checker many times."""
    counts["passed"] = counts["failed"] = 0


def summary():
    print("%d passed, %d failed" % (counts["passed"], counts["failed"]))
    return 0 if counts["failed"] == 0 else 1

#!/usr/bin/python3
"""consistency_doc.py EVIDENCE_MD < attempt_rules output

Reads docs/evidence.md's two consistency tables (between the
consistency-paths and consistency-reasons markers) and holds every line
of attempt_rules (ota_attempt_check on one combination of status, path,
path reason, TAG_BOOT usage and tag-boot flag) to them: consistent
exactly when the tables allow it. Prints one ok/not ok line per
disagreement class and "N passed, N failed".
"""
import re
import sys


def table(text, name):
    m = re.search(rf"<!-- {name}: begin -->\n(.*?)<!-- {name}: end -->", text, re.S)
    rows = [r.strip().strip("|").split("|") for r in m.group(1).strip().splitlines()]
    head = [h.strip() for h in rows[0]]
    return [dict(zip(head, (c.strip() for c in r))) for r in rows[2:]]


def words(cell):
    return [w.strip() for w in cell.split(",") if w.strip()]


def main():
    doc = open(sys.argv[1]).read()
    paths = {r["path"]: r for r in table(doc, "consistency-paths")}
    reasons = {}
    for r in table(doc, "consistency-reasons"):
        for name in words(r["path reason"]):
            reasons[name] = r
    passed = failed = 0
    for line in sys.stdin:
        status, path, reason, usage, flag, rule = line.split()
        row = paths[path]
        ok = (row["status"] == "OK") == (status == "OK") and reason in words(row["path reasons allowed"])
        why = reasons.get(reason)
        ok = ok and why is not None and why["record tag-boot flag"] in ("any", "set", "clear")
        for col, value in (("record tag-boot flag", flag), ("image TAG_BOOT usage", usage)):
            for want in (row[col], why[col] if why else "any"):
                ok = ok and want in ("any", value)
        if ok == (rule == "0"):
            passed += 1
        else:
            failed += 1
            print(f"not ok - {status} {path} {reason} usage {usage} flag {flag}: "
                  f"the doc says {'consistent' if ok else 'inconsistent'}, ota_attempt_check rule {rule}")
    print(f"ok - {passed} combinations as docs/evidence.md's tables say" if not failed else
          f"not ok - {failed} combinations differ from docs/evidence.md")
    return failed


if __name__ == "__main__":
    sys.exit(1 if main() else 0)

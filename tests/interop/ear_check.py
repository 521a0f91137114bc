#!/usr/bin/env python3.11
# SPDX-License-Identifier: MIT
"""Check otattest-verify's EAR with PyJWT (PyPI, pinned in scripts/deps.sh).

ear_check.py --pub PUB.pem --jwt EAR.jwt --verdict VERDICT.json --docs docs/verifier.md
             [--nonce HEX] [--jose JOSE.json] [--expect SUBMOD=STATUS[:claim=value,...]]...

Run by the pyenv Python 3.11 with PyJWT and cryptography; imports nothing
of otattest. It verifies the JWT (ES256 only, the verifier's public key),
then holds the claims to:
  - the EAR profile: eat_profile, iat, ear.verifier-id, eat_nonce (the
    nonce sent, base64url), submods rom_ext and bl0 each with ear.status and
    all eight AR4SI claims;
  - what docs/verifier.md says the verdict (otattest-verify --json for the
    same evidence) must give: its "Refusal reasons" table read here, and
    the appraisal rules of "Verdicts as EAR" written again here (and each
    --json failure's "ear" member is its row of that table);
  - each --expect (the case's status and tier, written by hand in ear.sh);
  - the payload npm jose decoded (--jose), which must be the same.
Prints "ok - ..." / "not ok - ..." per check; exits 1 if any failed.
"""
import argparse
import base64
import json
import re
import sys

import jwt  # PyJWT

CLAIMS = ["instance-identity", "configuration", "executables", "file-system",
          "hardware", "runtime-opaque", "storage-opaque", "sourced-data"]
AFFIRMED = {"instance-identity": 2, "configuration": 2, "executables": 3, "hardware": 2}
STAGES = ["rom_ext", "bl0"]
TIER_ORDER = ["affirming", "none", "warning", "contraindicated"]

results = []


def check(ok, what):
    results.append(bool(ok))
    print(("ok - " if ok else "not ok - ") + what)


def tier(value):
    if value >= 96:
        return "contraindicated"
    if value >= 32:
        return "warning"
    if value >= 2:
        return "affirming"
    return "none"


def worse(value, than):
    if than == 0:
        return True
    a, b = TIER_ORDER.index(tier(value)), TIER_ORDER.index(tier(than))
    return a > b if a != b else value > than


def refusal_table(docs_path):
    """reason -> (claim, value), from the table under '## Refusal reasons'."""
    text = open(docs_path, encoding="utf-8").read()
    section = text.split("## Refusal reasons", 1)[1].split("\n## ", 1)[0]
    table = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) < 4 or not cells[0].startswith("`"):
            continue
        claim = cells[1].strip("`")
        for name in re.findall(r"`([A-Z0-9_]+)`", cells[0]):
            table[name] = (claim, int(cells[2]))
    return table


def expected(verdict, table):
    """Per stage (status, vector), by docs/verifier.md's rules."""
    out = {}
    for stage in STAGES:
        vec = {c: 0 for c in CLAIMS}
        if verdict.get("authentic") and "claims" in verdict:
            vec.update(AFFIRMED)
        status = "affirming"
        for f in verdict["failures"]:
            if f["stage"] not in (None, stage):
                continue
            claim, value = table.get(f["check"], ("instance-identity", -1))
            if worse(value, vec[claim]):
                vec[claim] = value
            t = tier(value)
            if t == "affirming":
                t = "none"
            if TIER_ORDER.index(t) > TIER_ORDER.index(status):
                status = t
        if verdict.get("failures_truncated"):
            status = "contraindicated"
        out[stage] = (status, vec)
    return out


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--pub", required=True)
    ap.add_argument("--jwt", required=True)
    ap.add_argument("--verdict", required=True)
    ap.add_argument("--docs", required=True)
    ap.add_argument("--nonce")
    ap.add_argument("--jose")
    ap.add_argument("--expect", action="append", default=[])
    a = ap.parse_args()

    token = open(a.jwt, encoding="ascii").read().strip()
    pub = open(a.pub, "rb").read()
    try:
        header = jwt.get_unverified_header(token)
        claims = jwt.decode(token, pub, algorithms=["ES256"], options={"require": ["iat"]})
    except jwt.PyJWTError as e:
        check(False, f"PyJWT verifies the EAR ({type(e).__name__}: {e})")
        return 1
    check(header == {"alg": "ES256", "typ": "JWT"}, f"JOSE header is ES256/JWT: {header}")
    check(True, "PyJWT verifies the EAR's ES256 signature with the verifier's key")
    check(claims.get("eat_profile") == "tag:github.com,2023:veraison/ear", "eat_profile is the EAR profile")
    check(isinstance(claims.get("iat"), int), "iat is an integer")
    vid = claims.get("ear.verifier-id", {})
    check(isinstance(vid.get("developer"), str) and isinstance(vid.get("build"), str),
          "ear.verifier-id has developer and build")
    if a.nonce:
        want = b64url(bytes.fromhex(a.nonce))
        check(claims.get("eat_nonce") == want, f"eat_nonce is the nonce sent ({want})")
    else:
        check("eat_nonce" not in claims, "no eat_nonce without a nonce")
    subs = claims.get("submods", {})
    check(sorted(subs) == sorted(STAGES), f"submods are {STAGES}: {sorted(subs)}")

    verdict = json.load(open(a.verdict, encoding="utf-8"))
    table = refusal_table(a.docs)
    want = expected(verdict, table)
    for f in verdict["failures"]:
        claim, value = table.get(f["check"], (None, None))
        row = {"claim": claim, "value": value, "tier": tier(value)} if claim else None
        check(f.get("ear") == row, f"--json: {f['check']}'s ear is its documented row {row}")
    for stage in STAGES:
        sub = subs.get(stage, {})
        tv = sub.get("ear.trustworthiness-vector", {})
        check(sorted(tv) == sorted(CLAIMS), f"{stage}: all eight AR4SI claims")
        status, vec = want[stage]
        check(sub.get("ear.status") == status,
              f"{stage}: ear.status {sub.get('ear.status')} is the documented {status} for "
              f"{[f['check'] for f in verdict['failures'] if f['stage'] in (None, stage)]}")
        check(tv == vec, f"{stage}: the vector is the documented one {vec} (EAR: {tv})")

    for e in a.expect:
        stage, rest = e.split("=", 1)
        status, _, pairs = rest.partition(":")
        sub = subs.get(stage, {})
        check(sub.get("ear.status") == status, f"{stage}: ear.status {sub.get('ear.status')}, expected {status}")
        for pair in filter(None, pairs.split(",")):
            claim, value = pair.split("=")
            got = sub.get("ear.trustworthiness-vector", {}).get(claim)
            check(got == int(value), f"{stage}: {claim} {got}, expected {value} ({tier(int(value))})")

    if a.jose:
        jose = json.load(open(a.jose, encoding="utf-8"))
        check(jose.get("payload") == claims, "npm jose and PyJWT decode the same claims")
        check(jose.get("header") == header, "npm jose and PyJWT read the same header")
    return 0 if all(results) else 1


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Differential run: otattest's strict decoders against independent ones.

usage: differential.py [--grown]

1. CBOR. Every file of the CBOR-bearing corpora (fuzz_cbor, fuzz_evidence,
   and fuzz_evidence_claims' payloads after their knob byte) and of
   tests/fuzz/regress/cbor/ goes through otattest's strict decoder
   (build/tests/fuzz/cbor_dump), Python's cbor2 (Debian's python3-cbor2)
   and npm's cborg in strict mode (tests/interop/cborg_decode.mjs). Every
   input the strict decoder accepts must decode to the same data model in
   both: same integers, strings, containers, tags, map entries in the same
   order. Inputs it refuses are not compared: it is meant to be stricter.
   The protected header and payload inside each COSE_Sign1 they agree on
   are compared the same way.
2. Evidence. fuzz_evidence_claims (build/fuzz/) runs once over its corpus
   with FUZZ_CLAIMS_EXPORT set and writes every evidence the verifier
   accepted; each must also be accepted by otattest-verify (build/) and
   pass the independent check, tests/interop/evidence_check.py (cbor2 and
   cryptography only).

The kept corpora (tests/fuzz/corpus/) are always used; --grown adds what
make fuzz grew in build/fuzz/corpus/. A disagreement prints both sides and
counts as a failure; the input belongs in tests/fuzz/regress/ with the fix.
Prints "N passed, N failed" (one per input compared).
"""
import contextlib
from collections.abc import Mapping
import io
import json
import os
import subprocess
import sys
import tempfile

import cbor2

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
sys.path.insert(0, os.path.join(ROOT, "tests", "interop"))
import evidence_check  # noqa: E402  (the independent evidence check)
import tap  # noqa: E402  (its counts)

B = os.environ.get("B", "build")
DUMP = os.path.join(B, "tests/fuzz/cbor_dump")
CLAIMS_FUZZER = "build/fuzz/fuzz_evidence_claims"
VERIFY = os.path.join(B, "otattest-verify")
# corpus name -> bytes before the CBOR in each input
CBOR_CORPORA = {"fuzz_cbor": 0, "fuzz_evidence": 0, "fuzz_evidence_claims": 1}


def files_of(dirs):
    out = []
    for d in dirs:
        if os.path.isdir(d):
            out += sorted(os.path.join(d, f) for f in os.listdir(d)
                          if os.path.isfile(os.path.join(d, f)))
    return out


def render(v):
    """cbor2's result in cbor_dump's shape; semantic tags it applied show as such."""
    if v is None:
        return {"simple": "null"}
    if v is True or v is False:
        return {"simple": str(v).lower()}
    if isinstance(v, int):
        return {"int": str(v)}
    if isinstance(v, bytes):
        return {"bytes": v.hex()}
    if isinstance(v, str):
        return {"text": v}
    if isinstance(v, (list, tuple)):
        return {"array": [render(x) for x in v]}
    if isinstance(v, Mapping):  # dict, or FrozenDict inside a map key
        return {"map": [[render(k), render(x)] for k, x in v.items()]}
    if isinstance(v, cbor2.CBORTag):
        return {"tag": str(v.tag), "value": render(v.value)}
    return {"semantic": f"{type(v).__name__}: {v!r}"}


def cbor2_view(path, skip):
    with open(path, "rb") as f:
        data = f.read()[skip:]
    try:
        return {"ok": True, "item": render(cbor2.loads(data))}
    except Exception as e:  # any refusal is an answer to compare
        return {"ok": False, "error": f"{type(e).__name__}: {e}"}


def json_lines(cmd):
    run = subprocess.run(cmd, capture_output=True, text=True)
    if run.returncode not in (0, 1) or not run.stdout:
        sys.exit(f"differential: {' '.join(cmd[:3])} ... failed: {run.stderr[-2000:]}")
    return {d["file"]: d for d in map(json.loads, run.stdout.splitlines())}


def nested_cbor(item):
    """The protected header and payload of a COSE_Sign1, CBOR inside byte strings."""
    if item.get("tag") != "18" or "array" not in item["value"]:
        return []
    parts = item["value"]["array"]
    return [bytes.fromhex(p["bytes"]) for i, p in enumerate(parts) if i in (0, 2) and "bytes" in p]


def cbor_differential(files_by_skip, nested=None):
    """Compare the three decoders; with nested a list, the CBOR inside
    accepted COSE_Sign1 structures is appended to it."""
    passed = failed = refused = 0
    for skip, files in sorted(files_by_skip.items()):
        if not files:
            continue
        ours = {}
        for i in range(0, len(files), 500):  # bounded argument lists
            ours.update(json_lines([DUMP, "--skip", str(skip)] + files[i:i + 500]))
        with tempfile.NamedTemporaryFile("w", suffix=".list") as lst:
            lst.write("\n".join(files) + "\n")
            lst.flush()
            cborg = json_lines(["node", os.path.join(ROOT, "tests/interop/cborg_decode.mjs"),
                                "--skip", str(skip), lst.name])
        for f in files:
            if not ours[f]["ok"]:
                refused += 1
                continue
            want = ours[f]["item"]
            bad = []
            for name, view in (("cbor2", cbor2_view(f, skip)), ("cborg", cborg[f])):
                if not view["ok"]:
                    bad.append(f"{name} refuses it: {view['error']}")
                elif view["item"] != want:
                    bad.append(f"{name} decodes it differently: {json.dumps(view['item'])[:600]}")
            if bad:
                failed += 1
                print(f"not ok - {f}: otattest accepts it as {json.dumps(want)[:600]}")
                for b in bad:
                    print(f"    {b}")
            else:
                passed += 1
                if nested is not None:
                    nested.extend(nested_cbor(want))
    print(f"cbor: {passed} accepted inputs decode the same in cbor2 and cborg, {failed} do not "
          f"({refused} refused by the strict decoder, not compared)")
    return passed, failed


def evidence_differential(dirs):
    files = files_of(dirs)
    if not files:
        return 0, 0
    passed = failed = 0
    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, FUZZ_CLAIMS_EXPORT=out)
        for i in range(0, len(files), 500):
            run = subprocess.run([CLAIMS_FUZZER, "-runs=0"] + files[i:i + 500], env=env,
                                 capture_output=True, text=True)
            if run.returncode != 0:
                sys.exit(f"differential: {CLAIMS_FUZZER} failed: {run.stderr[-3000:]}")
        nonce = open(os.path.join(out, "nonce.hex")).read().strip()
        ca, rec = os.path.join(out, "ca.pem"), os.path.join(out, "record.bin")
        accepted = sorted(f for f in os.listdir(out) if f.endswith(".cose"))
        for name in accepted:
            ev = os.path.join(out, name)
            with_record = name.endswith("-record.cose")
            cli = [VERIFY, "-q", "--ca", ca, "--nonce", nonce] + (["--record", rec] if with_record else []) + [ev]
            cli_rc = subprocess.run(cli, capture_output=True).returncode
            tap.reset()
            text = io.StringIO()
            sys.argv = ["evidence_check.py", ev, ca, nonce] + ([rec] if with_record else [])
            with contextlib.redirect_stdout(text):
                check_rc = evidence_check.main()
            if cli_rc == 0 and check_rc == 0:
                passed += 1
                continue
            failed += 1
            keep = os.path.join("build/fuzz/differential", name)
            os.makedirs(os.path.dirname(keep), exist_ok=True)
            with open(ev, "rb") as s, open(keep, "wb") as d:
                d.write(s.read())
            print(f"not ok - accepted evidence {keep}: otattest-verify exit {cli_rc}, "
                  f"evidence_check.py exit {check_rc}")
            for line in text.getvalue().splitlines():
                if line.startswith("not ok"):
                    print(f"    evidence_check.py: {line}")
    print(f"evidence: {passed} accepted evidences pass otattest-verify and evidence_check.py, "
          f"{failed} do not ({len(files)} inputs run)")
    return passed, failed


def main():
    grown = "--grown" in sys.argv[1:]
    os.chdir(ROOT)
    by_skip = {}
    for corpus, skip in CBOR_CORPORA.items():
        dirs = [f"tests/fuzz/corpus/{corpus}"] + ([f"build/fuzz/corpus/{corpus}"] if grown else [])
        by_skip.setdefault(skip, []).extend(files_of(dirs))
    by_skip.setdefault(0, []).extend(files_of(["tests/fuzz/regress/cbor"]))
    inner = []
    p1, f1 = cbor_differential(by_skip, inner)
    # The protected headers and claims inside the evidence they agreed on.
    with tempfile.TemporaryDirectory() as tmp:
        paths = []
        for i, blob in enumerate(dict.fromkeys(inner)):
            paths.append(os.path.join(tmp, f"nested-{i}"))
            with open(paths[-1], "wb") as f:
                f.write(blob)
        print("inside COSE_Sign1 (protected headers and payloads):")
        p, f = cbor_differential({0: paths})
        p1, f1 = p1 + p, f1 + f
    claims = ["tests/fuzz/corpus/fuzz_evidence_claims"] + \
        (["build/fuzz/corpus/fuzz_evidence_claims"] if grown else [])
    p2, f2 = evidence_differential(claims)
    print(f"{p1 + p2} passed, {f1 + f2} failed")
    return 0 if f1 + f2 == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

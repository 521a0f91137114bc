#!/usr/bin/python3
"""veraison_agree.py [--tier-only] NAME VERIFY_JSON VERIFY_EAR SCHEME_JSON

Compares two verifiers on one evidence: libotattest (otattest-verify
--json and --ear) and the otattest scheme for Veraison (otattest-veraison
appraise, one JSON line). They agree when they name the same failed
checks for the same stages and give each EAR submodule the same
ear.status and trustworthiness vector. With --tier-only (a certificate's DER damaged: OpenSSL's
d2i_X509 and Go's readers accept different damage, docs/veraison.md)
only each submodule's ear.status must agree. Prints one "ok - " or
"not ok - " line; exits 1 when they differ.
"""
import base64
import json
import sys


def ear_claims(jwt):
    payload = jwt.strip().split(".")[1]
    return json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))


def ear_reasons(jwt):
    """Each submodule's ear.veraison.policy-claims failures, as (status, stage) pairs, and its policy id."""
    out = {}
    for name, sub in ear_claims(jwt)["submods"].items():
        pc = sub.get("ear.veraison.policy-claims") or {}
        out[name] = (sorted((f["status"], f["stage"]) for f in pc.get("failures") or []),
                     sub.get("ear.appraisal-policy-id"))
    return out


def ear_submods(jwt):
    claims = ear_claims(jwt)
    out = {}
    for name, sub in claims["submods"].items():
        vec = {k: v for k, v in sub.get("ear.trustworthiness-vector", {}).items() if v != 0}
        out[name] = (sub["ear.status"], vec)
    return out


def main():
    args = sys.argv[1:]
    tier_only = args[0] == "--tier-only"
    if tier_only:
        args = args[1:]
    name, vjson, vear, sjson = args
    verify = json.load(open(vjson))
    lib_failures = sorted({(f["check"], f.get("stage") or "-") for f in verify.get("failures", [])})
    lib_subs = ear_submods(open(vear).read())
    mine = json.loads(open(sjson).read())
    stages = {"0": "-", "1": "rom_ext", "2": "bl0"}
    scheme_failures = sorted({(f["status"], stages[str(f["stage"])])
                              for sub in mine["submods"].values() for f in (sub["failures"] or [])})
    scheme_subs = {n: (s["ear.status"], s["ear.trustworthiness-vector"]) for n, s in mine["submods"].items()}
    problems = []
    if tier_only:
        lib_subs = {n: (s[0], None) for n, s in lib_subs.items()}
        scheme_subs = {n: (s[0], None) for n, s in scheme_subs.items()}
    elif lib_failures != scheme_failures:
        problems.append(f"failures: libotattest {lib_failures}, scheme {scheme_failures}")
    if lib_subs != scheme_subs:
        problems.append(f"EAR submods: libotattest {lib_subs}, scheme {scheme_subs}")
    # The reasons otattest-verify's EAR gives each submodule, as the scheme's
    # EAR gives them (ear.veraison.policy-claims; stage "" for the device),
    # and the policy id Veraison sets (policy:OTATTEST).
    lib_reasons = ear_reasons(open(vear).read())
    scheme_reasons = {n: (sorted((f["status"], stages[str(f["stage"])].replace("-", ""))
                                 for f in (s["failures"] or [])), "policy:OTATTEST")
                      for n, s in mine["submods"].items()}
    if not tier_only and lib_reasons != scheme_reasons:
        problems.append(f"EAR reasons: libotattest {lib_reasons}, scheme {scheme_reasons}")
    if problems:
        print(f"not ok - {name}: " + "; ".join(problems))
        sys.exit(1)
    print(f"ok - {name}: {', '.join(f'{n} {s[0]}' for n, s in sorted(scheme_subs.items()))}"
          f"{'; ' + ', '.join(f[0] for f in lib_failures) if lib_failures else ''}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3.11
"""veraison-check.py OUT OTATTEST_VERIFY NAME:INSTANCE...

host_check of veraison-fleet.sh. For each case: the EAR Veraison signed
(OUT/ear-NAME.jwt) is verified with PyJWT against the EAR key that
instance publishes (OUT/wellknown-INSTANCE.json, its discovery document), its nonce must be the session's, and its
submodules' ear.status must be the expected one - and, where the scheme
appraised it, the same statuses and trustworthiness vectors as
otattest-verify --ear gives the same evidence against the same CA,
nonce and CoRIM. Prints "ok - " / "not ok - " lines and "N passed, N
failed"; exits 1 on a failure.
"""
import base64
import json
import os
import subprocess
import sys
import tempfile

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

# What each case must get from Veraison: per submodule, or the one
# submodule Veraison's own VTS writes when it refuses evidence before the
# scheme sees it (no trust anchor for the CA, no COSE_Sign1 at all).
EXPECTED = {
    "honest": {"rom_ext": "affirming", "bl0": "affirming"},
    "wrongnonce": {"rom_ext": "contraindicated", "bl0": "contraindicated"},
    "flip": {"rom_ext": "contraindicated", "bl0": "contraindicated"},
    "trunc": {"OTATTEST": "contraindicated"},
    "notlisted": {"rom_ext": "warning", "bl0": "warning"},
    "otherca": {"OTATTEST": "contraindicated"},
    "lie": {"rom_ext": "contraindicated", "bl0": "contraindicated"},
}
EVIDENCE = {"flip": "ev-flip-bad.cose", "trunc": "ev-trunc-bad.cose"}
CORIM = {"A": "release.corim", "B": "other-bl0.corim", "C": "release.corim"}
CA = {"A": "ca.pem", "B": "ca.pem", "C": "other-ca.pem"}
POLICY = {"B": "policy-B"}

results = {"pass": 0, "fail": 0}


def check(ok, what):
    results["pass" if ok else "fail"] += 1
    print(("ok - " if ok else "not ok - ") + what)
    return ok


def submods(claims):
    return {n: (s["ear.status"], {k: v for k, v in s.get("ear.trustworthiness-vector", {}).items() if v})
            for n, s in claims["submods"].items()}


def main():
    out, verify = sys.argv[1], sys.argv[2]
    nonces = dict(line.split() for line in open(os.path.join(out, "nonces-all")) if line.strip())
    tmp = tempfile.mkdtemp()
    key = ec.generate_private_key(ec.SECP256R1())
    keyfile, pubfile = os.path.join(tmp, "ear.key"), os.path.join(tmp, "ear.pub")
    open(keyfile, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
    open(pubfile, "wb").write(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                            serialization.PublicFormat.SubjectPublicKeyInfo))
    cases = [c.split(":") for c in sys.argv[3:]]
    # Flipped bytes (OUT/flips: name region): not affirmed by either; the
    # same vectors unless a certificate's DER is damaged (OpenSSL and Go
    # decode damaged DER differently: statuses only, docs/veraison.md).
    flips = {}
    if os.path.exists(os.path.join(out, "flips")):
        for line in open(os.path.join(out, "flips")):
            name, region = line.split()
            flips[name] = region
            cases.append([name, "A"])
    check(len(flips) >= 10, f"{len(flips)} flipped evidences appraised")
    for name, inst in cases:
        try:
            token = open(os.path.join(out, f"ear-{name}.jwt")).read().strip()
            # The key Veraison publishes (/.well-known/veraison/verification).
            wellknown = json.load(open(os.path.join(out, f"wellknown-{inst}.json")))
            pub = jwt.PyJWK(wellknown["ear-verification-key"])
            claims = jwt.decode(token, pub, algorithms=["ES256"])
        except Exception as e:  # noqa: BLE001 - any failure is this case's
            check(False, f"{name}: Veraison's EAR does not verify with PyJWT: {e}")
            continue
        check(True, f"{name}: Veraison's EAR verifies with PyJWT (ES256, the key instance {inst} publishes)")
        nonce = bytes.fromhex(nonces[name])
        got_nonce = base64.urlsafe_b64decode(claims.get("eat_nonce", "") + "==")
        check(got_nonce == nonce, f"{name}: the EAR's eat_nonce is the session's")
        vsubs = submods(claims)
        statuses = {n: s[0] for n, s in vsubs.items()}
        if name in flips:
            check("affirming" not in statuses.values(),
                  f"{name} ({flips[name]}): Veraison affirms nothing: {json.dumps(statuses)}")
        else:
            want = EXPECTED[name]
            check(statuses == want, f"{name}: Veraison says {json.dumps(statuses)}, expected {json.dumps(want)}")
        ev = os.path.join(out, EVIDENCE.get(name, f"ev-{name}.cose"))
        policy = ["--policy", os.path.join(out, POLICY[inst])] if inst in POLICY else []
        p = subprocess.run([verify, "--ear", keyfile, "--ca", os.path.join(out, CA[inst]), "--nonce", nonces[name],
                            "--corim", os.path.join(out, CORIM[inst]), "--corim-key", os.path.join(out, "release.pub"),
                            *policy, ev], capture_output=True, text=True)
        try:
            local = jwt.decode(p.stdout.strip(), open(pubfile).read(), algorithms=["ES256"])
        except Exception as e:  # noqa: BLE001
            check(False, f"{name}: otattest-verify --ear gave no EAR: {e} {p.stderr.strip()}")
            continue
        lsubs = submods(local)
        if "OTATTEST" in vsubs:
            # Refused by Veraison before the scheme: compare how bad.
            worst = {s[0] for s in lsubs.values()}
            check(worst != {"affirming"} and "affirming" not in worst,
                  f"{name}: refused by Veraison's VTS ({vsubs['OTATTEST'][0]}); otattest-verify: "
                  f"{json.dumps({n: s[0] for n, s in lsubs.items()})}, nothing affirmed by either")
        elif flips.get(name) == "cert":
            same = {n: s[0] for n, s in vsubs.items()} == {n: s[0] for n, s in lsubs.items()}
            check(same, f"{name} (cert): Veraison and otattest-verify --ear agree on every status: "
                  f"{json.dumps(vsubs)}" + ("" if same else f" vs {json.dumps(lsubs)}"))
        else:
            check(vsubs == lsubs, f"{name}: Veraison and otattest-verify --ear agree: {json.dumps(vsubs)}"
                  + ("" if vsubs == lsubs else f" vs {json.dumps(lsubs)}"))
    print(f"{results['pass']} passed, {results['fail']} failed")
    sys.exit(1 if results["fail"] else 0)


if __name__ == "__main__":
    main()

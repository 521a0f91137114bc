#!/usr/bin/python3.11
"""veraison-check.py OUT OTATTEST_VERIFY ARC NAME:INSTANCE...

host_check of veraison-fleet.sh. For each case: the EAR Veraison signed
(OUT/ear-NAME.jwt) is verified with PyJWT against the EAR key that
instance publishes (OUT/wellknown-INSTANCE.json, its discovery document), its nonce must be the session's, and its
submodules' ear.status must be the expected one - and, where the scheme
appraised it, the same statuses and trustworthiness vectors as
otattest-verify --ear gives the same evidence against the same CA,
nonce and CoRIM. Then Veraison's own EAR tool, arc (ARC: scripts/arc-build.sh),
verifies both EARs and what it prints is compared: the same statuses,
reasons (each failure's status and stage in ear.veraison.policy-claims)
and ear.appraisal-policy-id per submodule; with --ear-raw-evidence, arc
prints the raw evidence of otattest-verify's EAR. Prints "ok - " / "not
ok - " lines and "N passed, N failed"; exits 1 on a failure.
"""
import base64
import json
import os
import re
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


def jwk(pub):
    """An EC P-256 public key as the JWK arc reads (-p)."""
    n = pub.public_numbers()

    def b64(i):
        return base64.urlsafe_b64encode(i.to_bytes(32, "big")).rstrip(b"=").decode()
    return {"kty": "EC", "crv": "P-256", "x": b64(n.x), "y": b64(n.y)}


def arc_verify(arc, token, key, tmp, name):
    """arc verify: (its exit code, the claims-set it printed or None, output)."""
    jf, kf = os.path.join(tmp, f"{name}.jwt"), os.path.join(tmp, f"{name}.jwk")
    open(jf, "w").write(token)
    json.dump(key, open(kf, "w"))
    p = subprocess.run([arc, "verify", "-p", kf, jf], capture_output=True, text=True)
    text = p.stdout + p.stderr
    at = text.find("[claims-set]")
    claims = None
    if at >= 0:
        try:
            claims, _ = json.JSONDecoder().raw_decode(text[at + len("[claims-set]"):].lstrip())
        except ValueError:
            pass
    return p.returncode, claims, text


def reasons(claims):
    """Per submodule, what a relying party reads as the verdict's reasons."""
    out = {}
    for n, s in claims["submods"].items():
        pc = s.get("ear.veraison.policy-claims") or {}
        fails = sorted((f.get("status"), f.get("stage")) for f in (pc.get("failures") or []))
        # Under a policy from Veraison's policy management (deployment B),
        # Veraison names the policy instance it applied: the scheme's id
        # and the policy's uuid; otattest-verify has one policy, its file.
        pid = s.get("ear.appraisal-policy-id")
        if pid and re.fullmatch(r"policy:OTATTEST/[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}", pid):
            pid = "policy:OTATTEST"
        out[n] = {"status": s.get("ear.status"), "failures": fails, "policy-id": pid}
    return out


def main():
    out, verify, arc = sys.argv[1], sys.argv[2], sys.argv[3]
    nonces = dict(line.split() for line in open(os.path.join(out, "nonces-all")) if line.strip())
    tmp = tempfile.mkdtemp()
    key = ec.generate_private_key(ec.SECP256R1())
    keyfile, pubfile = os.path.join(tmp, "ear.key"), os.path.join(tmp, "ear.pub")
    open(keyfile, "wb").write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                                serialization.NoEncryption()))
    open(pubfile, "wb").write(key.public_key().public_bytes(serialization.Encoding.PEM,
                                                            serialization.PublicFormat.SubjectPublicKeyInfo))
    cases = [c.split(":") for c in sys.argv[4:]]
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
        # arc, Veraison's own EAR tool, on both EARs.
        arc_v = arc_verify(arc, token, wellknown["ear-verification-key"], tmp, f"veraison-{name}")
        arc_l = arc_verify(arc, p.stdout.strip(), jwk(key.public_key()), tmp, f"local-{name}")
        if not check(arc_v[0] == 0 and arc_v[1] is not None and arc_l[0] == 0 and arc_l[1] is not None,
                     f"{name}: arc verify verifies Veraison's EAR and otattest-verify's"):
            print(arc_v[2][-400:] + arc_l[2][-400:])
        elif "OTATTEST" not in vsubs:
            rv, rl = reasons(arc_v[1]), reasons(arc_l[1])
            if flips.get(name) == "cert":
                # A damaged certificate's DER: OpenSSL and Go name different
                # reasons for it (docs/veraison.md); statuses and policy ids only.
                rv = {n: {k: v for k, v in r.items() if k != "failures"} for n, r in rv.items()}
                rl = {n: {k: v for k, v in r.items() if k != "failures"} for n, r in rl.items()}
            check(rv == rl, f"{name}: arc shows the same statuses, reasons and policy ids: {json.dumps(rv)}"
                  + ("" if rv == rl else f" vs otattest-verify's {json.dumps(rl)}"))
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
    # --ear-raw-evidence: arc prints the EAR's ear.raw-evidence, the evidence.
    ev = os.path.join(out, "ev-honest.cose")
    p = subprocess.run([verify, "--ear", keyfile, "--ear-raw-evidence", "--ca", os.path.join(out, "ca.pem"),
                        "--nonce", nonces["honest"], "--corim", os.path.join(out, "release.corim"),
                        "--corim-key", os.path.join(out, "release.pub"), ev], capture_output=True, text=True)
    rc, claims, text = arc_verify(arc, p.stdout.strip(), jwk(key.public_key()), tmp, "raw")
    raw = (claims or {}).get("ear.raw-evidence", "")
    check(rc == 0 and base64.urlsafe_b64decode(raw + "==") == open(ev, "rb").read(),
          "arc prints otattest-verify's ear.raw-evidence, the evidence itself")
    print(f"{results['pass']} passed, {results['fail']} failed")
    sys.exit(1 if results["fail"] else 0)


if __name__ == "__main__":
    main()

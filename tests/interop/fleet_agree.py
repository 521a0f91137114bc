#!/usr/bin/python3
"""fleet_agree.py revoke OUTDIR MODULUS REMAINDER
   fleet_agree.py compare OUTDIR VERIFY.jsonl SCHEME.jsonl MODULUS REMAINDER
   fleet_agree.py same SCHEME.jsonl REGO.jsonl

The fleet of evidence_tool --fleet (fleet.tsv: file, identity serial,
lifecycle), judged by otattest-verify --batch --json and by the otattest
scheme for Veraison (otattest-veraison appraise) under one policy
(allowed_lifecycle = prod) and one CRL.

revoke: writes OUTDIR/fleet.crl (PEM, Python's cryptography), signed by
the fleet CA, listing the identity certificate of every device whose
index is REMAINDER modulo MODULUS.

compare: for every device, both verifiers' verdict (pass, or the set of
failed checks) must be the same, and the one the corpus was made for:
a revoked device VERIFY_IDENTITY_REVOKED, a dev one
VERIFY_LIFECYCLE_NOT_ALLOWED, the rest pass. Prints a line per device
that does not agree and "N passed, N failed" (one check per device, and
one that every device was judged by both).

same: two runs of otattest-veraison appraise (the scheme under the policy
file, and the scheme under the default policy with the policy's Rego
applied by Veraison's policy agent) gave every device the same
submodules: status, trust vector and failures (status, stage, detail; in
any order, the Rego's failures come after the scheme's). Prints one line
per device that differs and "N passed, N failed" (one check per device).
"""
import datetime
import json
import os
import sys

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization


def fleet(outdir):
    out = []
    for line in open(os.path.join(outdir, "fleet.tsv")):
        name, serial, lifecycle = line.split()
        out.append((name, int(serial, 16), lifecycle))
    return out


def revoke(outdir, modulus, remainder):
    ca = x509.load_pem_x509_certificate(open(os.path.join(outdir, "ca.pem"), "rb").read())
    key = serialization.load_pem_private_key(open(os.path.join(outdir, "ca.key"), "rb").read(), None)
    now = datetime.datetime.now(datetime.timezone.utc)
    b = (x509.CertificateRevocationListBuilder()
         .issuer_name(ca.subject)
         .last_update(now - datetime.timedelta(days=1))
         .next_update(now + datetime.timedelta(days=7))
         .add_extension(x509.AuthorityKeyIdentifier.from_issuer_subject_key_identifier(
             ca.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value), False)
         .add_extension(x509.CRLNumber(1), False))
    for i, (_, serial, _) in enumerate(fleet(outdir)):
        if i % modulus == remainder:
            b = b.add_revoked_certificate(x509.RevokedCertificateBuilder().serial_number(serial)
                                          .revocation_date(now - datetime.timedelta(hours=1)).build())
    open(os.path.join(outdir, "fleet.crl"), "wb").write(
        b.sign(key, hashes.SHA256()).public_bytes(serialization.Encoding.PEM))


def by_file(path):
    out = {}
    for line in open(path):
        d = json.loads(line)
        out[os.path.basename(d["file"])] = d
    return out


def compare(outdir, vpath, spath, modulus, remainder):
    v, s = by_file(vpath), by_file(spath)
    passed = failed = 0
    devices = fleet(outdir)
    if len(v) == len(s) == len(devices):
        passed += 1
        print(f"ok - all {len(devices)} devices judged by both verifiers")
    else:
        failed += 1
        print(f"not ok - devices {len(devices)}, otattest-verify {len(v)}, scheme {len(s)}")
    ids = {(v.get(name, {}).get("claims") or {}).get("device_id") for name, _, _ in devices}
    serials = {serial for _, serial, _ in devices}
    if len(ids) == len(serials) == len(devices) and None not in ids:
        passed += 1
        print(f"ok - {len(devices)} distinct device ids and identity certificates")
    else:
        failed += 1
        print(f"not ok - {len(ids)} device ids, {len(serials)} identity serials for {len(devices)} devices")
    counts = {}
    for i, (name, _, lifecycle) in enumerate(devices):
        want = set()
        if i % modulus == remainder:
            want.add("VERIFY_IDENTITY_REVOKED")
        if lifecycle != "prod":
            want.add("VERIFY_LIFECYCLE_NOT_ALLOWED")
        got_v = {f["check"] for f in v.get(name, {}).get("failures", [{"check": "missing"}])}
        if name in v and v[name].get("verdict") != ("fail" if want else "pass"):
            got_v.add("verdict " + v[name].get("verdict", "?"))
        got_s = set()
        for sub in s.get(name, {"submods": {"?": {"failures": [{"status": "missing"}]}}})["submods"].values():
            got_s |= {f["status"] for f in (sub.get("failures") or [])}
        key = " + ".join(sorted(want)) or "pass"
        if got_v == want and got_s == want:
            passed += 1
            counts[key] = counts.get(key, 0) + 1
        else:
            failed += 1
            print(f"not ok - {name}: want {sorted(want)}, otattest-verify {sorted(got_v)}, scheme {sorted(got_s)}")
    print(f"ok - every device the same verdict from both: {json.dumps(counts, sort_keys=True)}"
          if not failed else f"not ok - {failed} devices disagree or differ from the corpus")
    if failed:
        failed += 1
    else:
        passed += 1
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def canonical(record):
    subs = {}
    for name, sub in record["submods"].items():
        failures = sorted(json.dumps(f, sort_keys=True) for f in (sub.get("failures") or []))
        subs[name] = (sub["ear.status"], sorted(sub["ear.trustworthiness-vector"].items()), failures)
    return subs


def same(apath, bpath):
    a, b = by_file(apath), by_file(bpath)
    passed = failed = 0
    for name in sorted(set(a) | set(b)):
        if name in a and name in b and canonical(a[name]) == canonical(b[name]):
            passed += 1
        else:
            failed += 1
            print(f"not ok - {name}: {canonical(a[name]) if name in a else 'missing'} "
                  f"!= {canonical(b[name]) if name in b else 'missing'}")
    if not a:
        failed += 1
        print("not ok - no device judged")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


def main(argv):
    if len(argv) == 5 and argv[1] == "revoke":
        revoke(argv[2], int(argv[3]), int(argv[4]))
        return 0
    if len(argv) == 7 and argv[1] == "compare":
        return compare(argv[2], argv[3], argv[4], int(argv[5]), int(argv[6]))
    if len(argv) == 4 and argv[1] == "same":
        return same(argv[2], argv[3])
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv))

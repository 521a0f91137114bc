#!/usr/bin/env python3.11
# SPDX-License-Identifier: MIT
"""Evidence profile v2 checked by python-cwt from PyPI (cwt, pinned in
scripts/deps.sh, for the pyenv python3.11), which nobody in otattest wrote.

cwt's COSE layer verifies the COSE_Sign1 (ES256) with the alias
certificate's key and its Claims class reads the payload as a CWT claims
set, checking the registered CWT claims it knows (cwt's CWT class is not
used: it insists on a kid, which this evidence does not carry); the x5chain is checked with the cryptography package
(verify_directly_issued_by: alias <- identity <- CA); then every registered
EAT claim is held to the type RFC 9711 gives it, from the cwt-decoded
claims. Imports nothing of otattest (tap.py only prints and counts).

usage: evidence_cwt.py EVIDENCE CA_PEM NONCE_HEX
Prints "ok - ..." / "not ok - ..." per check, then "N passed, N failed".
"""
import sys

import cbor2
import cwt
from cryptography import x509
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tap import check, summary



def private(n):
    return -1 - (0x6f746100 + n)


def issued_by(cert, issuer):
    try:
        cert.verify_directly_issued_by(issuer)
        return True
    except Exception:  # noqa: BLE001 - any failure is a failed check
        return False


COSE = cwt.COSE.new(verify_kid=False)


def refused(data, key):
    try:
        COSE.decode(data, key)
        return False
    except (cwt.VerifyError, cwt.DecodeError, ValueError):
        return True


def main():
    if len(sys.argv) != 4:
        print(__doc__)
        return 2
    ev = open(sys.argv[1], "rb").read()
    ca = x509.load_pem_x509_certificate(open(sys.argv[2], "rb").read())
    nonce = bytes.fromhex(sys.argv[3])

    # The certificates travel in the unprotected header: read them out to
    # know the key, then let cwt verify with it.
    try:
        tag = cbor2.loads(ev)
    except (cbor2.CBORDecodeError, ValueError):
        tag = None
    ok = isinstance(tag, cbor2.CBORTag) and tag.tag == 18 and isinstance(tag.value, list) and \
        len(tag.value) == 4 and isinstance(tag.value[1], dict)
    chain = tag.value[1].get(33) if ok else None
    if not check("x5chain (33) holds two certificates", isinstance(chain, list) and len(chain) == 2):
        summary()
        return 1
    alias, ident = (x509.load_der_x509_certificate(c) for c in chain)
    check("cryptography: the identity certificate issued the alias certificate",
          issued_by(alias, ident))
    check("cryptography: the CA issued the identity certificate", issued_by(ident, ca))
    key = cwt.COSEKey.from_pem(alias.public_bytes(Encoding.PEM), alg="ES256")

    try:
        prot, unprot, _ = COSE.decode_with_headers(ev, key)
        verified = True
    except (cwt.VerifyError, cwt.DecodeError, ValueError):
        prot, unprot, verified = None, None, False
    check("cwt: the COSE_Sign1 verifies with the alias key", verified)
    check("cwt: protected header is alg ES256 (-7) alone, x5chain unprotected",
          not verified or (prot == {1: -7} and list(unprot) == [33]))
    # The claims are read either way, so a wrong type is named beside a bad signature.
    try:
        claims = cwt.Claims.new(cbor2.loads(tag.value[2])).to_dict()
    except (ValueError, cbor2.CBORDecodeError) as e:
        check("cwt: the payload reads as CWT claims (%s)" % e, False)
        summary()
        return 1
    check("cwt: the payload reads as CWT claims", isinstance(claims, dict))
    payload_at = ev.find(tag.value[2])
    bad = bytearray(ev)
    bad[payload_at + 7] ^= 1
    check("cwt: a flipped claims byte does not verify", refused(bytes(bad), key))
    bad = bytearray(ev)
    bad[-5] ^= 1
    check("cwt: a flipped signature byte does not verify", refused(bytes(bad), key))
    other = ec.generate_private_key(ec.SECP256R1()).public_key()
    other = cwt.COSEKey.from_pem(other.public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo),
                                 alg="ES256")
    check("cwt: another P-256 key does not verify", refused(ev, other))

    names = {"record_digest": private(1), "lifecycle": private(4), "attempts": private(11)}
    named = cwt.Claims.new(claims, private_claim_names=names)
    check("cwt: the private claims are read by name",
          private(4) in claims and named.get("lifecycle") == claims[private(4)] and
          private(11) in claims and named.get("attempts") == claims[private(11)])

    def uint(v):
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    c = claims.get
    check("RFC 9711: nonce (10) is bstr 8..64, the nonce sent",
          isinstance(c(10), bytes) and 8 <= len(c(10)) <= 64 and c(10) == nonce)
    check("RFC 9711: ueid (256) is bstr 7..33 (type RAND: 16 bytes after 0x01)",
          isinstance(c(256), bytes) and len(c(256)) == 17 and c(256)[0] == 1)
    check("RFC 9711: oemid (258) is a random OEM ID (bstr 16)",
          isinstance(c(258), bytes) and len(c(258)) == 16)
    check("RFC 9711: oemboot (262) is bool", isinstance(c(262), bool))
    check("RFC 9711: dbgstat (263) is 0..4", uint(c(263)) and c(263) <= 4)
    check("RFC 9711: eat_profile (265) is a URI",
          c(265) == "tag:otattest.org,2025:evidence-v2")
    m = c(273)
    check("RFC 9711: measurements (273) is [+ [coap-content-format, bstr]]",
          isinstance(m, list) and m and all(
              isinstance(f, list) and len(f) == 2 and uint(f[0]) and f[0] <= 65535 and
              isinstance(f[1], bytes) for f in m))
    r = c(274)
    check("RFC 9711: measres (274) is [+ [tstr, [+ [tstr / bstr, 1..4]]]]",
          isinstance(r, list) and r and all(
              isinstance(g, list) and len(g) == 2 and isinstance(g[0], str) and
              isinstance(g[1], list) and g[1] and all(
                  isinstance(x, list) and len(x) == 2 and isinstance(x[0], (str, bytes)) and
                  x[1] in (1, 2, 3, 4) and not isinstance(x[1], bool) for x in g[1])
              for g in r))
    def component_ok(f):
        try:
            mc = cbor2.loads(f[1])
            return f[0] == 295 and isinstance(mc, dict) and sorted(mc) in ([1, 2], [1, 2, 3]) \
                and mc[2][0] == 1 and len(mc[2][1]) == 32
        except (cbor2.CBORDecodeError, TypeError, KeyError, IndexError, ValueError):
            return False

    check("measured components: content format 295, maps keyed 1 id, 2 digest (sha-256), 3 authorities",
          isinstance(m, list) and bool(m) and all(component_ok(f) for f in m))
    return summary()


if __name__ == "__main__":
    sys.exit(main())

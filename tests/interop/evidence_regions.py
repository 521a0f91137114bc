#!/usr/bin/python3
"""evidence_regions.py EVIDENCE STEP

Prints "OFFSET REGION" for byte 0, every STEP-th byte, the last byte and
every byte of the structure (few, and where strict decoding matters) of a
COSE_Sign1 evidence, REGION being the part of the evidence the byte is in,
found with cbor2 (not with otattest's decoder):

  signature  the 64-byte ES256 signature
  payload    the claims set, the bytes the signature covers
  cert       a certificate (DER) of the x5chain
  structure  anything else: the tag, CBOR heads, the protected and
             unprotected headers

evidence.sh flips each byte printed and expects otattest-verify to refuse
the evidence for the reason that part calls for.
"""
import sys

import cbor2


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: evidence_regions.py EVIDENCE STEP")
    data = open(sys.argv[1], "rb").read()
    step = int(sys.argv[2])
    top = cbor2.loads(data)
    if not isinstance(top, cbor2.CBORTag) or top.tag != 18 or len(top.value) != 4:
        sys.exit("not a tagged COSE_Sign1")
    _protected, unprotected, payload, signature = top.value
    certs = unprotected[33]
    if isinstance(certs, bytes):
        certs = [certs]

    region = ["structure"] * len(data)

    def mark(part, name):
        at = data.find(part)
        if at < 0 or data.find(part, at + 1) >= 0:
            sys.exit("%s not found exactly once" % name)
        region[at:at + len(part)] = [name] * len(part)

    if len(signature) != 64 or not data.endswith(b"\x58\x40" + signature):
        sys.exit("the evidence does not end with a 64-byte signature")
    mark(payload, "payload")
    for der in certs:
        mark(der, "cert")
    region[len(data) - 64:] = ["signature"] * 64

    offsets = set(range(0, len(data), step)) | {len(data) - 1}
    offsets |= {at for at, name in enumerate(region) if name == "structure"}
    for at in sorted(offsets):
        print(at, region[at])


if __name__ == "__main__":
    main()

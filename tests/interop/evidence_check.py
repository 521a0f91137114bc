#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent check of otattest evidence with code nobody in otattest wrote.

Decodes the COSE_Sign1 with cbor2, verifies its ES256 signature and the
certificate signatures with the cryptography package, holds every claim
the alias certificate certifies to its TCG MultiTcbInfo extension (read
with the cryptography package's X.509 extension API, its DER decoded
here after docs/evidence.md, "Alias certificate profile"), and compares
every claim with the boot record parsed here with struct from
docs/formats.md. Imports nothing of otattest. Run with Debian's
/usr/bin/python3 (python3-cbor2, python3-cryptography).

usage: evidence_check.py EVIDENCE CA_PEM NONCE_HEX [RECORD]
Without RECORD (evidence fetched over D-Bus, say) the claims are checked
for shape and the nonce, not against the record. Prints "ok - ..." / "not ok - ..." per check, then "N passed, N failed".
"""
import hashlib
import struct
import sys

import cbor2
from cryptography import x509
from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec, utils

passed = failed = 0


def check(name, cond):
    global passed, failed
    if cond:
        passed += 1
        print("ok -", name)
    else:
        failed += 1
        print("not ok -", name)
    return cond


def es256_ok(pub, sig, msg):
    if len(sig) != 64:
        return False
    der = utils.encode_dss_signature(int.from_bytes(sig[:32], "big"),
                                     int.from_bytes(sig[32:], "big"))
    try:
        pub.verify(der, msg, ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


def cert_signed_by(cert, issuer):
    try:
        issuer.public_key().verify(cert.signature, cert.tbs_certificate_bytes,
                                   ec.ECDSA(hashes.SHA256()))
        return True
    except InvalidSignature:
        return False


MULTI_TCB_INFO = x509.ObjectIdentifier("2.23.133.5.4.5")
SHA256_OID = bytes.fromhex("608648016503040201")
OTA_OK = 0x739


def der_items(buf):
    """(tag, contents) of each DER item in buf: definite, shortest lengths."""
    items, i = [], 0
    while i < len(buf):
        if len(buf) - i < 2:
            raise ValueError("truncated DER")
        tag, n = buf[i], buf[i + 1]
        i += 2
        if n & 0x80:
            k = n & 0x7f
            if k not in (1, 2) or len(buf) - i < k:
                raise ValueError("bad DER length")
            n = int.from_bytes(buf[i:i + k], "big")
            if n < 0x80 or (k == 2 and n < 0x100):
                raise ValueError("DER length not in its shortest form")
            i += k
        if len(buf) - i < n:
            raise ValueError("truncated DER")
        items.append((tag, buf[i:i + n]))
        i += n
    return items


def der_uint(c):
    if not c or c[0] & 0x80 or (len(c) > 1 and c[0] == 0 and not c[1] & 0x80) or len(c) > 5:
        raise ValueError("not a shortest non-negative INTEGER")
    return int.from_bytes(c, "big")


def dice_flags(lifecycle):
    """OperationalFlags bytes per docs/evidence.md: notSecure (1), debug (3), fixedWidth (31)."""
    if lifecycle in (2, 3):        # prod, prod_end
        return bytes.fromhex("0000000001")
    if lifecycle == 1:             # dev: debug
        return bytes.fromhex("0010000001")
    return bytes.fromhex("0050000001")  # test_unlocked, rma: notSecure, debug


def tcb_entry(der, want_tags):
    """One DiceTcbInfo with exactly the fields want_tags, in order: {tag: contents}."""
    tag, body = der
    fields = der_items(body) if tag == 0x30 else []
    if [t for t, _ in fields] != want_tags:
        raise ValueError("DiceTcbInfo fields %s" % [hex(t) for t, _ in fields])
    e = dict(fields)
    if e[0x80] != b"otattest":
        raise ValueError("vendor is not otattest")
    fwids = der_items(e[0xa6])
    if len(fwids) != 1 or fwids[0][0] != 0x30:
        raise ValueError("not one FWID")
    alg, digest = der_items(fwids[0][1])
    if alg != (0x06, SHA256_OID) or digest[0] != 0x04 or len(digest[1]) != 32:
        raise ValueError("FWID is not sha256 and 32 bytes")
    e["digest"] = digest[1]
    [(t, seq)] = der_items(e[0x88])
    if t != 0x30:
        raise ValueError("vendorInfo is not a SEQUENCE")
    e["info"] = der_items(seq)
    return e


def certified(alias):
    """What the alias certificate's MultiTcbInfo certifies: (device, {stage: results})."""
    raw = alias.extensions.get_extension_for_oid(MULTI_TCB_INFO).value.value
    [(t, body)] = der_items(raw)
    if t != 0x30:
        raise ValueError("MultiTcbInfo is not a SEQUENCE")
    entries = der_items(body)
    rom = tcb_entry(entries[0], [0x80, 0x81, 0x84, 0xa6, 0x87, 0x88])
    if rom[0x81] != b"rom" or der_uint(rom[0x84]) != 0:
        raise ValueError("the first entry is not the ROM's")
    info = rom["info"]
    if [t for t, _ in info] != [0x02] * 8 or der_uint(info[0][1]) != 1:
        raise ValueError("DeviceState is not version 1 and seven INTEGERs")
    v = [der_uint(c) for _, c in info[1:]]
    device = dict(zip("lifecycle epoch min_svn floor_rom_ext floor_bl0 chain_max_svn "
                      "tag_key_version".split(), v))
    device["rom_identity"], device["flags"] = rom["digest"], rom[0x87]
    stages = {}
    for der in entries[1:]:
        e = tcb_entry(der, [0x80, 0x81, 0x83, 0x84, 0xa6, 0x87, 0x88])
        stage = der_uint(e[0x84])
        if e[0x81] != {1: b"rom_ext", 2: b"bl0"}.get(stage) or stage in stages:
            raise ValueError("stage entry %d" % stage)
        if e[0x87] != device["flags"]:
            raise ValueError("stage flags differ from the ROM's")
        info = e["info"]
        if [t for t, _ in info[:5]] != [0x02] * 5 or der_uint(info[0][1]) != 1:
            raise ValueError("StageResults is not version 1 and four INTEGERs")
        r = dict(zip("path sig_scheme depth tag_key_version".split(),
                     [der_uint(c) for _, c in info[1:5]]))
        ids = info[5:]
        if any(t != 0x04 or len(c) != 32 for t, c in ids) or len(ids) != r["depth"] + 1:
            raise ValueError("key ids are not depth + 1 OCTET STRINGs of 32 bytes")
        r["key_ids"] = [c for _, c in ids]
        r["svn"], r["measurement"] = der_uint(e[0x83]), e["digest"]
        stages[stage] = r
    return device, stages


def device_named(cert, prefix):
    """The device id (hex) in cert's subject CN after prefix, or None."""
    cns = cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    cn = cns[0].value if len(cns) == 1 else ""
    return cn[len(prefix):] if cn.startswith(prefix) else None


def check_certified(claims, alias, ident):
    """Every claim the alias certificate certifies, one check each."""
    name = {1: "rom_ext", 2: "bl0"}
    try:
        device, stages = certified(alias)
    except (ValueError, IndexError, x509.ExtensionNotFound) as e:
        check("alias certificate has the TCB info profile that certifies results (%s)" % e, False)
        return
    check("alias certificate has the TCB info profile that certifies results", True)
    alias_device = device_named(alias, "otattest alias ")
    check("alias and identity certificates name the same device",
          alias_device is not None and alias_device == device_named(ident, "otattest identity "))
    check("flags are the certified lifecycle's", device["flags"] == dice_flags(device["lifecycle"]))
    floors = claims.get(-75010, [None, None])
    for what, claim, cert in (
            ("lifecycle", claims.get(-75004), device["lifecycle"]),
            ("epoch", claims.get(-75003), device["epoch"]),
            ("min SVN", claims.get(-75002), device["min_svn"]),
            ("ROM_EXT floor", floors[0], device["floor_rom_ext"]),
            ("BL0 floor", floors[1], device["floor_bl0"]),
            ("chain max SVN", claims.get(-75009), device["chain_max_svn"]),
            ("tag key version", claims.get(-75005), device["tag_key_version"]),
            ("ROM identity", claims.get(-75008), device["rom_identity"])):
        check("alias certificate certifies the claimed %s" % what, claim == cert)
    booted = [c for c in claims.get(-75012, []) if c.get(11, 0) & 1 and c.get(3) == OTA_OK]
    check("alias certificate certifies each booted stage once",
          sorted(c.get(1) for c in booted) == sorted(stages))
    for c in booted:
        s, n = stages.get(c.get(1)), name.get(c.get(1), "?")
        if s is None:
            continue
        ids = c.get(10, [])
        for what, claim, cert in (
                ("SVN", c.get(7), s["svn"]),
                ("measurement", c.get(9), s["measurement"]),
                ("path", c.get(4), s["path"]),
                ("signature scheme", c.get(5), s["sig_scheme"]),
                ("delegation depth", c.get(6), s["depth"]),
                ("tag key version", c.get(8), s["tag_key_version"]),
                ("root key id", ids[:1], s["key_ids"][:1]),
                # where both have them: a shorter chain is the depth's mismatch
                ("delegate key ids", ids[1:len(s["key_ids"])], s["key_ids"][1:len(ids)])):
            check("alias certificate certifies the claimed %s %s" % (n, what), claim == cert)


def parse_record(buf):
    """Record layout from docs/formats.md, independently of record.h."""
    hdr = struct.unpack_from("<IHHIIII16sIIIIIIIIII32sQ2I", buf, 0)
    names = ("magic version header_size length generation reset_reason lifecycle "
             "device_id epoch min_svn floor_rom_ext floor_bl0 flags tag_key_version "
             "stage_count boot_status boot_data_counter chain_max_svn rom_identity "
             "boot_time_ns r0 r1").split()
    h = dict(zip(names, hdr))
    stages = []
    for i in range(h["stage_count"]):
        off = 128 + 224 * i
        f = struct.unpack_from("<8I32s96s", buf, off)
        s = dict(zip("stage slot status path sig_scheme depth svn tag_key_version".split(), f[:8]))
        s["measurement"] = f[8]
        s["key_ids"] = [f[9][32 * k:32 * k + 32] for k in range(s["depth"] + 1)]
        s["verify_time_ns"], s["flags"] = struct.unpack_from("<QI", buf, off + 200)
        stages.append(s)
    return h, stages


def main():
    if len(sys.argv) not in (4, 5):
        print(__doc__)
        return 2
    ev = open(sys.argv[1], "rb").read()
    ca = x509.load_pem_x509_certificate(open(sys.argv[2], "rb").read())
    nonce = bytes.fromhex(sys.argv[3])
    record = open(sys.argv[4], "rb").read() if len(sys.argv) == 5 else None

    msg = cbor2.loads(ev)
    check("evidence is CBOR tag 18 (COSE_Sign1)", isinstance(msg, cbor2.CBORTag) and msg.tag == 18)
    prot, unprot, payload, sig = msg.value
    check("protected header is {1: -7} (ES256)", cbor2.loads(prot) == {1: -7})
    check("evidence re-encodes to the same bytes (deterministic CBOR)",
          cbor2.dumps(msg, canonical=True) == ev)
    chain = unprot.get(33)
    check("unprotected header is x5chain with two certificates",
          list(unprot.keys()) == [33] and isinstance(chain, list) and len(chain) == 2)
    alias = x509.load_der_x509_certificate(chain[0])
    ident = x509.load_der_x509_certificate(chain[1])

    tbs = cbor2.dumps(["Signature1", prot, b"", payload])
    check("ES256 signature verifies with the alias key", es256_ok(alias.public_key(), sig, tbs))
    bad = bytearray(sig)
    bad[5] ^= 1
    check("a flipped signature bit does not verify", not es256_ok(alias.public_key(), bytes(bad), tbs))
    check("a flipped payload bit does not verify",
          not es256_ok(alias.public_key(), sig,
                       cbor2.dumps(["Signature1", prot, b"", payload[:-1] + bytes([payload[-1] ^ 1])])))
    check("alias certificate is signed by the identity key", cert_signed_by(alias, ident))
    check("identity certificate is signed by the CA", cert_signed_by(ident, ca))
    check("alias issuer is the identity subject", alias.issuer == ident.subject)
    bc = alias.extensions.get_extension_for_class(x509.BasicConstraints)
    check("alias certificate is not a CA (critical)", bc.critical and not bc.value.ca)
    ku = alias.extensions.get_extension_for_class(x509.KeyUsage)
    check("alias key usage is digitalSignature only", ku.critical and ku.value.digital_signature
          and not ku.value.key_cert_sign)
    ibc = ident.extensions.get_extension_for_class(x509.BasicConstraints)
    check("identity certificate is CA:TRUE pathlen 0", ibc.value.ca and ibc.value.path_length == 0)
    aki = alias.extensions.get_extension_for_class(x509.AuthorityKeyIdentifier).value.key_identifier
    iski = ident.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
    check("alias AKI matches the identity SKI", aki == iski)
    point = alias.public_key().public_bytes(
        encoding=__import__("cryptography.hazmat.primitives.serialization", fromlist=["x"]).Encoding.X962,
        format=__import__("cryptography.hazmat.primitives.serialization", fromlist=["x"]).PublicFormat.UncompressedPoint)
    ski = alias.extensions.get_extension_for_class(x509.SubjectKeyIdentifier).value.digest
    check("alias SKI is SHA-256(point)[:20]", ski == hashlib.sha256(point).digest()[:20])
    check("alias notAfter is 9999-12-31T23:59:59",
          alias.not_valid_after.strftime("%Y%m%d%H%M%S") == "99991231235959")

    claims = cbor2.loads(payload)
    check("claims re-encode to the same bytes (deterministic CBOR)",
          cbor2.dumps(claims, canonical=True) == payload)
    check("nonce claim (10) is the nonce sent", claims.get(10) == nonce)
    check("eat_profile claim (265)", claims.get(265) == "tag:otattest.org,2025:evidence-v1")
    ueid = claims.get(256, b"")
    check("ueid claim (256) is 0x01 and 16 bytes", len(ueid) == 17 and ueid[0] == 1)
    cn = alias.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value
    check("alias certificate names the ueid's device", cn == "otattest alias " + ueid[1:].hex())
    check("claims set has exactly the documented keys",
          sorted(claims.keys()) == sorted([10, 256, 265] + list(range(-75012, -75000))))
    check_certified(claims, alias, ident)
    if record is None:
        print("%d passed, %d failed" % (passed, failed))
        return 0 if failed == 0 else 1
    h, stages = parse_record(record)
    check("record header magic and length", h["magic"] == 0x5242544f and h["length"] == len(record))
    check("ueid claim (256) is 0x01 || the record's device id", ueid == b"\x01" + h["device_id"])
    check("record digest claim is SHA-256 of the record", claims.get(-75001) == hashlib.sha256(record).digest())
    check("min SVN, epoch, lifecycle, tag key version match the record",
          (claims.get(-75002), claims.get(-75003), claims.get(-75004), claims.get(-75005)) ==
          (h["min_svn"], h["epoch"], h["lifecycle"], h["tag_key_version"]))
    check("reset reason, flags, ROM identity, chain max SVN match",
          (claims.get(-75006), claims.get(-75007), claims.get(-75008), claims.get(-75009)) ==
          (h["reset_reason"], h["flags"], h["rom_identity"], h["chain_max_svn"]))
    check("floors and generation match",
          claims.get(-75010) == [h["floor_rom_ext"], h["floor_bl0"]] and claims.get(-75011) == h["generation"])
    cs = claims.get(-75012, [])
    check("one stage claim per record stage", len(cs) == len(stages) and len(cs) > 0)
    for i, (c, s) in enumerate(zip(cs, stages)):
        want = {1: s["stage"], 2: s["slot"], 3: s["status"], 4: s["path"], 5: s["sig_scheme"],
                6: s["depth"], 7: s["svn"], 8: s["tag_key_version"], 9: s["measurement"],
                10: s["key_ids"], 11: s["flags"], 12: s["verify_time_ns"]}
        check("stage %d claims match the record" % i, c == want)
    print("%d passed, %d failed" % (passed, failed))
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())

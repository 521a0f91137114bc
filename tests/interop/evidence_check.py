#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Independent check of otattest evidence with code nobody in otattest wrote.

Decodes the COSE_Sign1 with cbor2, verifies its ES256 signature and the
certificate signatures with the cryptography package, holds every claim
the alias certificate certifies to its TCG MultiTcbInfo extension (read
with the cryptography package's X.509 extension API, its DER decoded
here after docs/evidence.md, "Alias certificate profile"), and compares
every claim with the boot record parsed here with struct from
docs/formats.md. Evidence profile v2 (docs/evidence.md, "Claims set"):
each registered EAT claim has the type RFC 9711 gives it, the measured
components the shape of draft-ietf-rats-eat-measured-component.
Imports nothing of otattest (tap.py only prints and counts). Run with
Debian's /usr/bin/python3 (python3-cbor2, python3-cryptography).

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

from tap import check, summary



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
    if [t for t, _ in info] != [0x02] * 19 or der_uint(info[0][1]) != 2:
        raise ValueError("DeviceState is not version 2 and eighteen INTEGERs")
    v = [der_uint(c) for _, c in info[1:]]
    device = dict(zip("lifecycle epoch min_svn floor_rom_ext floor_bl0 chain_max_svn "
                      "tag_key_version reset_reason update_state primary_slot booted_slot "
                      "revocation_seq revocation_seq_device trial_boots revert_reason "
                      "reverted_slot refused_count refused_slots".split(), v))
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
        # version 2: version 1 lacked the path reason and the usage flags
        if [t for t, _ in info[:7]] != [0x02] * 7 or der_uint(info[0][1]) != 2:
            raise ValueError("StageResults is not version 2 and six INTEGERs")
        r = dict(zip("path sig_scheme depth tag_key_version path_reason usage_flags".split(),
                     [der_uint(c) for _, c in info[1:7]]))
        ids = info[7:]
        if any(t != 0x04 or len(c) != 32 for t, c in ids) or len(ids) != r["depth"] + 1:
            raise ValueError("key ids are not depth + 1 OCTET STRINGs of 32 bytes")
        r["key_ids"] = [c for _, c in ids]
        r["svn"], r["measurement"] = der_uint(e[0x83]), e["digest"]
        stages[stage] = r
    return device, stages


def private(n):
    """Profile v2's private claim key n: -1 - (0x6f746100 + n), encoded 3a 6f 74 61 nn."""
    return -1 - (0x6f746100 + n)


PROFILE = "tag:otattest.org,2025:evidence-v2"
REGISTERED = [10, 256, 258, 262, 263, 265, 273, 274]
OEMID = bytes.fromhex("0066576800dbdedb39fe7780ec8f5bc0")
MC_CONTENT_FORMAT = 295   # CoAP Content-Format of application/measured-component+cbor
PATHS = ["none", "tag", "signature", "signature-retagged"]
STAGE_NAMES = {1: "rom_ext", 2: "bl0"}


def is_uint(v):
    return isinstance(v, int) and not isinstance(v, bool) and v >= 0


def rfc9711_types(claims):
    """[(claim, ok)] for each registered claim: the type RFC 9711 (and for 273's
    body draft-ietf-rats-eat-measured-component) gives it."""
    def nonce_ok(v):
        return isinstance(v, bytes) and 8 <= len(v) <= 64

    def ueid_ok(v):  # bstr 7..33; type RAND (0x01) is 16, 24 or 32 bytes after the type
        return isinstance(v, bytes) and 7 <= len(v) <= 33 and (v[0] != 1 or len(v) in (17, 25, 33))

    def oemid_ok(v):  # PEN (int), IEEE (bstr 3) or random (bstr 16)
        return (isinstance(v, int) and not isinstance(v, bool)) or \
            (isinstance(v, bytes) and len(v) in (3, 16))

    def measurements_ok(v):
        return isinstance(v, list) and len(v) >= 1 and all(
            isinstance(f, list) and len(f) == 2 and is_uint(f[0]) and f[0] <= 65535 and
            isinstance(f[1], bytes) for f in v)

    def measres_ok(v):
        return isinstance(v, list) and len(v) >= 1 and all(
            isinstance(g, list) and len(g) == 2 and isinstance(g[0], str) and
            isinstance(g[1], list) and len(g[1]) >= 1 and all(
                isinstance(r, list) and len(r) == 2 and isinstance(r[0], (str, bytes)) and
                r[1] in (1, 2, 3, 4) and not isinstance(r[1], bool) for r in g[1])
            for g in v)

    return [
        ("nonce (10) is bstr 8..64", nonce_ok(claims.get(10))),
        ("ueid (256) is bstr 7..33", ueid_ok(claims.get(256))),
        ("oemid (258) is a PEN, IEEE or random OEM ID", oemid_ok(claims.get(258))),
        ("oemboot (262) is bool", isinstance(claims.get(262), bool)),
        ("dbgstat (263) is one of 0..4", claims.get(263) in range(5) and
         not isinstance(claims.get(263), bool)),
        ("eat_profile (265) is a URI (tstr) or an OID (bstr)",
         isinstance(claims.get(265), (str, bytes))),
        ("measurements (273) is [+ [content-type uint, bstr]]", measurements_ok(claims.get(273))),
        ("measres (274) is [+ [tstr, [+ [id, result 1..4]]]]", measres_ok(claims.get(274))),
    ]


def measured_component(body, rom):
    """A measured component (draft-ietf-rats-eat-measured-component, CBOR), in the
    shape docs/evidence.md gives: (name, svn or None, digest, authorities)."""
    mc = cbor2.loads(body)
    if cbor2.dumps(mc, canonical=True) != body:
        raise ValueError("component not deterministically encoded")
    if not isinstance(mc, dict) or sorted(mc) != ([1, 2] if rom else [1, 2, 3]):
        raise ValueError("component keys %s" % sorted(mc) if isinstance(mc, dict) else "not a map")
    cid, digest = mc[1], mc[2]
    if not isinstance(cid, list) or not cid or not isinstance(cid[0], str):
        raise ValueError("component id is not [name, ? version]")
    svn = None
    if rom:
        if cid != ["rom"]:
            raise ValueError("the first component is not the ROM's")
    else:
        if len(cid) != 2 or not isinstance(cid[1], list) or len(cid[1]) != 2 or cid[1][1] != 1:
            raise ValueError("stage component version is not [svn, multipartnumeric]")
        text = cid[1][0]
        if not isinstance(text, str) or not text.isdigit() or str(int(text)) != text:
            raise ValueError("SVN version is not a decimal number")
        svn = int(text)
    if not isinstance(digest, list) or len(digest) != 2 or digest[0] != 1 or \
            not isinstance(digest[1], bytes) or len(digest[1]) != 32:
        raise ValueError("digest is not [1 (sha-256), 32 bytes]")
    auth = mc.get(3, [])
    if not rom and (not isinstance(auth, list) or not 1 <= len(auth) <= 3 or
                    any(not isinstance(k, bytes) or len(k) != 32 for k in auth)):
        raise ValueError("authorities are not 1..3 key ids of 32 bytes")
    return cid[0], svn, digest[1], auth


def v2_attempts(claims):
    """Every attempt put together from measurements, measres and the attempts
    claim, keyed 1..14 as the record's fields: stage slot status path
    sig-scheme depth svn tag-key-version measurement key-ids flags time
    path-reason usage-flags."""
    comps = claims[273]
    if any(f[0] != MC_CONTENT_FORMAT for f in comps):
        raise ValueError("a measurement is not a measured component (295)")
    rom = measured_component(comps[0][1], True)
    booted = [measured_component(f[1], False) for f in comps[1:]]
    groups, attempts = claims[274], claims[private(11)]
    if len(groups) != len(attempts):
        raise ValueError("measres and attempts differ in length")
    out, k = [], 0
    for g, a in zip(groups, attempts):
        if not g[0].startswith("otattest-boot/") or g[0][14:] not in PATHS or len(g[1]) != 1:
            raise ValueError("measres system %r" % g[0])
        path = PATHS.index(g[0][14:])
        keys = sorted(a)
        if keys not in ([1, 2, 3, 4, 5, 6, 7, 9, 10], [1, 2, 3, 4, 5, 6, 7, 8, 9, 10]):
            raise ValueError("attempt keys %s" % keys)
        if not 0 <= a[9] <= 10 or a[10] & ~0x3:  # 10: image-changed (record.h)
            raise ValueError("path reason %r or usage flags %r out of range" % (a[9], a[10]))
        if (8 in a) == bool(a[6] & 1):
            raise ValueError("a booted attempt has its own component, or a refused one lacks it")
        if 8 in a:
            name, svn, digest, auth = measured_component(a[8], False)
        else:
            if k >= len(booted):
                raise ValueError("a booted attempt without its measurement")
            name, svn, digest, auth = booted[k]
            k += 1
        if name != STAGE_NAMES.get(a[1]) or g[1][0][0] != name:
            raise ValueError("attempt, component and measres name different stages")
        want = 1 if a[3] == OTA_OK else (3 if path == 0 else 2)
        if g[1][0][1] != want:
            raise ValueError("measres result %r for status %#x path %d" % (g[1][0][1], a[3], path))
        out.append({1: a[1], 2: a[2], 3: a[3], 4: path, 5: a[4], 6: len(auth) - 1, 7: svn,
                    8: a[5], 9: digest, 10: auth, 11: a[6], 12: a[7], 13: a[9], 14: a[10]})
    if k != len(booted):
        raise ValueError("measurements list a stage no attempt booted")
    return rom[2], out


def device_named(cert, prefix):
    """The device id (hex) in cert's subject CN after prefix, or None."""
    cns = cert.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)
    cn = cns[0].value if len(cns) == 1 else ""
    return cn[len(prefix):] if cn.startswith(prefix) else None


def check_certified(claims, rom_identity, attempts, alias, ident):
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
    floors = claims.get(private(9), [None, None])
    for what, claim, cert in (
            ("lifecycle", claims.get(private(4)), device["lifecycle"]),
            ("epoch", claims.get(private(3)), device["epoch"]),
            ("min SVN", claims.get(private(2)), device["min_svn"]),
            ("ROM_EXT floor", floors[0], device["floor_rom_ext"]),
            ("BL0 floor", floors[1], device["floor_bl0"]),
            ("chain max SVN", claims.get(private(8)), device["chain_max_svn"]),
            ("tag key version", claims.get(private(5)), device["tag_key_version"]),
            ("ROM identity", rom_identity, device["rom_identity"])):
        check("alias certificate certifies the claimed %s" % what, claim == cert)
    # The update state (DeviceState version 2, issue 28); pending-update is not certified.
    refused = [c for c in attempts if not c.get(11, 0) & 1]
    revocation = claims.get(private(16), [None, None])
    revert = claims.get(private(18), [None, None])
    for what, claim, cert in (
            ("reset reason", claims.get(private(6)), device["reset_reason"]),
            ("update state", claims.get(private(12)), device["update_state"]),
            ("primary slot", claims.get(private(13)), device["primary_slot"]),
            ("booted slot", claims.get(private(14)), device["booted_slot"]),
            ("revocation sequence", revocation[0], device["revocation_seq"]),
            ("device revocation sequence", revocation[1], device["revocation_seq_device"]),
            ("trial boots", claims.get(private(17)), device["trial_boots"]),
            ("revert reason", revert[0], device["revert_reason"]),
            ("reverted slot", revert[1], device["reverted_slot"]),
            ("refused attempts", len(refused), device["refused_count"]),
            ("refused attempt slots", sum({1 << ((c.get(1, 1) - 1) * 2 + c.get(2, 0))
                                           for c in refused}), device["refused_slots"])):
        check("alias certificate certifies the claimed %s" % what, claim == cert)
    booted = [c for c in attempts if c.get(11, 0) & 1 and c.get(3) == OTA_OK]
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
                ("path reason", c.get(13), s["path_reason"]),
                ("usage flags", c.get(14), s["usage_flags"]),
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
        s["usage_flags"] = struct.unpack_from("<I", buf, off + 176)[0]  # effective usage flags
        s["verify_time_ns"], s["flags"], s["path_reason"] = struct.unpack_from("<QIH", buf, off + 200)
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
    check("claims set has exactly the documented keys",
          sorted(claims.keys()) == sorted(REGISTERED + [private(n) for n in range(1, 19)]))
    for what, ok in rfc9711_types(claims):
        check("RFC 9711: " + what, ok)
    check("nonce claim (10) is the nonce sent", claims.get(10) == nonce)
    check("eat_profile claim (265) is " + PROFILE, claims.get(265) == PROFILE)
    ueid = claims.get(256, b"")
    check("ueid claim (256) is 0x01 and 16 bytes", len(ueid) == 17 and ueid[0] == 1)
    check("oemid claim (258) is the otattest chip's", claims.get(258) == OEMID)
    cn = alias.subject.get_attributes_for_oid(x509.NameOID.COMMON_NAME)[0].value
    check("alias certificate names the ueid's device", cn == "otattest alias " + ueid[1:].hex())
    try:
        rom_identity, cs = v2_attempts(claims)
        check("measurements, measres and attempts agree (docs/evidence.md)", True)
    except (ValueError, KeyError, IndexError, TypeError, cbor2.CBORDecodeError) as e:
        check("measurements, measres and attempts agree (%s)" % e, False)
        rom_identity, cs = None, []
    lc = claims.get(private(4))
    check("dbgstat (263) is the lifecycle's (0 open, 3 prod, 4 prod_end)",
          claims.get(263) == {2: 3, 3: 4}.get(lc, 0))
    both = {c[1] for c in cs if c[11] & 1 and c[3] == OTA_OK}
    check("oemboot (262) says whether ROM_EXT and BL0 both booted verified",
          claims.get(262) is (both == {1, 2}))
    check_certified(claims, rom_identity, cs, alias, ident)
    if record is None:
        return summary()
    h, stages = parse_record(record)
    check("record header magic and length", h["magic"] == 0x5242544f and h["length"] == len(record))
    check("ueid claim (256) is 0x01 || the record's device id", ueid == b"\x01" + h["device_id"])
    check("record digest claim is SHA-256 of the record",
          claims.get(private(1)) == hashlib.sha256(record).digest())
    check("min SVN, epoch, lifecycle, tag key version match the record",
          [claims.get(private(n)) for n in (2, 3, 4, 5)] ==
          [h["min_svn"], h["epoch"], h["lifecycle"], h["tag_key_version"]])
    check("reset reason, flags, ROM identity, chain max SVN match",
          (claims.get(private(6)), claims.get(private(7)), rom_identity, claims.get(private(8))) ==
          (h["reset_reason"], h["flags"], h["rom_identity"], h["chain_max_svn"]))
    check("floors and generation match",
          claims.get(private(9)) == [h["floor_rom_ext"], h["floor_bl0"]] and
          claims.get(private(10)) == h["generation"])
    check("one attempt per record stage", len(cs) == len(stages) and len(cs) > 0)
    for i, (c, s) in enumerate(zip(cs, stages)):
        want = {1: s["stage"], 2: s["slot"], 3: s["status"], 4: s["path"], 5: s["sig_scheme"],
                6: s["depth"], 7: s["svn"], 8: s["tag_key_version"], 9: s["measurement"],
                10: s["key_ids"], 11: s["flags"], 12: s["verify_time_ns"],
                13: s["path_reason"], 14: s["usage_flags"]}
        check("attempt %d claims match the record" % i, c == want)
    return summary()


if __name__ == "__main__":
    sys.exit(main())

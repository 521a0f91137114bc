#!/usr/bin/env python3.11
"""Hold otattest's evidence, CoRIM and EAR to the specifications' own CDDL.

The grammars are the specifications' CDDL files, vendored unchanged in
tests/interop/cddl/ (SOURCES.md says from where and at which commit); the
evidence profile's own CDDL (its private claims, its mandatory claims, the
types it narrows) is read from docs/evidence.md's `cddl` block. The
validator is PyPI cddl-verifier and the EDN examples are turned into CBOR
by PyPI cbor-diag, both pinned in scripts/deps.sh.

  cddl_check.py examples SPEC        the spec's own examples pass, planted
                                     violations of each fail (SPEC: eat,
                                     corim, ear)
  cddl_check.py evidence FILE        COSE_Sign1 evidence: the payload as an
                                     EAT claims set, the whole as the profile
  cddl_check.py corim FILE           a signed CoRIM against the draft's CDDL
  cddl_check.py ear FILE.jwt         an EAR's JWT claims set against the EAR
                                     draft (with its Veraison extension)
  cddl_check.py evidence-plants FILE violations planted in fresh evidence:
                                     each refused where it breaks a grammar
  cddl_check.py corim-plants FILE    violations planted in a fresh CoRIM
  cddl_check.py claims FILE.cbor     a bare claims set

Each check prints "ok - ..." or "not ok - ..."; the last line is
"N passed, N failed"; the exit code is 1 when any check failed.

EAT's `.feature` controls are held to the one feature a CBOR EAT uses,
"cbor": with every feature on (the validator's default, and RFC 9165 leaves
it open), `Claim-Label .feature "extended-claims-label" => any` lets any
claim of any type through, and a planted wrong type would pass.
"""
import base64
import json
import os
import re
import subprocess
import sys
import warnings

import cbor2
import cbor_diag
import cddl_verifier

HERE = os.path.dirname(os.path.abspath(__file__))
CDDL = os.path.join(HERE, "cddl")
ROOT = os.path.dirname(os.path.dirname(HERE))
DOC = os.path.join(ROOT, "docs", "evidence.md")

passed = failed = 0


def ok(cond, name, why=""):
    global passed, failed
    if cond:
        passed += 1
        print(f"ok - {name}")
    else:
        failed += 1
        print(f"not ok - {name}" + (f": {why}" if why else ""))


def read(*parts):
    with open(os.path.join(CDDL, *parts), encoding="utf-8") as f:
        return f.read()


def frag_list(mk, var, folder):
    """A fragment list as the spec's own makefile orders it."""
    out = subprocess.run(["make", "-s", "-f", mk, "-f", "-", "print"], cwd=folder,
                         input=f"print: ; @echo $({var})\n", capture_output=True,
                         text=True, check=True)
    return out.stdout.split()


# The validator takes `;# import MODULE [as PREFIX]` and `;# include
# MODULE` but not the modules draft's selective form, `;# import NAMES from
# MODULE [as PREFIX]`. The selective form takes some of a module's rules, so
# taking the whole module instead defines the same names with the same
# meaning (a clash with another name is reported, not hidden).
SELECTIVE = re.compile(r"^;# import (\S+) from (\S+)( as \S+)?$", re.M)


def whole_module_imports(text):
    return SELECTIVE.sub(lambda m: f";# import {m.group(2)}{m.group(3)}" if m.group(3)
                         else f";# include {m.group(2)}", text)


def fold_identical_rules(text):
    """Drop a rule that repeats an earlier one word for word, as the specs'
    build tool (cddlc) does; the validator refuses any second definition. A
    rule is a line starting at column 0 and the indented lines under it."""
    out, seen, rule = [], set(), []

    def flush():
        body = "\n".join(rule)
        # The rule itself, without the blank and comment lines after it.
        key = re.sub(r"(\n\s*(;[^\n]*)?)*$", "", body)
        if rule and re.match(r"[^;\s]", rule[0]) and "/=" not in rule[0]:
            if key in seen:
                out.append("\n".join(line for line in rule[1:] if line.lstrip().startswith(";")))
                return
            seen.add(key)
        out.append(body)

    for line in text.splitlines():
        if line and not line[0].isspace() and line[0] not in ";}])":
            flush()
            rule = [line]
        else:
            rule.append(line)
    flush()
    return "\n".join(out)


def concat(folder, frags):
    """The fragments as one schema, as the specs' builds join them: each
    import once (every fragment that uses a module names it)."""
    seen, out = set(), []
    for f in frags:
        lines = []
        for line in whole_module_imports(read(folder, f)).splitlines():
            if line.startswith(";# "):
                if line in seen:
                    continue
                seen.add(line)
            lines.append(line)
        out.append(f"; ==== {f}\n" + "\n".join(lines))
    return fold_identical_rules("\n".join(out))


def mc_module():
    """draft-ietf-rats-eat-measured-component's CDDL as one module, in its
    makefile's order, with its EAT stub (rfc9711.cddl) and without
    eat-plug.cddl (it extends EAT's sockets, which the importer does)."""
    frags = ["mc.cddl", "component-id.cddl", "digest.cddl", "common-types.cddl",
             "labels.cddl", "authority.cddl", "profile-flags.cddl", "rfc9711.cddl"]
    return concat("measured-component", frags)


def modules():
    # RFC 9393 (CoSWID) and RFC 9164 (IP addresses) are the RFCs' CDDL as
    # the validator's package ships them (bundled_modules).
    return {
        "measured-component": mc_module(),
        # RFC 9090's tags for OIDs, which the EAR draft's EAT stub names
        # (its build tool ships the module; the three rules are the RFC's).
        "rfc9090": read("rfc9090.cddl"),
    }


def validator(text, features):
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # a module that is not found is an error
        return cddl_verifier.Validator(text, modules=modules(), strict_modules=True,
                                       bundled_modules=True, features=features)


def profile_cddl():
    """The profile's CDDL: the ```cddl block of docs/evidence.md."""
    with open(DOC, encoding="utf-8") as f:
        doc = f.read()
    blocks = re.findall(r"^```cddl\n(.*?)^```$", doc, re.S | re.M)
    if len(blocks) != 1:
        raise SystemExit(f"docs/evidence.md: want one cddl block, found {len(blocks)}")
    return blocks[0]


def eat_text(with_profile):
    frags = frag_list("CDDL-FRAGS.mk", "CBOR_PAYLOAD_VALIDATION_CDDL_FRAGS",
                      os.path.join(CDDL, "eat"))
    text = concat("eat", frags)
    if with_profile:
        text += "\n; ==== docs/evidence.md\n" + profile_cddl()
    return text


def corim_text():
    frags = frag_list("corim-frags.mk", "CORIM_FRAGS", os.path.join(CDDL, "corim"))
    # The draft's build turns `COMID_IMPORTS += eatmc=measured-component`
    # into an import; the fragments carry the directive themselves.
    return concat("corim", frags)


def ear_text():
    frags = ["ear.cddl", "ear-appraisal.cddl", "ext-veraison.cddl"]
    text = concat("ear", frags)
    # The draft's EAT stub (rfc9711.cddl) and AR4SI types come in as
    # modules, as its makefile's `cddlc -i` does.
    return text


def ear_validator(features):
    mods = modules()
    # The draft's EAT stub names EAT's Nested-Token without defining it (its
    # build tool runs with undefined names allowed); only EAT's own
    # Submodule reaches it, never an EAR, whose submods are EAR-appraisal
    # maps. Defined here as matching nothing.
    mods["rfc9711"] = (";# include rfc9090\n;# include untagged-coswid\n"
                       + read("ear", "rfc9711.cddl")
                       + "\nNested-Token = true .and false\n")
    mods["ar4si"] = read("ear", "ar4si.cddl")
    mods["untagged-coswid"] = fold_identical_rules(read("ear", "untagged-coswid.cddl"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return cddl_verifier.Validator(ear_text(), modules=mods, strict_modules=True,
                                       bundled_modules=True, features=features)


def check(v, data, root, name, want=True):
    r = v.validate(data, root)
    why = "; ".join(str(d)[:300] for d in r.diagnostics[:2])
    if want:
        ok(r.valid, name, why)
    else:
        ok(not r.valid, name, "the validator accepted it")
    return r


def diag(path):
    with open(path, encoding="utf-8") as f:
        return cbor_diag.diag2cbor(f.read())


def examples_dir(spec):
    return os.path.join(CDDL, spec, "examples")


# --- the specifications' own examples -------------------------------------

# Examples that are valid only with EAT's extended-claims-label feature:
# each carries a claim EAT does not define (a private claim of a profile the
# example does not give, or a type EAT's CDDL does not allow).
EAT_NEEDS_EXTENDED = {
    "valid_key_store.diag": "claim -80000 is a private claim no CDDL here defines",
    "submods.diag": "its submodules' sw-version (271) is a text, EAT's CDDL wants [version, ?scheme]",
}


def eat_plants(src):
    """Violations planted in valid_tee.diag: (name, edited EDN)."""
    out = []
    for name, old, new in [
        ("a nonce that is an integer", "10: h'48df7b172d70b5a18935d0460a73dd71'", "10: 5"),
        ("dbgstat 9 (EAT defines 0..4)", "263: 2", "263: 9"),
        ("oemboot a text", "262: true", '262: "yes"'),
        ("an unknown claim -80000", "262: true", "262: true, -80000: 1"),
    ]:
        assert src.count(old) == 1, old
        out.append((name, src.replace(old, new)))
    return out


def examples_eat():
    v = validator(eat_text(False), {"cbor"})
    v_all = validator(eat_text(False), None)
    d = examples_dir("eat")
    for f in sorted(os.listdir(d)):
        data = diag(os.path.join(d, f))
        if f in EAT_NEEDS_EXTENDED:
            check(v, data, "Claims-Set", f"EAT {f} is refused without extended-claims-label "
                  f"({EAT_NEEDS_EXTENDED[f]})", want=False)
            check(v_all, data, "Claims-Set", f"EAT {f} passes with every feature on")
        else:
            check(v, data, "Claims-Set", f"EAT {f} is a valid Claims-Set")
    with open(os.path.join(d, "valid_tee.diag"), encoding="utf-8") as fh:
        src = fh.read()
    for name, text in eat_plants(src):
        data = cbor_diag.diag2cbor(text)
        check(v, data, "Claims-Set", f"EAT valid_tee with {name} is refused", want=False)
        # The trap the issue names: every feature on lets it through.
        r = v_all.validate(data, "Claims-Set")
        ok(r.valid, f"EAT valid_tee with {name} passes with extended-claims-label on "
           "(why the feature stays off)")


def corim_plants(src):
    out = []
    for name, old, new in [
        ("the corim id a float", "/ corim.id / 0 : h'", "/ corim.id / 0 : 1.5, 99: h'"),
    ]:
        if src.count(old) == 1:
            out.append((name, src.replace(old, new)))
    return out


def examples_corim():
    v = validator(corim_text(), {"cbor"})
    d = examples_dir("corim")
    for f in sorted(os.listdir(d)):
        data = diag(os.path.join(d, f))
        root = "corim" if f.startswith("corim-") else "concise-mid-tag"
        check(v, data, root, f"CoRIM {f} is a valid {root}")
    # Planted: each one breaks the grammar of corim-1.diag in one place.
    data = cbor2.loads(diag(os.path.join(d, "corim-1.diag")))
    body = data.value
    tags = body[1]
    plants = []
    plants.append(("the corim id a float", {**body, 0: 1.5}))
    plants.append(("no tags (a mandatory member)", {k: w for k, w in body.items() if k != 1}))
    # The form the draft does not allow: tag 506 inside the byte string.
    inner = cbor2.loads(tags[0].value)
    plants.append(("a CoMID as << 506({...}) >> (tag inside the byte string)",
                   {**body, 1: [cbor2.dumps(cbor2.CBORTag(506, inner))]}))
    plants.append(("a CoMID as 506({...}) (no byte string)",
                   {**body, 1: [cbor2.CBORTag(506, inner)]}))
    bad_comid = {k: w for k, w in inner.items() if k != 4}  # triples are mandatory
    plants.append(("a CoMID without triples", {**body, 1: [cbor2.CBORTag(506, cbor2.dumps(bad_comid))]}))
    for name, b in plants:
        check(v, cbor2.dumps(cbor2.CBORTag(501, b)), "corim", f"CoRIM corim-1 with {name} is refused",
              want=False)


def ear_json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def examples_ear():
    vj = ear_validator({"json"})
    vc = ear_validator({"cbor"})
    d = examples_dir("ear")
    for f in sorted(os.listdir(d)):
        path = os.path.join(d, f)
        if "-json-" in f:
            check(vj, cbor2.dumps(ear_json(path)), "EAR", f"EAR {f} is a valid EAR (JSON)")
        else:
            check(vc, diag(path), "EAR", f"EAR {f} is a valid EAR (CBOR)")
    base = ear_json(os.path.join(d, "ext-veraison-json-1.diag"))
    sub = next(iter(base["submods"]))
    plants = [
        ("no ear.verifier-id (mandatory)", {k: w for k, w in base.items() if k != "ear.verifier-id"}),
        ("iat a text", {**base, "iat": "now"}),
        ("a submodule's ear.status 'ok'",
         {**base, "submods": {sub: {**base["submods"][sub], "ear.status": "ok"}}}),
        ("a submodule without ear.status",
         {**base, "submods": {sub: {k: w for k, w in base["submods"][sub].items() if k != "ear.status"}}}),
    ]
    for name, e in plants:
        check(vj, cbor2.dumps(e), "EAR", f"EAR ext-veraison-json-1 with {name} is refused", want=False)


# --- otattest's own output -------------------------------------------------

def cose_payload(ev):
    t = cbor2.loads(ev)
    if not isinstance(t, cbor2.CBORTag) or t.tag != 18 or len(t.value) != 4:
        raise ValueError("not a tagged COSE_Sign1")
    return t.value[2]


def check_evidence(path):
    with open(path, "rb") as f:
        ev = f.read()
    v = validator(eat_text(True), {"cbor"})
    try:
        payload = cose_payload(ev)
    except Exception as e:  # noqa: BLE001 - hostile input: any decode failure is a refusal
        ok(False, f"{path}: a tagged COSE_Sign1", str(e))
        return
    check(v, payload, "Claims-Set", "evidence payload is an EAT Claims-Set (RFC 9711 CDDL + the profile's claims)")
    check(v, ev, "otattest-evidence", "evidence is an otattest-evidence (docs/evidence.md's CDDL)")


def evidence_plants(claims):
    """Violations planted in fresh claims: (name, claims, valid as an EAT
    Claims-Set, valid as otattest-claims)."""
    ota = lambda n: -1 - (0x6F746100 + n)  # noqa: E731 - docs/evidence.md's private keys
    attempts = claims[ota(11)]
    booted = next(i for i, a in enumerate(attempts) if a[6] & 1)
    mc = cbor2.loads(claims[273][0][1])
    raw_mc = {1: mc[1], 5: b"raw"}  # a raw measurement in place of the digest
    bad_attempts = list(attempts)
    bad_attempts[booted] = {**attempts[booted], 8: claims[273][0][1]}
    return [
        ("oemboot the integer 1 (a wrong type)", {**claims, 262: 1}, False, False),
        ("no nonce (a claim the profile makes mandatory)",
         {k: v for k, v in claims.items() if k != 10}, True, False),
        ("record-flags a text (a private claim's wrong type)", {**claims, ota(7): "3"}, False, False),
        ("an unknown private claim", {**claims, ota(19): 0}, False, False),
        # EAT's own nonce-type (8..64 bytes) would refuse this too, but
        # cddl-verifier 1.5.3 drops a .size inside a generic's argument
        # (JC<tstr .size ..., bstr .size ...>), so only the profile's
        # restated bound catches it (docs/verifier.md, "Grammars").
        ("a nonce of 2 bytes", {**claims, 10: b"12"}, None, False),
        ("dbgstat 1 (EAT allows it, the profile does not)", {**claims, 263: 1}, True, False),
        ("a nonce of 8 bytes (EAT allows it, the profile wants 16..64)", {**claims, 10: b"12345678"},
         True, False),
        ("a measured component with a raw measurement (the profile only digests)",
         {**claims, 273: [[295, cbor2.dumps(raw_mc)]] + claims[273][1:]}, True, False),
        ("a booted attempt with its own component", {**claims, ota(11): bad_attempts}, False, False),
        ("lifecycle 5 (past rma)", {**claims, ota(4): 5}, False, False),
    ]


def check_evidence_plants(path):
    with open(path, "rb") as f:
        t = cbor2.loads(f.read())
    claims = cbor2.loads(t.value[2])
    v = validator(eat_text(True), {"cbor"})
    check(v, cbor2.dumps(claims), "otattest-claims", "the claims re-encoded unchanged are otattest-claims")
    for name, c, eat_ok, ota_ok in evidence_plants(claims):
        data = cbor2.dumps(c)
        if eat_ok is not None:
            check(v, data, "Claims-Set", f"{name}: {'an' if eat_ok else 'no'} EAT Claims-Set", want=eat_ok)
        t.value[2] = data
        check(v, cbor2.dumps(t), "otattest-evidence", f"{name}: no otattest-evidence", want=ota_ok)


def check_claims(path, want):
    with open(path, "rb") as f:
        claims = f.read()
    v = validator(eat_text(True), {"cbor"})
    check(v, claims, "Claims-Set", f"{os.path.basename(path)} as an EAT Claims-Set", want=want)
    check(v, claims, "otattest-claims", f"{os.path.basename(path)} as otattest-claims", want=want)


def check_corim(path, want=True):
    with open(path, "rb") as f:
        data = f.read()
    v = validator(corim_text(), {"cbor"})
    check(v, data, "corim", f"{os.path.basename(path)} is a corim (signed-corim) by the draft's CDDL", want=want)
    if not want:
        return
    t = cbor2.loads(data)
    unsigned = cbor2.loads(t.value[2])
    check(v, cbor2.dumps(unsigned), "tagged-unsigned-corim-map", "its payload is a tagged-unsigned-corim-map")
    for i, tag in enumerate(unsigned.value[1]):
        check(v, cbor2.dumps(tag), "tagged-concise-mid-tag", f"its tag {i} is a tagged-concise-mid-tag")


def check_corim_plants(path):
    """Violations planted in a fresh CoRIM's payload (the grammar only: the
    signature is not the validator's business)."""
    with open(path, "rb") as f:
        t = cbor2.loads(f.read())
    unsigned = cbor2.loads(t.value[2])
    body = unsigned.value
    comid = cbor2.loads(body[1][0].value)
    triples = comid[4][0]  # reference triples
    env, meas = triples[0]
    v = validator(corim_text(), {"cbor"})

    def with_comid(c):
        return cbor2.dumps(cbor2.CBORTag(501, {**body, 1: [cbor2.CBORTag(506, cbor2.dumps(c))] + body[1][1:]}))

    mval = meas[0][1]
    plants = [
        ("the corim id an integer list", cbor2.dumps(cbor2.CBORTag(501, {**body, 0: [1]}))),
        ("no tags", cbor2.dumps(cbor2.CBORTag(501, {k: w for k, w in body.items() if k != 1}))),
        ("a CoMID without its tag-identity", with_comid({k: w for k, w in comid.items() if k != 1})),
        ("an svn a text", with_comid({**comid, 4: {0: [[env, [{**meas[0], 1: {**mval, 1: "7"}}]]]}})),
        ("a digest without its algorithm",
         with_comid({**comid, 4: {0: [[env, [{**meas[0], 1: {**mval, 2: [[mval[2][0][1]]]}}]]]}})),
        ("the CoMID as << 506({...}) >> (Veraison 1.1.2's form)",
         cbor2.dumps(cbor2.CBORTag(501, {**body, 1: [cbor2.dumps(cbor2.CBORTag(506, comid))]}))),
    ]
    for name, data in plants:
        check(v, data, "tagged-unsigned-corim-map", f"{os.path.basename(path)} with {name} is refused",
              want=False)


def jwt_claims(path):
    with open(path, encoding="ascii") as f:
        tok = f.read().strip()
    part = tok.split(".")[1]
    return json.loads(base64.urlsafe_b64decode(part + "=" * (-len(part) % 4)))


def check_ear(path, want=True):
    claims = jwt_claims(path) if path.endswith(".jwt") else ear_json(path)
    check(ear_validator({"json"}), cbor2.dumps(claims), "EAR",
          f"{os.path.basename(path)} is an EAR by the EAR draft's CDDL (JSON, Veraison extension)", want=want)


def main(argv):
    if len(argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd, args = argv[1], argv[2:]
    want = True
    if args and args[0] == "--invalid":
        want, args = False, args[1:]
    if cmd == "examples":
        {"eat": examples_eat, "corim": examples_corim, "ear": examples_ear}[args[0]]()
    elif cmd == "evidence":
        for p in args:
            check_evidence(p)
    elif cmd == "evidence-plants":
        for p in args:
            check_evidence_plants(p)
    elif cmd == "corim-plants":
        for p in args:
            check_corim_plants(p)
    elif cmd == "claims":
        for p in args:
            check_claims(p, want)
    elif cmd == "corim":
        for p in args:
            check_corim(p, want)
    elif cmd == "ear":
        for p in args:
            check_ear(p, want)
    else:
        print(__doc__, file=sys.stderr)
        return 2
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check that the netlink family's three descriptions agree.

    kernel/netlink/check-spec.py [SPEC GENL_H NETLINK_C]

SPEC is kernel/netlink/otattest.yaml (the kernel's genetlink YAML spec
format), GENL_H the UAPI header, NETLINK_C the driver's policies and ops
table; the defaults are those files in this tree. Checked:

  - the spec's shape: required keys, attribute types the format knows,
    operations and events naming attributes that exist;
  - every command, attribute, event and driver-state name and value in
    the spec equals the enum in genl.h, and the other way round;
  - the spec's constants equal the headers' (nonce lengths, SVN limit);
  - for each command, netlink.c's policy accepts exactly the attributes
    the spec lists for its request, with the same types and checks, and
    the admin-perm flag and do/dump handlers match.

Prints one line per check and "N passed, N failed"; exits 1 on failure.
Uses Debian's python3-yaml, hence /usr/bin/python3.
"""
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.normpath(os.path.join(HERE, "..", ".."))
ATTR_TYPES = {"unused", "pad", "flag", "binary", "uint", "sint", "u8", "u16",
              "u32", "u64", "s32", "s64", "string", "nest", "array-nest",
              "nest-type-value"}
NLA_TYPE = {"u32": "NLA_U32", "string": "NLA_NUL_STRING", "binary": "NLA_BINARY",
            "u8": "NLA_U8", "u16": "NLA_U16", "u64": "NLA_U64", "flag": "NLA_FLAG"}

passed = 0
failed = 0


def check(ok, what):
    global passed, failed
    if ok:
        passed += 1
        print(f"ok - {what}")
    else:
        failed += 1
        print(f"not ok - {what}")
    return ok


def c_name(prefix, name):
    return (prefix + name).upper().replace("-", "_")


def strip_comments(text):
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    return re.sub(r"//[^\n]*", "", text)


def c_int(text, defines):
    """Evaluate a small C constant expression: numbers, defines, + and -."""
    expr = text.strip()
    for _ in range(8):
        new = re.sub(r"\b([A-Z_][A-Z0-9_]*)\b",
                     lambda m: str(defines.get(m.group(1), m.group(1))), expr)
        if new == expr:
            break
        expr = new
    expr = re.sub(r"\b(0x[0-9a-fA-F]+|[0-9]+)[uUlL]+\b", r"\1", expr)
    expr = expr.replace("(", " ").replace(")", " ")
    if not re.fullmatch(r"[0-9a-fx +\-]+", expr):
        raise ValueError(f"cannot evaluate {text!r}")
    return eval(expr, {"__builtins__": {}})  # digits and +/- only (checked above)


def parse_defines(text):
    defines = {}
    for m in re.finditer(r"^\s*#define\s+([A-Z_][A-Z0-9_]*)\s+([^\n]+)$", text, re.M):
        defines[m.group(1)] = m.group(2).strip()
    resolved = {}
    for k, v in defines.items():
        try:
            resolved[k] = c_int(v, defines)
        except (ValueError, SyntaxError):
            pass
    return resolved


def parse_enum(text, name):
    m = re.search(r"enum\s+" + name + r"\s*\{(.*?)\};", text, re.S)
    if not m:
        return None
    out, value = {}, -1
    for item in m.group(1).split(","):
        item = item.strip()
        if not item:
            continue
        if "=" in item:
            ident, val = (s.strip() for s in item.split("=", 1))
            value = c_int(val, {})
        else:
            ident, value = item, value + 1
        if not ident.startswith("__"):
            out[ident] = value
    return out


def spec_attrs(spec):
    aset = spec["attribute-sets"][0]
    out, value = {}, -1
    for a in aset["attributes"]:
        value = a.get("value", value + 1)
        out[c_name(aset["name-prefix"], a["name"])] = value
    return out


def spec_ops(spec):
    ops = spec["operations"]
    out, value = {}, 0
    for op in ops["list"]:
        value = op.get("value", value + 1)
        out[c_name(ops["name-prefix"], op["name"])] = value
    return out


def spec_enum(defn):
    start = defn.get("value-start", 0)
    out = {}
    for i, e in enumerate(defn["entries"]):
        name = e if isinstance(e, str) else e["name"]
        out[c_name(defn["name-prefix"], name)] = start + i
    return out


def compare(what, spec_map, header_map, ignore=()):
    header_map = {k: v for k, v in (header_map or {}).items() if k not in ignore}
    check(header_map != {}, f"{what}: the header defines the enum")
    for k, v in spec_map.items():
        check(header_map.get(k) == v, f"{what}: {k} = {v} in both")
    for k in header_map:
        if k not in spec_map:
            check(False, f"{what}: {k} (header) is in the spec")


def check_shape(spec):
    for key in ("name", "doc", "attribute-sets", "operations"):
        check(key in spec, f"spec has '{key}'")
    check(spec.get("protocol", "genetlink") == "genetlink", "protocol is genetlink")
    aset = spec["attribute-sets"][0]
    names = {a["name"] for a in aset["attributes"]}
    for a in aset["attributes"]:
        check(a.get("type") in ATTR_TYPES, f"attribute {a['name']}: type '{a.get('type')}' is valid")
    groups = {g["name"] for g in spec.get("mcast-groups", {}).get("list", [])}
    for op in spec["operations"]["list"]:
        check("doc" in op, f"operation {op['name']} is documented")
        listed = []
        for kind in ("do", "dump"):
            for part in ("request", "reply"):
                listed += op.get(kind, {}).get(part, {}).get("attributes", [])
        listed += op.get("event", {}).get("attributes", [])
        unknown = sorted(set(listed) - names)
        check(not unknown, f"operation {op['name']}: attributes exist ({', '.join(unknown) or 'all'})")
        if "mcgrp" in op:
            check(op["mcgrp"] in groups, f"operation {op['name']}: group {op['mcgrp']} exists")


def parse_policies(c_text, defines):
    """{policy_name: {ATTR: entry text}} from netlink.c."""
    out = {}
    for m in re.finditer(r"nla_policy\s+(\w+)\s*\[[^\]]*\]\s*=\s*\{(.*?)\n\};", c_text, re.S):
        body, entries = m.group(2), {}
        keys = list(re.finditer(r"\[(OTATTEST_A_\w+)\]\s*=", body))
        for i, k in enumerate(keys):
            end = keys[i + 1].start() if i + 1 < len(keys) else len(body)
            entries[k.group(1)] = " ".join(body[k.end():end].split()).rstrip(", ")
        out[m.group(1)] = entries
    return out


def parse_ops(c_text):
    """{OTATTEST_CMD_X: {field: value}} from the genl_ops table."""
    m = re.search(r"genl_ops\s+\w+\[\]\s*=\s*\{(.*?)\n\};", c_text, re.S)
    out = {}
    if not m:
        return out
    for block in re.findall(r"\{(.*?)\}", m.group(1), re.S):
        fields = dict(re.findall(r"\.(\w+)\s*=\s*([^,\n]+)", block))
        if "cmd" in fields:
            out[fields["cmd"].strip()] = {k: v.strip() for k, v in fields.items()}
    return out


def check_policy_entry(cmd, attr, spec_attr, entry, defines):
    typ = spec_attr["type"]
    checks = spec_attr.get("checks", {})
    consts = {"nonce-min": defines.get("OTA_NONCE_MIN"), "nonce-max": defines.get("OTA_NONCE_MAX")}

    def val(x):
        return consts.get(x, x) if isinstance(x, str) else x

    want = NLA_TYPE.get(typ)
    check(want is not None and want in entry, f"{cmd} {attr}: policy type {want} ({entry})")
    if typ == "binary" and ("min-len" in checks or "max-len" in checks):
        m = re.search(r"NLA_POLICY_RANGE\(NLA_BINARY,\s*(\w+),\s*(\w+)\)", entry)
        ok = bool(m) and c_int(m.group(1), defines) == val(checks.get("min-len", 0)) and \
            c_int(m.group(2), defines) == val(checks.get("max-len"))
        check(ok, f"{cmd} {attr}: length {val(checks.get('min-len'))}..{val(checks.get('max-len'))}")
    elif "max-len" in checks and typ == "string":
        m = re.search(r"\.len\s*=\s*([^,}]+)", entry)
        ok = bool(m) and c_int(m.group(1), defines) == val(checks["max-len"])
        check(ok, f"{cmd} {attr}: string at most {checks['max-len']} bytes")
    if "max" in checks:
        m = re.search(r"NLA_POLICY_MAX\(NLA_U32,\s*(\w+)\)", entry)
        ok = bool(m) and c_int(m.group(1), defines) == checks["max"]
        check(ok, f"{cmd} {attr}: at most {checks['max']}")


def main(argv):
    spec_path = argv[1] if len(argv) > 1 else os.path.join(HERE, "otattest.yaml")
    genl_path = argv[2] if len(argv) > 2 else os.path.join(ROOT, "libotattest/include/otattest/genl.h")
    c_path = argv[3] if len(argv) > 3 else os.path.join(ROOT, "kernel/netlink.c")
    inc = os.path.dirname(genl_path)

    with open(spec_path) as f:
        spec = yaml.safe_load(f)
    genl = strip_comments(open(genl_path).read())
    c_text = strip_comments(open(c_path).read())
    defines = {}
    for h in ("types.h", "common.h", "mailbox.h", "shm.h", "genl.h"):
        defines.update(parse_defines(strip_comments(open(os.path.join(inc, h)).read())))
    defines.update(parse_defines(c_text))

    check_shape(spec)

    gdef = {}
    for m in re.finditer(r'#define\s+(OTATTEST_GENL_\w+)\s+"([^"]*)"', genl):
        gdef[m.group(1)] = m.group(2)
    check(spec["name"] == gdef.get("OTATTEST_GENL_NAME"), f"family name '{spec['name']}'")
    groups = [g["name"] for g in spec["mcast-groups"]["list"]]
    check(groups == [gdef.get("OTATTEST_GENL_MCGRP_EVENTS")], f"multicast groups {groups}")
    check("OTATTEST_GENL_MCGRP_EVENTS" in c_text, "netlink.c registers the events group")

    compare("commands", spec_ops(spec), parse_enum(genl, "otattest_cmd"),
            ignore=("OTATTEST_CMD_UNSPEC",))
    compare("attributes", spec_attrs(spec), parse_enum(genl, "otattest_attr"))
    for d in spec.get("definitions", []):
        if d["type"] == "enum":
            compare(f"enum {d['enum-name']}", spec_enum(d), parse_enum(genl, d["enum-name"]))
    consts = {d["name"]: d["value"] for d in spec["definitions"] if d["type"] == "const"}
    for name, macro in (("nonce-min", "OTA_NONCE_MIN"), ("nonce-max", "OTA_NONCE_MAX"),
                        ("svn-limit", "OTA_SVN_LIMIT"),
                        ("update-slot-other", "OTA_UPDATE_SLOT_OTHER")):
        check(consts.get(name) == defines.get(macro), f"const {name} = {macro} ({defines.get(macro)})")

    aset = spec["attribute-sets"][0]
    by_c = {c_name(aset["name-prefix"], a["name"]): a for a in aset["attributes"]}
    policies = parse_policies(c_text, defines)
    ops = parse_ops(c_text)
    prefix = spec["operations"]["name-prefix"]
    for op in spec["operations"]["list"]:
        cmd = c_name(prefix, op["name"])
        if "event" in op:
            check(cmd not in ops, f"{cmd}: notification only, no handler")
            continue
        entry = ops.get(cmd)
        if not check(entry is not None, f"{cmd}: netlink.c has a handler"):
            continue
        check(("do" in op) == ("doit" in entry), f"{cmd}: do handler matches the spec")
        check(("dump" in op) == ("dumpit" in entry), f"{cmd}: dump handler matches the spec")
        admin = "admin-perm" in op.get("flags", [])
        check(admin == ("GENL_ADMIN_PERM" in entry.get("flags", "")),
              f"{cmd}: GENL_ADMIN_PERM {'set' if admin else 'unset'}")
        pol = policies.get(entry.get("policy", ""), None)
        if not check(pol is not None, f"{cmd}: has policy {entry.get('policy')}"):
            continue
        want = {c_name(aset["name-prefix"], a) for a in op["do"]["request"]["attributes"]}
        check(set(pol) == want, f"{cmd}: policy accepts exactly {sorted(want)}")
        for attr in sorted(set(pol) & want):
            check_policy_entry(cmd, attr, by_c[attr], pol[attr], defines)

    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

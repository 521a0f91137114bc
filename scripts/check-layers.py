#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The layering rule, checked on what the compiler and linker actually used.

The tree is laid out in the order data flows, and a folder uses only the
folders below it. LAYERS below is the one statement of that rule: each
folder, bottom first, with the folders it may use. HACKING.md's layout
table is printed from it (--markdown) and compared in `make test`.

Two uses are checked, from a build tree (default: build/):
  includes  every header in an object's dependency file (-MMD, as the
            compiler resolved it) and every quoted #include of the kernel
            module's sources must sit in the object's own folder or one it
            may use;
  calls     every undefined symbol of an object (nm) that another of the
            project's objects defines must be defined in the object's own
            folder or one it may use. This catches call cycles that a
            local extern declaration would hide from the include check.

  scripts/check-layers.py [--build DIR]     check; exit 1 on a violation
  scripts/check-layers.py --markdown        the table for HACKING.md
  scripts/check-layers.py --check-doc FILE  the table in FILE is current
"""
import argparse
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# The firmware reaches the chip only by calling hal.h's functions: the
# chip's own headers are not for it. A use marked ":calls" allows calls
# into the folder but no include from it.
CHIP_BY_HAL = "qemu-model/chip:calls"
# The stages reach the drivers the same way: hal.h's calls, no include.
DRIVERS_BY_HAL = "firmware/drivers:calls"

# (folder, what it is, folders it may use besides itself), bottom first.
LAYERS = [
    ("libotattest/include", "wire formats, status list, mailbox and netlink contracts", []),
    ("qemu-model/regs", "the chip's register map: one description per block, the top, and the C headers generated from them",
     []),
    ("firmware/include", "the chip's interface (hal.h) and the stages' entry points (firmware.h)",
     ["libotattest/include", "qemu-model/regs"]),
    ("libotattest/src/core", "freestanding parsers, SHA-256, SLH-DSA, CBOR encoder",
     ["libotattest/include"]),
    ("libotattest/util", "private host helpers: hex, integers, files, JSON (never installed)",
     ["libotattest/include"]),
    ("libotattest/src/host", "host library: OpenSSL glue, evidence verifier, CBOR decoder",
     ["libotattest/include", "libotattest/src/core", "libotattest/util"]),
    ("qemu-model/chip", "the emulated chip: the one implementation of hal.h, the bus over the register map",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "libotattest/src/core", "libotattest/util"]),
    ("firmware/drivers", "hal.h over the chip's registers, one driver per block (MMIO: the bus on the host)",
     ["libotattest/include", "qemu-model/regs", "firmware/include", CHIP_BY_HAL]),
    ("firmware/lib", "the shared checks and the hand-off state between stages",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "libotattest/src/core", CHIP_BY_HAL,
      DRIVERS_BY_HAL]),
    ("firmware/rom", "ROM: reset entry, verifies ROM_EXT",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "libotattest/src/core", CHIP_BY_HAL,
      DRIVERS_BY_HAL, "firmware/lib"]),
    ("firmware/rom_ext", "ROM_EXT: verifies BL0, rotation, key chain, identity and alias",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "libotattest/src/core", CHIP_BY_HAL,
      DRIVERS_BY_HAL, "firmware/lib"]),
    ("firmware/runtime", "BL0: mailbox commands, attestation, reset requests",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "libotattest/src/core", CHIP_BY_HAL,
      DRIVERS_BY_HAL, "firmware/lib"]),
    ("qemu-model/core", "the emulated rv32imc core: Unicorn with the chip's memory map, MMIO into the bus, ELF loading, "
     "service calls for the blocks not yet behind registers",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "qemu-model/chip"]),
    ("qemu-model/board", "otattest-model: runs the stages on the chip, ivshmem, control socket",
     ["libotattest/include", "qemu-model/regs", "firmware/include", "libotattest/src/core", "libotattest/util",
      "qemu-model/chip", "firmware/drivers", "firmware/lib", "firmware/rom", "firmware/rom_ext", "firmware/runtime",
      "qemu-model/core", "libotattest/src/host"]),
    ("kernel", "otattest.ko: shared memory, mailbox, sysfs, generic netlink",
     ["libotattest/include"]),
    ("libotattest/tools/verify", "otattest-verify",
     ["libotattest/include", "libotattest/src/core", "libotattest/util", "libotattest/src/host"]),
    ("libotattest/tools/otimage", "otimage: keys, images, OTP, flash, certificates",
     ["libotattest/include", "libotattest/src/core", "libotattest/util", "libotattest/src/host"]),
    ("libotattest/tools/veraison", "the otattest scheme for Veraison (Go): plugin, provisioning, fleet agent",
     ["libotattest/include"]),
    ("daemon/common", "what otattestd and otattestctl share: errors, formats",
     ["libotattest/include", "libotattest/src/core", "libotattest/util", "libotattest/src/host"]),
    ("daemon/otattestd", "the D-Bus service: netlink client, policy, units",
     ["libotattest/include", "libotattest/src/core", "libotattest/util", "libotattest/src/host",
      "daemon/common"]),
    ("daemon/otattestctl", "the CLI",
     ["libotattest/include", "libotattest/src/core", "libotattest/util", "libotattest/src/host",
      "daemon/common"]),
    ("tests", "every suite: may use anything below", None),
]

DATA_PATH = ("device: OTP/flash -> ROM -> ROM_EXT -> BL0 -> shared memory -> kernel "
             "(sysfs, netlink) -> otattestd (D-Bus) -> otattestctl / a verifier "
             "(otattest-verify, libotattest)")


def folder_of(path):
    """The LAYERS folder a repository path belongs to (longest match), or None."""
    best = None
    for name, _, _ in LAYERS:
        if path == name or path.startswith(name + "/"):
            if best is None or len(name) > len(best):
                best = name
    return best


def allowed(user, used, how="include"):
    """Whether folder `user` may use folder `used` by `how` (include or call)."""
    if user == used:
        return True
    for name, _, uses in LAYERS:
        if name == user:
            if uses is None:
                return True
            return used in uses or (how == "call" and used + ":calls" in uses)
    return True


def check_table():
    """The table itself: every use points below, never up."""
    errs = []
    order = {name: i for i, (name, _, _) in enumerate(LAYERS)}
    for name, _, uses in LAYERS:
        for u in uses or []:
            u = u.split(":")[0]
            if u not in order:
                errs.append(f"LAYERS: {name} uses unknown folder {u}")
            elif order[u] >= order[name]:
                errs.append(f"LAYERS: {name} uses {u}, which is not below it")
    return errs


def parse_depfile(text):
    """(target, [prerequisites]) of a make dependency file, first rule only."""
    text = text.replace("\\\n", " ")
    line = text.split("\n", 1)[0]
    if ":" not in line:
        return None, []
    target, deps = line.split(":", 1)
    return target.strip(), deps.split()


def objects(build):
    """(object path, repository source path) of every project object in build."""
    out = []
    for dirpath, dirnames, filenames in os.walk(build):
        for f in filenames:
            if not f.endswith(".o"):
                continue
            obj = os.path.join(dirpath, f)
            src = os.path.relpath(obj, build)[:-2] + ".c"
            if os.path.exists(os.path.join(ROOT, src)):
                out.append((obj, src))
    return out


def check_includes(build, objs):
    errs = []
    for obj, src in objs:
        user = folder_of(src)
        dep = obj[:-2] + ".d"
        if user is None or not os.path.exists(dep):
            continue
        _, deps = parse_depfile(open(dep).read())
        for d in deps:
            # Paths are as the compiler saw them, from the top of the tree.
            d = os.path.relpath(os.path.normpath(os.path.join(ROOT, d)), ROOT)
            if d.startswith(".."):
                continue  # system headers
            used = folder_of(d)
            if used and not allowed(user, used):
                errs.append(f"include: {src} ({user}) uses {d} ({used})")
    return errs


def check_kernel_includes():
    errs = []
    kdir = os.path.join(ROOT, "kernel")
    inc_dirs = [kdir, os.path.join(ROOT, "libotattest/include")]
    for f in sorted(os.listdir(kdir)):
        if not f.endswith((".c", ".h")):
            continue
        for m in re.finditer(r'^\s*#\s*include\s+"([^"]+)"', open(os.path.join(kdir, f)).read(), re.M):
            for base in inc_dirs:
                cand = os.path.join(base, m.group(1))
                if os.path.exists(cand):
                    used = folder_of(os.path.relpath(os.path.normpath(cand), ROOT))
                    if used and not allowed("kernel", used):
                        errs.append(f"include: kernel/{f} uses {m.group(1)} ({used})")
                    break
    return errs


def nm(paths, flag):
    """{object: [symbols]} from one nm call over many objects."""
    res = {}
    for i in range(0, len(paths), 200):
        chunk = paths[i:i + 200]
        p = subprocess.run(["nm", "-A", flag] + chunk, capture_output=True, text=True)
        for line in p.stdout.splitlines():
            obj, _, rest = line.partition(":")
            parts = rest.split()
            if parts:
                res.setdefault(obj, []).append(parts[-1])
    return res


def check_calls(objs):
    errs = []
    src_of = dict(objs)
    paths = [o for o, _ in objs]
    defined = {}
    for obj, syms in nm(paths, "--defined-only").items():
        for s in syms:
            defined.setdefault(s, set()).add(folder_of(src_of[obj]))
    for obj, syms in nm(paths, "-u").items():
        user = folder_of(src_of[obj])
        if user is None:
            continue
        for s in syms:
            homes = defined.get(s, set()) - {None}
            if homes and not any(allowed(user, h, "call") for h in homes):
                errs.append(f"call: {src_of[obj]} ({user}) calls {s} from {', '.join(sorted(homes))}")
    return errs


def markdown():
    lines = ["| layer | folder | what | may use |", "|---|---|---|---|"]
    for i, (name, what, uses) in enumerate(LAYERS):
        may = "anything" if uses is None else (", ".join(
            f"`{u.split(':')[0]}` (calls through `hal.h` or `mmio.h` only)" if u.endswith(":calls") else f"`{u}`"
            for u in uses) or "nothing")
        lines.append(f"| {i} | `{name}/` | {what} | {may} |")
    lines.append("")
    lines.append("Data path: " + DATA_PATH + ".")
    return "\n".join(lines) + "\n"


BEGIN = "<!-- layers: begin (scripts/check-layers.py --markdown) -->\n"
END = "<!-- layers: end -->\n"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(ROOT, "build"))
    ap.add_argument("--markdown", action="store_true")
    ap.add_argument("--check-doc")
    a = ap.parse_args()
    if a.markdown:
        sys.stdout.write(markdown())
        return 0
    if a.check_doc:
        text = open(a.check_doc).read()
        if BEGIN not in text or END not in text:
            print(f"{a.check_doc}: no layers block", file=sys.stderr)
            return 1
        block = text.split(BEGIN, 1)[1].split(END, 1)[0]
        if block != markdown():
            print(f"{a.check_doc}: the layers table is not what scripts/check-layers.py --markdown prints",
                  file=sys.stderr)
            return 1
        return 0
    objs = objects(a.build)
    if not objs:
        print(f"check-layers: no objects under {a.build}: build first", file=sys.stderr)
        return 2
    errs = check_table() + check_includes(a.build, objs) + check_kernel_includes() + check_calls(objs)
    for e in errs:
        print(e)
    print(f"check-layers: {len(objs)} objects, {len(errs)} violations")
    return 1 if errs else 0


if __name__ == "__main__":
    sys.exit(main())

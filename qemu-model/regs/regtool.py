#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""The chip's register map, from one description per block.

Each block is described once, in qemu-model/regs/<block>.yaml (registers,
fields, windows; in the manner of OpenTitan's hw/ip/<ip>/data/<ip>.hjson),
and the chip in qemu-model/regs/top.yaml (memory map, the blocks at their
addresses, interrupts, which block sideloads keys to which). From them this
writes, and nothing else may define these numbers:

  qemu-model/regs/<block>_regs.h   offsets, fields, reset values, windows
                                   (for the firmware's drivers and the chip)
  qemu-model/regs/top_regs.h       the memory map, base addresses, IRQs
  qemu-model/regs/top_memory.ld    the memory map for the stages' linker scripts
  qemu-model/chip/regs_gen.c       the model's register tables (the bus)
  docs/registers.md                the register-map page

  regtool.py write                 rewrite the committed files
  regtool.py generate DIR [SRC]    write them under DIR (SRC: descriptions)
  regtool.py outputs               the files it writes, one per line

A description that breaks a rule (an overlap, a field outside its
register, a reset value with bits outside the fields, an unknown access,
a block the top does not place) is refused with a message naming it.
"""
import os
import re
import sys

import yaml

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SRC = os.path.join(ROOT, "qemu-model", "regs")

# Register access types: what a core read and write do (docs/registers.md).
ACCESS = {
    "rw": "read and write",
    "ro": "read only; writes are ignored",
    "wo": "write only; reads return 0",
    "w1c": "read; writing 1 clears a bit",
    "w1s": "read; writing 1 sets a bit, only a reset clears it",
}
WINDOW_ACCESS = ("rw", "ro", "wo")
MEMORY_ACCESS = ("rx", "rw", "rwx", "r")
NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
BLOCK_NAME = re.compile(r"^[a-z][a-z0-9_]*$")


class DescError(Exception):
    pass


def need(cond, where, msg):
    if not cond:
        raise DescError(f"{where}: {msg}")


def as_int(v, where, what):
    need(isinstance(v, int) and not isinstance(v, bool) and v >= 0, where, f"{what} must be a non-negative integer")
    return v


def parse_bits(bits, where):
    m = re.fullmatch(r"(\d+)(?::(\d+))?", str(bits))
    need(m is not None, where, f"bits {bits!r} is not N or MSB:LSB")
    msb = int(m.group(1))
    lsb = int(m.group(2)) if m.group(2) is not None else msb
    need(lsb <= msb <= 31, where, f"bits {bits!r} outside a 32-bit register")
    return msb, lsb


def load_block(path):
    name = os.path.basename(path)[:-5]
    d = yaml.safe_load(open(path))
    where = os.path.relpath(path, ROOT)
    need(isinstance(d, dict), where, "not a mapping")
    need(d.get("name") == name, where, f"name must be {name!r} (the file's name)")
    need(BLOCK_NAME.match(name), where, "block names are lower_case")
    for k in ("title", "anchor", "hal"):
        need(isinstance(d.get(k), str) and d[k], where, f"{k} is required")
    size = as_int(d.get("size"), where, "size")
    need(size >= 0x100 and size & (size - 1) == 0, where, "size must be a power of two >= 0x100")
    spans = []  # (start, end, what)
    regs = []
    for r in d.get("registers") or []:
        rw = f"{where}: register {r.get('name')}"
        need(isinstance(r.get("name"), str) and NAME.match(r["name"]), rw, "name must be UPPER_CASE")
        off = as_int(r.get("offset"), rw, "offset")
        need(off % 4 == 0, rw, "offset must be 4-aligned")
        count = as_int(r.get("count", 1), rw, "count")
        need(1 <= count <= 64, rw, "count must be 1..64")
        access = r.get("access")
        need(access in ACCESS, rw, f"access must be one of {', '.join(ACCESS)}")
        reset = as_int(r.get("reset", 0), rw, "reset")
        need(reset <= 0xFFFFFFFF, rw, "reset must fit 32 bits")
        need(isinstance(r.get("desc"), str) and r["desc"], rw, "desc is required")
        fields = []
        used = 0
        for f in r.get("fields") or []:
            fw = f"{rw} field {f.get('name')}"
            need(isinstance(f.get("name"), str) and NAME.match(f["name"]), fw, "name must be UPPER_CASE")
            msb, lsb = parse_bits(f.get("bits"), fw)
            mask = ((1 << (msb - lsb + 1)) - 1) << lsb
            need(not used & mask, fw, "overlaps another field")
            need(f["name"] not in [x["name"] for x in fields], fw, "duplicate field")
            need(isinstance(f.get("desc"), str) and f["desc"], fw, "desc is required")
            used |= mask
            fields.append({"name": f["name"], "msb": msb, "lsb": lsb, "mask": mask, "desc": f["desc"]})
        mask = used if fields else 0xFFFFFFFF
        need(not reset & ~mask, rw, f"reset 0x{reset:x} has bits outside the fields (0x{mask:x})")
        for i in range(count):
            spans.append((off + 4 * i, off + 4 * i + 4, r["name"]))
        regs.append({"name": r["name"], "offset": off, "count": count, "access": access,
                     "reset": reset, "mask": mask, "fields": fields, "desc": r["desc"]})
    windows = []
    for w in d.get("windows") or []:
        ww = f"{where}: window {w.get('name')}"
        need(isinstance(w.get("name"), str) and NAME.match(w["name"]), ww, "name must be UPPER_CASE")
        off = as_int(w.get("offset"), ww, "offset")
        wsize = as_int(w.get("size"), ww, "size")
        need(off % 4 == 0 and wsize % 4 == 0 and wsize > 0, ww, "offset and size must be 4-aligned and size > 0")
        need(w.get("access") in WINDOW_ACCESS, ww, f"access must be one of {', '.join(WINDOW_ACCESS)}")
        need(isinstance(w.get("desc"), str) and w["desc"], ww, "desc is required")
        spans.append((off, off + wsize, w["name"]))
        windows.append({"name": w["name"], "offset": off, "size": wsize, "access": w["access"], "desc": w["desc"]})
    names = [x["name"] for x in regs] + [x["name"] for x in windows]
    for n in names:
        need(names.count(n) == 1, where, f"{n} is defined twice")
    spans.sort()
    for a, b in zip(spans, spans[1:]):
        need(a[1] <= b[0], where, f"{a[2]} [0x{a[0]:x}, 0x{a[1]:x}) overlaps {b[2]} at 0x{b[0]:x}")
    need(not spans or spans[-1][1] <= size, where, f"{spans[-1][2]} ends past the block's size 0x{size:x}")
    need(regs, where, "a block has at least one register")
    return {"name": name, "title": d["title"], "anchor": d["anchor"], "hal": d["hal"], "size": size,
            "regs": regs, "windows": windows, "nslots": len(spans) - len(windows)}


def load(src):
    top_path = os.path.join(src, "top.yaml")
    where = os.path.relpath(top_path, ROOT) if top_path.startswith(ROOT) else top_path
    t = yaml.safe_load(open(top_path))
    need(isinstance(t, dict) and isinstance(t.get("name"), str), where, "top needs a name")
    clock = as_int(t.get("clock_hz"), where, "clock_hz")
    files = sorted(f for f in os.listdir(src) if f.endswith(".yaml") and f != "top.yaml")
    blocks = {f[:-5]: load_block(os.path.join(src, f)) for f in files}
    spans = []
    mems = []
    for m in t.get("memories") or []:
        mw = f"{where}: memory {m.get('name')}"
        need(isinstance(m.get("name"), str) and NAME.match(m["name"]), mw, "name must be UPPER_CASE")
        base, size = as_int(m.get("base"), mw, "base"), as_int(m.get("size"), mw, "size")
        need(size > 0 and base % 4096 == 0 and size % 4096 == 0, mw, "base and size must be 4 KiB aligned")
        need(m.get("access") in MEMORY_ACCESS, mw, f"access must be one of {', '.join(MEMORY_ACCESS)}")
        need(isinstance(m.get("desc"), str), mw, "desc is required")
        spans.append((base, base + size, m["name"]))
        mems.append({"name": m["name"], "base": base, "size": size, "access": m["access"], "desc": m["desc"]})
    placed = []
    for b in t.get("blocks") or []:
        bw = f"{where}: block {b.get('name')}"
        need(b.get("name") in blocks, bw, "no description qemu-model/regs/<name>.yaml")
        need(b["name"] not in [p["name"] for p in placed], bw, "placed twice")
        base = as_int(b.get("base"), bw, "base")
        blk = blocks[b["name"]]
        need(base % blk["size"] == 0, bw, f"base must be aligned to the block's size 0x{blk['size']:x}")
        spans.append((base, base + blk["size"], b["name"]))
        placed.append(dict(blk, base=base))
    for n in blocks:
        need(n in [p["name"] for p in placed], where, f"block {n} is described but not placed")
    spans.sort()
    for a, b in zip(spans, spans[1:]):
        need(a[1] <= b[0], where, f"{a[2]} overlaps {b[2]} at 0x{b[0]:x}")
    need(spans[-1][1] <= 1 << 32, where, "the map ends past 4 GiB")
    irqs = []
    for i in t.get("interrupts") or []:
        iw = f"{where}: interrupt {i.get('name')}"
        need(isinstance(i.get("name"), str) and NAME.match(i["name"]), iw, "name must be UPPER_CASE")
        need(i.get("block") in blocks, iw, "names no described block")
        irq = as_int(i.get("irq"), iw, "irq")
        need(1 <= irq <= 31 and irq not in [x["irq"] for x in irqs], iw, "irq must be 1..31 and unique")
        irqs.append({"name": i["name"], "block": i["block"], "irq": irq, "desc": i.get("desc", "")})
    side = []
    for s in t.get("sideload") or []:
        sw = f"{where}: sideload {s.get('from')} -> {s.get('to')}"
        need(s.get("from") in blocks and s.get("to") in blocks, sw, "names a block with no description")
        need(isinstance(s.get("purpose"), str) and NAME.match(s["purpose"]), sw, "purpose must be UPPER_CASE")
        side.append({"from": s["from"], "to": s["to"], "purpose": s["purpose"], "desc": s.get("desc", "")})
    return {"name": t["name"], "clock_hz": clock, "memories": mems, "blocks": placed,
            "irqs": irqs, "sideload": side}


GEN_NOTE = "Generated by qemu-model/regs/regtool.py from qemu-model/regs/{src}: do not edit (make regs-gen)."


def c_header(guard, src, body):
    return ("/* SPDX-License-Identifier: MIT */\n/* " + GEN_NOTE.format(src=src) + " */\n"
            f"#ifndef {guard}\n#define {guard}\n\n" + body + f"\n#endif /* {guard} */\n")


def block_header(b):
    P = b["name"].upper()
    out = [f"/* {b['title']}: {b['anchor']}. */", f"#define {P}_SIZE 0x{b['size']:x}u", ""]
    for r in b["regs"]:
        out.append(f"/* {r['name']} ({r['access']}): {r['desc']} */")
        if r["count"] == 1:
            out.append(f"#define {P}_{r['name']}_REG_OFFSET 0x{r['offset']:x}u")
        else:
            out.append(f"#define {P}_{r['name']}_COUNT {r['count']}u")
            out.append(f"#define {P}_{r['name']}_REG_OFFSET(n) (0x{r['offset']:x}u + 4u * (uint32_t)(n))")
        out.append(f"#define {P}_{r['name']}_RESVAL 0x{r['reset']:x}u")
        for f in r["fields"]:
            q = f"{P}_{r['name']}_{f['name']}"
            if f["msb"] == f["lsb"]:
                out.append(f"#define {q}_BIT {f['lsb']}u")
            else:
                out.append(f"#define {q}_OFFSET {f['lsb']}u")
            out.append(f"#define {q}_MASK 0x{f['mask']:x}u")
        out.append("")
    for w in b["windows"]:
        out.append(f"/* window {w['name']} ({w['access']}): {w['desc']} */")
        out.append(f"#define {P}_{w['name']}_OFFSET 0x{w['offset']:x}u")
        out.append(f"#define {P}_{w['name']}_SIZE 0x{w['size']:x}u")
        out.append("")
    body = "#include <stdint.h>\n\n" + "\n".join(out)
    return c_header(f"OTATTEST_{P}_REGS_H", f"{b['name']}.yaml", body)


def table_enum(kind, table, names):
    """enum top_<kind>: the index of each entry of the model's table."""
    return ([f"/* {kind.capitalize()} indices in the model's table ({table}[]). */", f"enum top_{kind} {{"]
            + [f"\tTOP_{kind.upper()}_{n}," for n in names] + [f"\tTOP_{kind.upper()}_COUNT", "};", ""])


def top_header(top):
    out = ["/* The chip's nominal clock. */", f"#define TOP_CLOCK_HZ {top['clock_hz']}u", ""]
    for m in top["memories"]:
        out.append(f"/* {m['name']} ({m['access']}): {m['desc']} */")
        out.append(f"#define TOP_{m['name']}_BASE_ADDR 0x{m['base']:08x}u")
        out.append(f"#define TOP_{m['name']}_SIZE 0x{m['size']:x}u")
    out.append("")
    out += table_enum("memory", "chip_memories", [m["name"] for m in top["memories"]])
    for b in top["blocks"]:
        out.append(f"#define TOP_{b['name'].upper()}_BASE_ADDR 0x{b['base']:08x}u")
    out.append("")
    out += table_enum("block", "chip_blocks", [b["name"].upper() for b in top["blocks"]])
    for i in top["irqs"]:
        out.append(f"#define TOP_IRQ_{i['name']} {i['irq']}u /* {i['block']}: {i['desc']} */")
    body = "\n".join(out) + "\n"
    return c_header("OTATTEST_TOP_REGS_H", "top.yaml", body)


def linker_memory(top):
    """The memory map as a linker script's MEMORY command (firmware/base/*.ld)."""
    out = ["/* " + GEN_NOTE.format(src="top.yaml") + " */", "MEMORY", "{"]
    for m in top["memories"]:
        out.append(f"\t{m['name']} ({m['access']}) : ORIGIN = 0x{m['base']:08x}, LENGTH = 0x{m['size']:x}")
    out.append("}")
    return "\n".join(out) + "\n"


def model_tables(top):
    out = ["/* SPDX-License-Identifier: MIT */",
           "/* " + GEN_NOTE.format(src="<block>.yaml and top.yaml") + " */",
           "/* The model's register tables: the bus (bus.c) dispatches by them. */",
           '#include "bus.h"', ""]
    for b in top["blocks"]:
        out.append(f'#include "{b["name"]}_regs.h"')
    out.append("")
    for b in top["blocks"]:
        n = b["name"]
        P = n.upper()
        out.append(f"static const struct chip_reg {n}_regs[] = {{")
        for r in b["regs"]:
            for k in range(r["count"]):
                name = r["name"] if r["count"] == 1 else f"{r['name']}_{k}"
                off = (f"{P}_{r['name']}_REG_OFFSET" if r["count"] == 1
                       else f"{P}_{r['name']}_REG_OFFSET({k})")
                out.append(f'\t{{ "{name}", {off}, CHIP_ACCESS_{r["access"].upper()}, '
                           f'{P}_{r["name"]}_RESVAL, 0x{r["mask"]:x}u }},')
        out.append("};")
        out.append(f"static uint32_t {n}_values[{b['nslots']}];")
        if b["windows"]:
            out.append(f"static const struct chip_window {n}_windows[] = {{")
            for w in b["windows"]:
                out.append(f'\t{{ "{w["name"]}", {P}_{w["name"]}_OFFSET, {P}_{w["name"]}_SIZE, '
                           f'CHIP_ACCESS_{w["access"].upper()} }},')
            out.append("};")
            for w in b["windows"]:
                out.append(f"static uint8_t {n}_{w['name'].lower()}_mem[{P}_{w['name']}_SIZE];")
            out.append(f"static uint8_t *const {n}_window_mem[] = {{ "
                       + ", ".join(f"{n}_{w['name'].lower()}_mem" for w in b["windows"]) + " };")
        out.append("")
    out.append("const struct chip_block chip_blocks[TOP_BLOCK_COUNT] = {")
    for b in top["blocks"]:
        n = b["name"]
        P = n.upper()
        win = (f"{n}_windows, {n}_window_mem, {len(b['windows'])}u" if b["windows"] else "NULL, NULL, 0u")
        out.append(f'\t[TOP_BLOCK_{P}] = {{ "{n}", TOP_{P}_BASE_ADDR, {P}_SIZE, {n}_regs, '
                   f'{n}_values, {b["nslots"]}u, {win} }},')
    out.append("};")
    out.append("")
    out.append("const struct chip_memory chip_memories[TOP_MEMORY_COUNT] = {")
    for m in top["memories"]:
        out.append(f'\t{{ "{m["name"]}", TOP_{m["name"]}_BASE_ADDR, TOP_{m["name"]}_SIZE }},')
    out.append("};")
    return "\n".join(out) + "\n"


def doc(top):
    L = ["# The chip's registers", "",
         "<!-- " + GEN_NOTE.format(src="<block>.yaml and top.yaml") + " -->", "",
         "One description per block, `qemu-model/regs/<block>.yaml`, and the chip's",
         "memory map, `qemu-model/regs/top.yaml`, generate this page, the",
         "firmware's `<block>_regs.h` and the model's register tables",
         "(`qemu-model/chip/regs_gen.c`) with `make regs-gen`;",
         "`qemu-model/regs/check-gen.sh` (in `make test`) fails when a committed",
         "file is not what they generate. How the model and the firmware use",
         "them: [hal.md](hal.md#registers-and-the-bus), [model.md](model.md).", "",
         f"Nominal clock: {top['clock_hz'] // 1000000} MHz.", "",
         "## Access types", "", "| access | a core read and write |", "|---|---|"]
    for k, v in ACCESS.items():
        L.append(f"| `{k}` | {v} |")
    L += ["", "An address in no register or window of a block, or an access that is",
          "not a whole aligned 32-bit word to a register, is a bus error",
          "(`HAL_BUS_ERROR`). Windows take byte, half-word and word accesses.", ""]
    L += ["## Memory map", "", "| region | base | size | access | what |", "|---|---|---|---|---|"]
    rows = [(m["base"], f"| {m['name']} | `0x{m['base']:08x}` | 0x{m['size']:x} | {m['access']} | {m['desc']} |")
            for m in top["memories"]]
    rows += [(b["base"], f"| [{b['name']}](#{b['name']}) | `0x{b['base']:08x}` | 0x{b['size']:x} | "
              f"registers | {b['title']} |") for b in top["blocks"]]
    L += [r for _, r in sorted(rows)]
    L += ["", "## Interrupts", "", "| irq | name | block | when |", "|---|---|---|---|"]
    for i in top["irqs"]:
        L.append(f"| {i['irq']} | {i['name']} | {i['block']} | {i['desc']} |")
    L += ["", "## Sideloaded keys", "",
          "Secrets move between blocks on these ports only, never through memory the core can read.", "",
          "| from | to | what | how |", "|---|---|---|---|"]
    for s in top["sideload"]:
        L.append(f"| {s['from']} | {s['to']} | {s['purpose']} | {s['desc']} |")
    for b in top["blocks"]:
        P = b["name"].upper()
        L += ["", f"## {b['name']}", "", f"**{b['title']}** at `0x{b['base']:08x}` "
              f"(0x{b['size']:x} bytes). Anchor: {b['anchor']}. HAL: {b['hal']}.", "",
              "| offset | register | access | reset | what |", "|---|---|---|---|---|"]
        for r in b["regs"]:
            name = r["name"] if r["count"] == 1 else f"{r['name']}_0..{r['count'] - 1}"
            off = f"0x{r['offset']:03x}" + (f" + 4n" if r["count"] > 1 else "")
            desc = r["desc"].replace("|", "\\|")
            if r["fields"]:
                desc += "<br>" + "<br>".join(
                    f"`{f['msb']}`" * (f["msb"] == f["lsb"]) + f"`{f['msb']}:{f['lsb']}`" * (f["msb"] != f["lsb"])
                    + f" {f['name']}: {f['desc'].replace('|', chr(92) + '|')}" for f in r["fields"])
            L.append(f"| {off} | {name} | {r['access']} | 0x{r['reset']:x} | {desc} |")
        for w in b["windows"]:
            L.append(f"| 0x{w['offset']:03x} | {w['name']} (window, 0x{w['size']:x} bytes) | {w['access']} | | "
                     f"{w['desc'].replace('|', chr(92) + '|')} |")
    return "\n".join(L) + "\n"


def outputs(top_names):
    return ([f"qemu-model/regs/{n}_regs.h" for n in top_names] + ["qemu-model/regs/top_regs.h",
            "qemu-model/regs/top_memory.ld",
            "qemu-model/chip/regs_gen.c", "docs/registers.md"])


def generate(src):
    top = load(src)
    files = {f"qemu-model/regs/{b['name']}_regs.h": block_header(b) for b in top["blocks"]}
    files["qemu-model/regs/top_regs.h"] = top_header(top)
    files["qemu-model/regs/top_memory.ld"] = linker_memory(top)
    files["qemu-model/chip/regs_gen.c"] = model_tables(top)
    files["docs/registers.md"] = doc(top)
    return files


def write(files, dest):
    for rel, text in files.items():
        path = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)


def main(argv):
    if len(argv) < 2 or argv[1] not in ("write", "generate", "outputs"):
        print(__doc__.split("\n\n")[2], file=sys.stderr)
        return 2
    try:
        if argv[1] == "outputs":
            top = load(SRC)
            print("\n".join(outputs([b["name"] for b in top["blocks"]])))
        elif argv[1] == "write":
            write(generate(SRC), ROOT)
        else:
            if len(argv) < 3:
                print("regtool.py generate DIR [SRC]", file=sys.stderr)
                return 2
            write(generate(argv[3] if len(argv) > 3 else SRC), argv[2])
    except DescError as e:
        print(f"regtool: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

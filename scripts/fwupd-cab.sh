#!/bin/bash
# SPDX-License-Identifier: MIT
# A fwupd cabinet for one signed otattest image: the image as firmware.bin
# and its metainfo (daemon/fwupd/firmware.metainfo.xml.in, filled from
# `otimage inspect --json`), packed by Debian's gcab. `make cab IMAGE=...`.
#
# Usage: scripts/fwupd-cab.sh IMAGE OUT.cab
# The release version is the image's SVN (the fwupd plugin's version format
# is a number: the SVN the anti-rollback floors compare); the firmware GUID
# is the one the plugin gives the stage's device (OTATTEST\STAGE_BL0 or
# OTATTEST\STAGE_ROM_EXT, hashed as fwupd hashes instance IDs: a name-based
# UUID in the DNS namespace).
set -euo pipefail

[ $# = 2 ] || { echo "usage: $0 IMAGE OUT.cab" >&2; exit 2; }
root=$(cd "$(dirname "$0")/.." && pwd)
image=$1 out=$2
otimage=${OTIMAGE:-$root/build/otimage}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

"$otimage" inspect --json "$image" >"$work/inspect.json"
cp "$image" "$work/firmware.bin"
python3 - "$root/daemon/fwupd/firmware.metainfo.xml.in" "$work/inspect.json" \
	"$work/firmware.bin" >"$work/firmware.metainfo.xml" <<'PY'
import datetime, hashlib, json, sys, uuid
from xml.sax.saxutils import escape
tmpl, info, fw = sys.argv[1:4]
i = json.load(open(info))
if i.get("format") != "image" or i.get("stage") not in ("bl0", "rom_ext"):
    sys.exit("not a signed bl0 or rom_ext image: %s" % info)
stage = i["stage"]
values = {
    "STAGE": stage,
    "STAGE_NAME": {"bl0": "BL0 runtime", "rom_ext": "ROM_EXT"}[stage],
    "SVN": str(i["security_version"]),
    "VERSION": i.get("version_string") or "(none)",
    "MEASUREMENT": i["measurement"],
    "GUID": str(uuid.uuid5(uuid.NAMESPACE_DNS, "OTATTEST\\STAGE_" + stage.upper())),
    "DATE": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d"),
    "SHA256": hashlib.sha256(open(fw, "rb").read()).hexdigest(),
}
t = open(tmpl).read()
for k, v in values.items():
    t = t.replace("@%s@" % k, escape(v))
sys.stdout.write(t)
PY
(cd "$work" && gcab --create --nopath "$PWD/out.cab" firmware.bin firmware.metainfo.xml)
mv "$work/out.cab" "$out"
echo "$out: $(gcab --list "$out" | tr '\n' ' ')"

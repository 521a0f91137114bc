#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""A Python client of otattestd on Debian's python3-dbus-next, as a fleet
tool would write one: the interfaces from the shipped introspection XML,
nothing hand-decoded. Run by the e2e scenario dbus-clients with Debian's
/usr/bin/python3 (the dbus-next package belongs to it).

  otattest_client.py XML describe             Manager.Describe(), the JSON checked and printed
  otattest_client.py XML stages               the typed Stages (aa{sv}) as JSON
  otattest_client.py XML history              every GetHistory page, as JSON lines
  otattest_client.py XML attest NONCE OUT     Attest(nonce hex) -> evidence into OUT
  otattest_client.py XML watch N READY        print the device's signals, one line each,
                                              until N RecordChanged; touch READY once subscribed
"""
import asyncio
import json
import sys

from dbus_next import BusType
from dbus_next.aio import MessageBus
from dbus_next.introspection import Node

NAME = "org.otattest.BootAttest1"
ROOT = "/org/otattest/BootAttest1"
MANAGER = NAME + ".Manager"
DEVICE = NAME + ".Device"


def plain(value):
    """A dbus-next value (Variants, bytes) as JSON-able data."""
    if hasattr(value, "signature") and hasattr(value, "value"):
        return plain(value.value)
    if isinstance(value, (bytes, bytearray)):
        return value.hex()
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [plain(v) for v in value]
    return value


async def main(argv):
    xml, cmd, args = argv[1], argv[2], argv[3:]
    node = Node.parse(open(xml).read())
    bus = await MessageBus(bus_type=BusType.SYSTEM).connect()
    manager = bus.get_proxy_object(NAME, ROOT, node).get_interface(MANAGER)
    paths = await manager.get_devices()
    if not paths:
        sys.exit("no otattest device")
    device = bus.get_proxy_object(NAME, paths[0], node).get_interface(DEVICE)

    if cmd == "describe":
        doc = json.loads(await manager.call_describe())
        print(json.dumps(doc, sort_keys=True))
    elif cmd == "stages":
        print(json.dumps(plain(await device.get_stages()), sort_keys=True))
    elif cmd == "history":
        since = 0
        while True:
            entries, since = await manager.call_get_history("", since, 16)
            for e in entries:
                print(json.dumps(plain(e), sort_keys=True))
            if since == 0:
                break
    elif cmd == "attest":
        nonce = bytes.fromhex(args[0])
        evidence = await device.call_attest(nonce)
        with open(args[1], "wb") as f:
            f.write(evidence)
        print("evidence %d bytes for nonce %s" % (len(evidence), nonce.hex()))
    elif cmd == "watch":
        want, ready = int(args[0]), args[1]
        seen = asyncio.Queue()

        # dbus-next holds a handler to its signal's arity: one each, with
        # the XML's argument names.
        def record_changed(generation):
            seen.put_nowait(("RecordChanged", {"generation": generation}))

        def rotation_progress(done, total):
            seen.put_nowait(("RotationProgress", {"done": done, "total": total}))

        def rotation_finished(old_key_version, new_key_version, stages_retagged,
                              error_name, error_message):
            seen.put_nowait(("RotationFinished", {
                "old_key_version": old_key_version, "new_key_version": new_key_version,
                "stages_retagged": stages_retagged, "error_name": error_name,
                "error_message": error_message}))

        device.on_record_changed(record_changed)
        device.on_rotation_finished(rotation_finished)
        device.on_rotation_progress(rotation_progress)
        # dbus-next adds its match rule before on_* returns; a round trip
        # to the bus makes sure the bus has it.
        await bus.introspect("org.freedesktop.DBus", "/org/freedesktop/DBus")
        open(ready, "w").close()
        while want > 0:
            name, values = await asyncio.wait_for(seen.get(), 90)
            print(json.dumps({"signal": name, "args": values}), flush=True)
            want -= name == "RecordChanged"
    else:
        sys.exit("unknown command %s" % cmd)


if __name__ == "__main__":
    asyncio.run(main(sys.argv))

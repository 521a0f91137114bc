#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Send one QMP command to QEMU and print the reply as JSON.

usage: qmp.py SOCKET COMMAND [ARGUMENTS-JSON]

Exits 0 when QEMU returned "return", 1 on "error" (printed on stderr), 2 on
a protocol or connection problem. Asynchronous events that arrive before
the reply are printed on stderr, one JSON object a line, so a hook can
wait for e.g. DEVICE_DELETED with qmp-events.
"""
import json
import socket
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, command = sys.argv[1], sys.argv[2]
    args = json.loads(sys.argv[3]) if len(sys.argv) == 4 else None
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(30)
        sock.connect(path)
        stream = sock.makefile("rw", encoding="utf-8", newline="\n")

        def send(obj):
            stream.write(json.dumps(obj) + "\n")
            stream.flush()

        def recv():
            while True:
                line = stream.readline()
                if not line:
                    raise ConnectionError("QEMU closed the QMP socket")
                msg = json.loads(line)
                if "event" in msg:
                    print(json.dumps(msg), file=sys.stderr)
                    continue
                return msg

        greeting = json.loads(stream.readline() or "{}")
        if "QMP" not in greeting:
            raise ConnectionError("no QMP greeting")
        send({"execute": "qmp_capabilities"})
        recv()
        req = {"execute": command}
        if args is not None:
            req["arguments"] = args
        send(req)
        reply = recv()
    except (OSError, ValueError, ConnectionError) as e:
        print(f"qmp: {path}: {e}", file=sys.stderr)
        return 2
    if "error" in reply:
        print(f"qmp: {command}: {reply['error'].get('desc', reply['error'])}", file=sys.stderr)
        return 1
    print(json.dumps(reply.get("return")))
    return 0


if __name__ == "__main__":
    sys.exit(main())

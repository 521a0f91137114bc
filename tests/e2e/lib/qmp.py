#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Send one QMP command to QEMU and print the reply's return value as JSON.

usage: qmp.py PROXY-SOCKET COMMAND [ARGUMENTS-JSON]

PROXY-SOCKET is the scenario's qmp.sock, served by lib/qmp-proxy.py, which
holds the one connection to QEMU (see there why). Exits 0 when QEMU
returned "return", 1 on "error" (printed on stderr), 2 on a connection
problem. Events are not printed: the proxy logs them to qmp-events.log.
"""
import json
import socket
import sys


def main():
    if len(sys.argv) not in (3, 4):
        print(__doc__.strip(), file=sys.stderr)
        return 2
    path, command = sys.argv[1], sys.argv[2]
    req = {"execute": command}
    if len(sys.argv) == 4:
        req["arguments"] = json.loads(sys.argv[3])
    try:
        sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        sock.settimeout(30)
        sock.connect(path)
        sock.sendall((json.dumps(req) + "\n").encode())
        buf = b""
        while b"\n" not in buf:
            data = sock.recv(65536)
            if not data:
                raise ConnectionError("the QMP proxy closed the connection (QEMU gone?)")
            buf += data
        reply = json.loads(buf.split(b"\n", 1)[0])
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

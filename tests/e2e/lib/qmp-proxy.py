#!/usr/bin/python3
# SPDX-License-Identifier: MIT
"""Hold one QMP connection to QEMU for a whole scenario and serve commands.

usage: qmp-proxy.py QEMU-QMP-SOCKET PROXY-SOCKET EVENTS-LOG

Clients (lib/qmp.py, i.e. e2e_qmp) connect to PROXY-SOCKET, send one
command as a JSON line ({"execute": ..., "arguments": ...}) and get QEMU's
reply as one JSON line. Asynchronous events are appended to EVENTS-LOG, one
JSON object a line. The proxy exits when QEMU closes the connection.

Why a proxy and not a connection per command: QEMU 7.2's ivshmem-doorbell
leaves an fd handler registered on each of its vector eventfds when the
device is deleted (the handlers from watch_vector_notifier are never
removed, only the fds closed). The next fds QEMU opens reuse those numbers;
as soon as one becomes readable, the stale handler runs on the freed device
and QEMU dies with SIGSEGV. A fresh QMP connection per command is exactly
such an fd. So (1) this proxy keeps a single connection, opened before any
device goes away, and (2) on every DEVICE_DELETED it hands QEMU a handful
of eventfds nobody ever writes (QMP getfd), which take the freed numbers
before anything readable can.
"""
import array
import json
import os
import select
import socket
import sys
import time

HOLE_FILLERS = 8  # more than the fds one ivshmem-doorbell device frees


def connect_qemu(path):
    deadline = time.monotonic() + 20
    while True:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
            return s
        except OSError:
            s.close()
            if time.monotonic() > deadline:
                raise
            time.sleep(0.02)


class Proxy:
    def __init__(self, qemu_path, proxy_path, events_path):
        self.qemu = connect_qemu(qemu_path)
        self.qbuf = b""
        self.events = open(events_path, "a", buffering=1)
        self.pending = {}  # request id -> client socket
        self.clients = {}  # client socket -> bytes received so far
        self.next_id = 0
        self.holes = 0
        greeting = self.read_qemu_line()
        if "QMP" not in greeting:
            raise ConnectionError("no QMP greeting")
        self.send_qemu({"execute": "qmp_capabilities", "id": "caps"})
        while "return" not in self.read_qemu_line():
            pass
        try:
            os.unlink(proxy_path)
        except FileNotFoundError:
            pass
        tmp = proxy_path + ".tmp"
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(tmp)
        self.listener.listen(16)
        os.rename(tmp, proxy_path)  # it appears only once it serves

    def read_qemu_line(self):
        while b"\n" not in self.qbuf:
            data = self.qemu.recv(65536)
            if not data:
                raise EOFError
            self.qbuf += data
        line, self.qbuf = self.qbuf.split(b"\n", 1)
        return json.loads(line)

    def send_qemu(self, msg, fd=None):
        data = (json.dumps(msg) + "\n").encode()
        if fd is None:
            self.qemu.sendall(data)
        else:
            self.qemu.sendmsg([data], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", [fd]))])

    def fill_holes(self):
        for _ in range(HOLE_FILLERS):
            fd = os.eventfd(0)
            self.holes += 1
            self.send_qemu({"execute": "getfd", "arguments": {"fdname": f"e2e-hole-{self.holes}"},
                            "id": f"hole-{self.holes}"}, fd)
            os.close(fd)  # QEMU has its own copy now

    def on_qemu_message(self, msg):
        if "event" in msg:
            self.events.write(json.dumps(msg) + "\n")
            if msg["event"] == "DEVICE_DELETED":
                self.fill_holes()
            return
        rid = msg.get("id")
        client = self.pending.pop(rid, None)
        if client is None:
            if isinstance(rid, str) and rid.startswith("hole-") and "error" in msg:
                self.events.write(json.dumps({"e2e-proxy": "getfd failed", "reply": msg}) + "\n")
            return
        msg.pop("id", None)
        try:
            client.sendall((json.dumps(msg) + "\n").encode())
        except OSError:
            pass
        client.close()

    def on_client_data(self, client):
        try:
            data = client.recv(65536)
        except OSError:
            data = b""
        if not data:
            self.clients.pop(client, None)
            client.close()
            return
        buf = self.clients[client] + data
        if b"\n" not in buf:
            self.clients[client] = buf
            return
        del self.clients[client]
        try:
            req = json.loads(buf.split(b"\n", 1)[0])
            if not isinstance(req, dict) or "execute" not in req:
                raise ValueError("not a QMP command")
        except ValueError as e:
            client.sendall((json.dumps({"error": {"class": "E2EProxy", "desc": str(e)}}) + "\n").encode())
            client.close()
            return
        self.next_id += 1
        rid = f"c{self.next_id}"
        req["id"] = rid
        self.pending[rid] = client
        self.send_qemu(req)

    def run(self):
        while True:
            socks = [self.qemu, self.listener] + list(self.clients)
            # A reply may already be buffered from the greeting exchange.
            ready = [self.qemu] if b"\n" in self.qbuf else select.select(socks, [], [])[0]
            for s in ready:
                if s is self.qemu:
                    if b"\n" not in self.qbuf:
                        data = self.qemu.recv(65536)
                        if not data:
                            return
                        self.qbuf += data
                    while b"\n" in self.qbuf:
                        line, self.qbuf = self.qbuf.split(b"\n", 1)
                        self.on_qemu_message(json.loads(line))
                elif s is self.listener:
                    c, _ = self.listener.accept()
                    self.clients[c] = b""
                else:
                    self.on_client_data(s)


def main():
    if len(sys.argv) != 4:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    try:
        proxy = Proxy(*sys.argv[1:])
    except (OSError, EOFError, ValueError, ConnectionError) as e:
        print(f"qmp-proxy: {sys.argv[1]}: {e}", file=sys.stderr)
        return 1
    try:
        proxy.run()
    except (OSError, EOFError):
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())

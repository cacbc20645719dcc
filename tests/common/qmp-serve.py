#!/usr/bin/env python3
"""QMP on behalf of the guest (host side of VM tests that drive QEMU).

Usage: qmp-serve.py SOCKET DIR

Connects to QEMU's QMP socket (`-qmp unix:SOCKET,server=on,wait=off`),
negotiates capabilities and creates DIR/ready. Then, for N = 0, 1, ...,
waits for the guest's request DIR/req-N (one QMP command as a JSON line;
the guest writes req-N.tmp and renames it), sends it and writes QEMU's
answer (the JSON line with "return" or "error", events skipped) to
DIR/rsp-N, by the same rename. Ends when QEMU closes the socket. Guest
side: tests/common/ipu_host_qmp.c. Exit status 0, or 1 when it could not
connect.
"""
import json
import os
import socket
import sys
import time


def connect(path):
    """The connected socket, retrying while QEMU starts (60 s at most)."""
    for _ in range(600):
        try:
            s = socket.socket(socket.AF_UNIX)
            s.connect(path)
            return s
        except OSError:
            s.close()
            time.sleep(0.1)
    return None


def answer(f):
    """QEMU's answer to the last command (events skipped), or None at EOF."""
    while True:
        line = f.readline()
        if not line:
            return None
        r = json.loads(line)
        if "return" in r or "error" in r:
            return line.strip()


def idle(s, f):
    """Reads the events QEMU sent meanwhile; False once QEMU is gone."""
    while True:
        s.setblocking(False)
        try:
            data = s.recv(1, socket.MSG_PEEK)
        except BlockingIOError:
            return True
        except OSError:
            return False
        finally:
            s.setblocking(True)
        if data == b"" or not f.readline():
            return False


def put(path, text):
    with open(path + ".tmp", "w") as out:
        out.write(text + "\n")
    os.rename(path + ".tmp", path)


def main():
    if len(sys.argv) != 3:
        sys.stderr.write(__doc__)
        return 2
    sock, d = sys.argv[1], sys.argv[2]
    s = connect(sock)
    if s is None:
        print("qmp-serve: cannot connect to", sock, file=sys.stderr)
        return 1
    f = s.makefile("rw")
    f.readline()                                    # greeting
    f.write(json.dumps({"execute": "qmp_capabilities"}) + "\n")
    f.flush()
    if answer(f) is None:
        return 1
    os.makedirs(d, exist_ok=True)
    put(os.path.join(d, "ready"), "ready")
    n = 0
    while True:
        req = os.path.join(d, "req-%d" % n)
        while not os.path.exists(req):
            if not idle(s, f):
                return 0
            time.sleep(0.02)
        with open(req) as r:
            cmd = r.read().strip()
        try:
            json.loads(cmd)
        except ValueError as e:
            put(os.path.join(d, "rsp-%d" % n),
                json.dumps({"error": {"desc": "qmp-serve: bad JSON: %s" % e}}))
            n += 1
            continue
        f.write(cmd + "\n")
        f.flush()
        rsp = answer(f)
        if rsp is None:
            return 0
        put(os.path.join(d, "rsp-%d" % n), rsp)
        n += 1


if __name__ == "__main__":
    sys.exit(main())

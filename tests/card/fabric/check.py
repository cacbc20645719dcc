#!/usr/bin/env python3
"""The IPU-Link fabric's configuration and wiring, on the host (no guest).

Usage: check.py QEMU   (KTAP to stdout; exit 0 when every check passed)

Starts the built QEMU with `test` model cards on a fabric and no guest
(the cards come up by themselves) and checks, through QMP: that each
topology (m2000, pod16, ring, explicit wiring) wires every port as
docs/hw-interface.md "IPU-Links" says (the expected wiring is computed
here from the document's table, independently of the device), that all
links train to UP, that a machine reset (a power-on of every card)
keeps a link held down and clears FAILED links and error counters, that
a card whose PCIe slot is powered off keeps its links DOWN until power
returns (under qtest, which steps emulated time), that the route query of the link transport (the fabric's `routes`) answers
shortest paths of wired ports and names a link that is down; and
that every configuration error the document lists stops QEMU with its
message. The guest's view (registers, events) is vm-links-check's.
"""
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

FABRIC = "/machine/peripheral/f0"
RP_SLOT = 8                 # root port i is device RP_SLOT + i of pcie.0
PCI_CAP_EXP = 0x10
PCI_EXP_SLTCTL = 0x18       # Slot Control (low half of the dword)
SLTCTL_PIC = 0x300          # power indicator: 0x100 on, 0x300 off
SLTCTL_PCC = 0x400          # power controller: set is power off
results = []


def check(ok, name, why=""):
    results.append((bool(ok), name, why))
    return ok


def qemu_args(qemu, fabric, cards, sock=None, qtest=None):
    args = [qemu, "-machine", "q35", "-nodefaults", "-display", "none",
            "-L", "/usr/share/seabios", "-L", "/usr/share/qemu",
            "-monitor", "none", "-serial", "none"]
    if fabric:
        args += ["-device", "ipu-fabric,id=f0," + fabric]
    for i, card in enumerate(cards):
        args += ["-device", "pcie-root-port,id=rp%d,bus=pcie.0,chassis=%d,"
                 "slot=%d,addr=0x%x" % (i, i + 1, i + 1, RP_SLOT + i),
                 "-device", "ipu,bus=rp%d,model=test,card=%d%s" % (i, i, card)]
    if sock:
        args += ["-qmp", "unix:%s,server=on,wait=off" % sock]
    if qtest:
        # no guest runs: the test steps emulated time and reaches config
        # space through the qtest protocol
        args += ["-accel", "qtest", "-qtest", "unix:%s,server=on,wait=off"
                 % qtest]
    return args


class Qmp:
    """A QEMU with cards on a fabric, driven through QMP."""

    def __init__(self, qemu, fabric, n, qtest=False):
        self.dir = tempfile.mkdtemp(prefix="ipu-fabric-")
        sock = os.path.join(self.dir, "qmp.sock")
        qt = os.path.join(self.dir, "qtest.sock") if qtest else None
        cards = [",fabric=f0,fabric-index=%d" % i for i in range(n)]
        self.proc = subprocess.Popen(qemu_args(qemu, fabric, cards, sock, qt),
                                     stderr=subprocess.PIPE, text=True)
        self.qt = self._connect(qt).makefile("rw") if qtest else None
        self.s = self._connect(sock)
        self.f = self.s.makefile("rw")
        self.f.readline()
        self.cmd("qmp_capabilities")

    def _connect(self, path):
        for _ in range(300):
            if self.proc.poll() is not None:
                raise RuntimeError(self.proc.stderr.read().strip())
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(path)
                return s
            except OSError:
                s.close()
                time.sleep(0.1)
        raise RuntimeError("no socket " + path)

    def q(self, line):
        """A qtest command; its value, if any."""
        self.qt.write(line + "\n")
        self.qt.flush()
        r = self.qt.readline().split()
        while r and r[0] == "IRQ":
            r = self.qt.readline().split()
        if not r or r[0] != "OK":
            raise RuntimeError("qtest: %s: %s" % (line, " ".join(r)))
        return int(r[1], 16) if len(r) > 1 else None

    def cfg(self, dev, off, val=None):
        """Reads (or writes @val to) dword @off of pcie.0's device @dev."""
        self.q("outl 0xcf8 0x%x" % (0x80000000 | dev << 11 | off))
        if val is None:
            return self.q("inl 0xcfc")
        return self.q("outl 0xcfc 0x%x" % val)

    def slot_power(self, rp, on):
        """Root port @rp's slot power, as pciehp sets it (indicator on)."""
        dev = RP_SLOT + rp
        cap = self.cfg(dev, 0x34) & 0xff
        while cap and self.cfg(dev, cap) & 0xff != PCI_CAP_EXP:
            cap = self.cfg(dev, cap) >> 8 & 0xff
        if not cap:
            raise RuntimeError("rp%d: no PCI Express capability" % rp)
        # the low half only: Slot Status (high half) is write-1-to-clear;
        # the indicator not off, or QEMU takes power off as an unplug
        ctl = self.cfg(dev, cap + PCI_EXP_SLTCTL) & 0xffff
        ctl = ctl & ~(SLTCTL_PIC | SLTCTL_PCC) | 0x100
        self.cfg(dev, cap + PCI_EXP_SLTCTL, ctl | (0 if on else SLTCTL_PCC))

    def step_until(self, want, limit_ms=2000):
        """Steps emulated time 1 ms at a time until want(links()) (qtest)."""
        for _ in range(limit_ms):
            self.q("clock_step 1000000")
            ends = self.links()
            if want(ends):
                return ends
        return self.links()

    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.f.write(json.dumps(msg) + "\n")
        self.f.flush()
        while True:
            r = json.loads(self.f.readline())
            if "return" in r or "error" in r:
                return r

    def qom_set(self, prop, value):
        return self.cmd("qom-set", path=FABRIC, property=prop, value=value)

    def links(self):
        return self.cmd("qom-get", path=FABRIC, property="links")["return"]

    def wait_states(self, want, limit_s=30):
        """Waits for every end's state to be want(end); the last list."""
        t0 = time.monotonic()
        while True:
            ends = self.links()
            if all(e["state"] == want(e) for e in ends) or \
                    time.monotonic() - t0 > limit_s:
                return ends
            time.sleep(0.05)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        try:
            self.cmd("quit")
        except (OSError, ValueError):
            pass
        self.proc.wait(timeout=30)
        self.proc.stderr.close()
        self.s.close()
        if self.qt:
            self.qt.close()
        shutil.rmtree(self.dir, ignore_errors=True)


def ladder(n, close):
    """The m2000/pod16 wiring of the document: (a, p, b, q) per link."""
    links = []
    for i in range(0, n, 2):
        links += [(i, 0, i + 1, 0), (i, 1, i + 1, 1)]
    for i in range(n):
        if i + 2 < n or close:
            links.append((i, 2, (i + 2) % n, 3))
    return links


def ring(n):
    return [(i, 0, (i + 1) % n, 1) for i in range(n)]


def ends_of(links):
    """Both ends of every link: {(index, port): (peer, peer port)}."""
    ends = {}
    for a, p, b, q in links:
        ends[(a, p)] = (b, q)
        ends[(b, q)] = (a, p)
    return ends


def check_topology(qemu, name, fabric, n, links):
    try:
        vm = Qmp(qemu, fabric, n)
    except RuntimeError as e:
        check(False, "%s: QEMU starts" % name, str(e))
        return
    with vm:
        got = vm.wait_states(lambda e: "up")
        want = ends_of(links)
        seen = {(e["index"], e["port"]): (e["peer-index"], e["peer-port"])
                for e in got}
        check(seen == want, "%s: every port wired as documented" % name,
              "got %s" % sorted(set(seen.items()) ^ set(want.items()))[:6])
        check(all(e["state"] == "up" and e["gen"] == 4 and e["lanes"] == 8
                  and e["fom"] == 200 for e in got),
              "%s: every link trained to UP (gen 4, 8 lanes, FOM 200)" % name)


def check_reset(qemu):
    """A machine reset (power-on of every card) against held/failed links."""
    with Qmp(qemu, "topology=m2000", 4) as vm:
        vm.wait_states(lambda e: "up")
        r = [vm.qom_set("link", "index=0,port=2,state=down"),
             vm.qom_set("inject-error", "index=1,port=1,type=uncorrectable"),
             vm.qom_set("inject-error",
                        "index=2,port=0,type=correctable,count=4")]
        check(all("return" in x for x in r), "reset: QMP actions accepted",
              str(r))
        ends = {(e["index"], e["port"]): e for e in vm.links()}
        check(ends[(1, 1)]["state"] == "failed" and
              ends[(0, 1)]["state"] == "failed" and
              ends[(1, 1)]["err-uncorr"] == 1 and
              ends[(2, 0)]["err-corr"] == 4 and
              ends[(2, 3)]["held-down"],
              "reset: FAILED at both ends, counters, held down",
              str(ends[(1, 1)]))
        vm.cmd("system_reset")
        held = {(0, 2), (2, 3)}
        got = vm.wait_states(lambda e: "down" if (e["index"], e["port"])
                             in held else "up")
        ends = {(e["index"], e["port"]): e for e in got}
        check(all(e["state"] == ("down" if k in held else "up")
                  for k, e in ends.items()),
              "reset: links train again, the held one stays down",
              str([(k, e["state"]) for k, e in ends.items()]))
        check(all(e["err-corr"] == 0 and e["err-uncorr"] == 0
                  for e in got), "reset: power-on clears error counters")
        r = vm.qom_set("link", "index=2,port=3,state=up")
        got = vm.wait_states(lambda e: "up")
        check("return" in r and all(e["state"] == "up" for e in got),
              "reset: the held link brought up trains")


def check_slot_power(qemu):
    """A card whose slot is powered off stays OFF: its links do not train."""
    try:
        vm = Qmp(qemu, "topology=m2000", 4, qtest=True)
    except RuntimeError as e:
        check(False, "slot power: QEMU starts under qtest", str(e))
        return
    with vm:
        def member3(state):
            return lambda ends: all(
                e["state"] == (state if 3 in (e["index"], e["peer-index"])
                               else "up") for e in ends)
        check(member3("up")(vm.step_until(member3("up"))),
              "slot power: every link trains under qtest")
        vm.slot_power(3, False)
        ends = vm.links()
        check(member3("down")(ends),
              "slot power off: card 3's links go DOWN at once",
              str([(e["index"], e["port"], e["state"]) for e in ends]))
        # ten times what a power-on takes: time enough to train, were it up
        vm.q("clock_step %d" % (10 * 10 * 1000000))
        ends = vm.links()
        check(member3("down")(ends),
              "slot power off: card 3 stays OFF, its links do not train",
              str([(e["index"], e["port"], e["state"]) for e in ends]))
        vm.slot_power(3, True)
        check(member3("up")(vm.step_until(member3("up"))),
              "slot power on: card 3 comes up and its links train")


def distances(links, n, src):
    """Hops from member src to each member over the wiring (None: none)."""
    adj = {i: set() for i in range(n)}
    for a, _, b, _ in links:
        adj[a].add(b)
        adj[b].add(a)
    dist = {src: 0}
    todo = [src]
    while todo:
        m = todo.pop(0)
        for x in sorted(adj[m]):
            if x not in dist:
                dist[x] = dist[m] + 1
                todo.append(x)
    return [dist.get(i) for i in range(n)]


def route_ok(r, ends, dist):
    """Is route r a shortest chain of wired ports from r["from"] to r["to"]?"""
    at = r["from"]
    for hop in r["hops"]:
        index, port = (int(x) for x in hop.split("."))
        if index != at or (index, port) not in ends:
            return False
        at = ends[(index, port)][0]
    return at == r["to"] and len(r["hops"]) == dist[r["from"]][r["to"]]


def check_routes_of(qemu, name, fabric, n, links):
    """Every route the link transport would get, all links UP."""
    with Qmp(qemu, fabric, n) as vm:
        vm.wait_states(lambda e: "up")
        routes = vm.cmd("qom-get", path=FABRIC, property="routes")["return"]
        ends = ends_of(links)
        dist = [distances(links, n, i) for i in range(n)]
        bad = [r for r in routes if r["result"] != "ok" or
               not route_ok(r, ends, dist)]
        check(len(routes) == n * (n - 1) and not bad,
              "%s: every route is a shortest path of wired ports" % name,
              str(bad[:3]))


def check_routes_down(qemu):
    """Routes over links that are down: the other rung link, or an error."""
    with Qmp(qemu, "topology=m2000", 4) as vm:
        vm.wait_states(lambda e: "up")
        vm.qom_set("link", "index=0,port=2,state=down")
        vm.qom_set("link", "index=0,port=0,state=down")
        routes = {(r["from"], r["to"]): r for r in
                  vm.cmd("qom-get", path=FABRIC, property="routes")["return"]}
        check(routes[(0, 1)]["result"] == "ok" and
              routes[(0, 1)]["hops"] == ["0.1"],
              "routes: a rung with one link down crosses the other",
              str(routes[(0, 1)]))
        check(routes[(0, 2)]["result"] == "link-down" and
              routes[(0, 2)]["down"] == (0 << 8 | 2) and
              routes[(2, 0)]["down"] == (2 << 8 | 3),
              "routes: a hop whose link is down names it",
              str([routes[(0, 2)], routes[(2, 0)]]))
    with Qmp(qemu, "size=3,wiring=0.0-1.0", 2) as vm:
        routes = {(r["from"], r["to"]): r for r in
                  vm.cmd("qom-get", path=FABRIC, property="routes")["return"]}
        check(routes[(0, 2)]["result"] == "no-route" and
              routes[(1, 0)]["result"] in ("ok", "link-down"),
              "routes: a member not wired has no route", str(routes[(0, 2)]))


# (fabric, cards' extra properties, the message QEMU must stop with)
BAD = [
    ("topology=m3000", [], "unknown topology 'm3000'"),
    ("topology=m2000,size=8", [], "topology m2000 has 4 members"),
    ("topology=pod16,size=4", [], "topology pod16 has 16 members"),
    ("topology=ring", [], "topology ring needs size=N"),
    ("topology=ring,size=1", [], "topology ring needs size=N"),
    ("topology=ring,size=65", [], "topology ring needs size=N"),
    ("topology=explicit,size=2", [], "wiring= is required"),
    ("topology=ring,size=2,wiring=0.0-1.0", [], "wiring= is not allowed"),
    ("size=2,wiring=0.0-1.0:0.0-1.1", [], "a port is wired twice"),
    ("size=2,wiring=0.0-2.0", [], "member index out of range"),
    ("size=2,wiring=0.1-0.1", [], "joins a port to itself"),
    ("size=2,wiring=0.32-1.0", [], "ports are 0-31"),
    ("size=2,wiring=0.0-1", [], "is not A.P-B.Q"),
    ("topology=m2000", [",fabric=f0"], "needs fabric-index=N"),
    ("topology=m2000", [",fabric-index=0"], "fabric-index needs fabric=ID"),
    ("topology=m2000", [",fabric=f0,fabric-index=4"],
     "fabric-index 4 out of range"),
    ("topology=m2000", [",fabric=f0,fabric-index=1"] * 2,
     "fabric-index 1 is taken"),
    ("size=2,wiring=0.4-1.0", [",fabric=f0,fabric-index=0"],
     "the card has 4 link ports; the fabric wires port 4 of member 0"),
]


def check_bad(qemu):
    for fabric, cards, msg in BAD:
        try:
            p = subprocess.run(qemu_args(qemu, fabric, cards) + ["-S"],
                               capture_output=True, text=True, timeout=30)
            ok = p.returncode != 0 and msg in p.stderr
            why = "status %d: %s" % (p.returncode, p.stderr.strip())
        except subprocess.TimeoutExpired:
            ok, why = False, "QEMU kept running"
        check(ok, "refused: " + " ".join([fabric] + cards), why)


def main():
    if len(sys.argv) != 2:
        sys.stderr.write(__doc__)
        return 2
    qemu = sys.argv[1]
    check_topology(qemu, "m2000", "topology=m2000", 4, ladder(4, False))
    check_topology(qemu, "pod16", "topology=pod16", 16, ladder(16, True))
    check_topology(qemu, "ring of 3", "topology=ring,size=3", 3, ring(3))
    check_topology(qemu, "ring of 2", "topology=ring,size=2", 2, ring(2))
    check_topology(qemu, "explicit", "size=3,wiring=0.3-2.1:1.0-2.0", 3,
                   [(0, 3, 2, 1), (1, 0, 2, 0)])
    check_reset(qemu)
    check_slot_power(qemu)
    check_routes_of(qemu, "m2000", "topology=m2000", 4, ladder(4, False))
    check_routes_of(qemu, "pod16", "topology=pod16", 16, ladder(16, True))
    check_routes_down(qemu)
    check_bad(qemu)
    print("KTAP version 1")
    print("1..%d" % len(results))
    for i, (ok, name, why) in enumerate(results, 1):
        print("%sok %d fabric: %s%s" % ("" if ok else "not ", i, name,
                                        "" if ok or not why else " # " + why))
    return 0 if all(ok for ok, _, _ in results) else 1


if __name__ == "__main__":
    sys.exit(main())

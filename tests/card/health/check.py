#!/usr/bin/env python3
"""The card's health, telemetry and fault injection, on the host (no guest).

Usage: check.py QEMU IPU_MKGRAPH   (KTAP to stdout; exit 0 when all passed)

Runs the built QEMU with one `test` model card under QEMU's qtest
accelerator: no guest runs, the test reads and writes the card's BARs,
PCI configuration space and guest RAM through the qtest protocol, and
it alone advances emulated time (`clock_step`), so the heartbeat and the
telemetry windows are exact. Faults are injected through QMP as
docs/hw-interface.md "Fault injection (1.6)" says, mid-command where it
matters, and each check asserts what a driver would see: registers,
completion entries in guest RAM, MSI-X messages (their addresses point
into guest RAM, so a message is a write the test can read back).
Register offsets and bits come from include/ipu/ipu_hw.h.
"""
import base64
import json
import os
import re
import socket
import struct
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, "..", "..", ".."))
CARD = "/machine/peripheral/ipu0"
MS = 1000000                    # ns
DEV = 4                         # the card's slot on pcie.0
BAR0, BAR2, BAR4 = 0xe0000000, 0xe0100000, 0xe0200000
SQ, CQ = 0x200000, 0x210000     # ring n at + 0x1000 n
MSI = 0x300000                  # MSI-X vector v writes here + 4 v
DATA = 0x400000                 # command data
POLL = 20000                    # bounded retries of anything the worker does

results = []


def header_defines():
    """The numeric #defines of ipu_hw.h (and IPU_HW_VERSION from them)."""
    defs = {}
    with open(os.path.join(REPO, "include", "ipu", "ipu_hw.h")) as f:
        for m in re.finditer(r"#define\s+(IPU_\w+)\s+\(?(0x[0-9a-fA-F]+|\d+)u?"
                             r"(?:\s*<<\s*(\d+)\))?", f.read()):
            v = int(m.group(2), 0)
            defs[m.group(1)] = v << int(m.group(3)) if m.group(3) else v
    defs["IPU_HW_VERSION"] = (defs["IPU_HW_VERSION_MAJOR"] << 16 |
                              defs["IPU_HW_VERSION_MINOR"])
    return defs


H = header_defines()


def check(ok, name, why=""):
    results.append((bool(ok), name, why))
    return ok


class Card:
    """QEMU with one card under qtest: BARs, RAM and QMP."""

    def __init__(self, qemu):
        self.dir = tempfile.mkdtemp(prefix="ipu-health-")
        qt = os.path.join(self.dir, "qtest.sock")
        qmp = os.path.join(self.dir, "qmp.sock")
        self.log = open(os.path.join(self.dir, "stderr"), "w+")
        args = [qemu, "-machine", "q35", "-accel", "qtest", "-nodefaults",
                "-display", "none", "-m", "256",
                "-L", "/usr/share/seabios", "-L", "/usr/share/qemu",
                "-monitor", "none", "-serial", "none",
                "-qtest", "unix:%s,server=on,wait=off" % qt,
                "-qmp", "unix:%s,server=on,wait=off" % qmp,
                "-device", "ipu,id=ipu0,model=test,bus=pcie.0,addr=%d" % DEV]
        self.proc = subprocess.Popen(args, stderr=self.log)
        self.qt = self._connect(qt).makefile("rw")
        self.qmp = self._connect(qmp).makefile("rw")
        self.qmp.readline()
        self.cmd("qmp_capabilities")
        self._pci_setup()

    def _connect(self, path):
        for _ in range(300):
            if self.proc.poll() is not None:
                raise RuntimeError("QEMU exited: " + self.stderr())
            s = socket.socket(socket.AF_UNIX)
            try:
                s.connect(path)
                return s
            except OSError:
                s.close()
                time.sleep(0.1)
        raise RuntimeError("no socket " + path)

    def stderr(self):
        self.log.flush()
        self.log.seek(0)
        return self.log.read()

    def close(self):
        try:
            self.cmd("quit")
        except (OSError, ValueError):
            pass
        try:
            self.proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()

    # ---- qtest ----
    def q(self, line):
        self.qt.write(line + "\n")
        self.qt.flush()
        while True:
            r = self.qt.readline().split()
            if not r:
                raise RuntimeError("qtest: no answer to " + line)
            if r[0] != "IRQ":
                break
        if r[0] != "OK":
            raise RuntimeError("qtest: %s: %s" % (line, " ".join(r)))
        return int(r[1], 16) if len(r) > 1 else None

    def step(self, ms):
        self.q("clock_step %d" % (ms * MS))

    def rd(self, reg):
        return self.q("readl 0x%x" % (BAR0 + reg))

    def wr(self, reg, val):
        self.q("writel 0x%x 0x%x" % (BAR0 + reg, val))

    def mem_write(self, addr, data):
        self.q("b64write 0x%x 0x%x %s" % (addr, len(data),
                                          base64.b64encode(data).decode()))

    def mem_read(self, addr, n):
        self.qt.write("b64read 0x%x 0x%x\n" % (addr, n))
        self.qt.flush()
        r = self.qt.readline().split()
        return base64.b64decode(r[1])

    def cfg_rd(self, off):
        self.q("outl 0xcf8 0x%x" % (0x80000000 | DEV << 11 | off))
        return self.q("inl 0xcfc")

    def cfg_wr(self, off, val):
        self.q("outl 0xcf8 0x%x" % (0x80000000 | DEV << 11 | off))
        self.q("outl 0xcfc 0x%x" % val)

    def _pci_setup(self):
        """BARs, memory and bus mastering, MSI-X into guest RAM."""
        self.cfg_wr(0x10, BAR0)
        self.cfg_wr(0x18, BAR2)
        self.cfg_wr(0x20, BAR4)
        self.cfg_wr(0x04, 0x6)
        cap = self.cfg_rd(0x34) & 0xff
        while cap and self.cfg_rd(cap) & 0xff != 0x11:
            cap = self.cfg_rd(cap) >> 8 & 0xff
        if not cap:
            raise RuntimeError("no MSI-X capability")
        table = BAR2 + (self.cfg_rd(cap + 4) & ~7)
        for v in range(H["IPU_MSIX_VECTORS"]):
            self.q("writel 0x%x 0x%x" % (table + 16 * v, MSI + 4 * v))
            self.q("writel 0x%x 0" % (table + 16 * v + 4))
            self.q("writel 0x%x 0x%x" % (table + 16 * v + 8, 0xa000 + v))
            self.q("writel 0x%x 0" % (table + 16 * v + 12))
        self.cfg_wr(cap, self.cfg_rd(cap) & ~(1 << 30) | 1 << 31)

    def msi(self, v):
        return self.q("readl 0x%x" % (MSI + 4 * v))

    def msi_clear(self, v):
        self.q("writel 0x%x 0" % (MSI + 4 * v))

    # ---- QMP ----
    def cmd(self, name, **args):
        msg = {"execute": name}
        if args:
            msg["arguments"] = args
        self.qmp.write(json.dumps(msg) + "\n")
        self.qmp.flush()
        while True:
            r = json.loads(self.qmp.readline())
            if "event" not in r:
                return r

    def inject(self, value):
        """None when accepted, else QEMU's error message."""
        r = self.cmd("qom-set", path=CARD, property="inject-fault",
                     value=value)
        return r["error"]["desc"] if "error" in r else None

    def faults(self):
        return self.cmd("qom-get", path=CARD, property="faults")["return"]

    # ---- the card ----
    def state(self):
        return self.rd(H["IPU_REG_STATUS"])

    def ready(self):
        return self.state() == H["IPU_CARD_STATE_READY"] | H["IPU_CARD_READY"]

    def wait_ready(self, limit_ms=2000):
        """Steps 1 ms at a time until READY; the emulated ms it took."""
        for ms in range(1, limit_ms + 1):
            self.step(1)
            if self.ready():
                return ms
            time.sleep(0.001)
        return None

    def reset(self):
        self.wr(H["IPU_REG_CONTROL"], H["IPU_CONTROL_RESET"])
        return self.wait_ready()

    def q_reg(self, qi, reg):
        return H["IPU_REG_QUEUE_BASE"] + qi * H["IPU_QUEUE_STRIDE"] + reg

    def q_enable(self, qi, size=16):
        """(Re)starts queue @qi afresh: disabled first, then enabled."""
        status = self.q_reg(qi, H["IPU_Q_STATUS"])
        self.wr(self.q_reg(qi, H["IPU_Q_CTRL"]), 0)
        self.wait_for(lambda: not self.rd(status) & H["IPU_Q_STATUS_ENABLED"])
        self.mem_write(CQ + 0x1000 * qi, bytes(32 * size))
        self.wr(self.q_reg(qi, H["IPU_Q_SQ_BASE_LO"]), SQ + 0x1000 * qi)
        self.wr(self.q_reg(qi, H["IPU_Q_CQ_BASE_LO"]), CQ + 0x1000 * qi)
        self.wr(self.q_reg(qi, H["IPU_Q_SIZE"]), size)
        self.wr(self.q_reg(qi, H["IPU_Q_VECTOR"]), qi + 1)
        self.wr(self.q_reg(qi, H["IPU_Q_CTRL"]), H["IPU_Q_CTRL_ENABLE"])
        self.sq_tail = getattr(self, "sq_tail", {})
        self.sq_tail[qi] = 0
        return self.rd(self.q_reg(qi, H["IPU_Q_STATUS"]))

    def submit(self, qi, opcode, cid, handle=0, offset=0, length=0, data=0,
               count=0):
        sqe = struct.pack("<BBHIQQQIIQ16x", opcode, 0, cid, handle, offset,
                          length, data, 0, count, 0)
        slot = self.sq_tail[qi]
        self.mem_write(SQ + 0x1000 * qi + 64 * slot, sqe)
        self.sq_tail[qi] = (slot + 1) % 16
        self.wr(H["IPU_REG_DOORBELL_BASE"] + 8 * qi, self.sq_tail[qi])
        return slot

    def cqe(self, qi, slot):
        """(cid, code, phase, sq_id, detail, detail2) of CQ entry @slot."""
        cid, st, _, sq_id, d, d2, _, _ = struct.unpack(
            "<HHHHIIQQ", self.mem_read(CQ + 0x1000 * qi + 32 * slot, 32))
        return cid, st >> 1, st & 1, sq_id, d, d2

    def wait_cqe(self, qi, slot):
        for _ in range(POLL):
            e = self.cqe(qi, slot)
            if e[2]:
                return e
            time.sleep(0.001)
        return None

    def wait_for(self, pred):
        for _ in range(POLL):
            if pred():
                return True
            time.sleep(0.001)
        return False


FENCE = 0x05


def t_identity(c):
    check(c.rd(H["IPU_REG_VERSION"]) == H["IPU_HW_VERSION"],
          "VERSION is IPU_HW_VERSION (1.6)")
    check(c.rd(H["IPU_REG_CAPS"]) & H["IPU_CAP_HEALTH"], "CAPS.HEALTH set")
    check(c.rd(H["IPU_REG_HEALTH"]) == 0 and c.rd(H["IPU_REG_ACTIVE"]) == 0,
          "HEALTH and ACTIVE read 0 on a healthy idle card")
    hb = c.rd(H["IPU_REG_HEARTBEAT"])
    c.wr(H["IPU_REG_HEARTBEAT"], 0)
    check(c.rd(H["IPU_REG_HEARTBEAT"]) == hb, "HEARTBEAT is read-only")


def t_heartbeat(c):
    hb = c.rd(H["IPU_REG_HEARTBEAT"])
    c.step(50)
    hb2 = c.rd(H["IPU_REG_HEARTBEAT"])
    check(hb2 - hb == 50, "heartbeat: +1 per emulated ms while READY",
          "%d -> %d in 50 ms" % (hb, hb2))
    ms = c.reset()
    check(ms is not None and c.rd(H["IPU_REG_HEARTBEAT"]) == 0,
          "heartbeat: 0 at READY after a reset (none while RESETTING)")
    c.step(7)
    check(c.rd(H["IPU_REG_HEARTBEAT"]) == 7,
          "heartbeat: counts from READY")


def t_heartbeat_stop(c):
    check(c.inject("type=heartbeat-stop") is None, "heartbeat-stop accepted")
    hb = c.rd(H["IPU_REG_HEARTBEAT"])
    c.step(100)
    check(c.rd(H["IPU_REG_HEARTBEAT"]) == hb,
          "heartbeat-stop: HEARTBEAT stands still over 100 ms")
    check(c.inject("type=heartbeat-stop") is not None,
          "heartbeat-stop: refused while stopped")
    f = c.faults()
    check(f["heartbeat-stopped"] and
          f["injected"]["heartbeat-stop"] == 1,
          "heartbeat-stop: qom-get shows it in effect and counted", str(f))
    c.q_enable(0)
    slot = c.submit(0, FENCE, 3)
    e = c.wait_cqe(0, slot)
    check(e and e[1] == 0, "heartbeat-stop: commands still complete")
    c.reset()
    c.step(10)
    check(c.rd(H["IPU_REG_HEARTBEAT"]) == 10 and
          not c.faults()["heartbeat-stopped"],
          "heartbeat-stop: a reset restarts the heartbeat")


def t_progress_counts(c):
    c.q_enable(0)
    p = c.rd(H["IPU_REG_PROGRESS"])
    slot = c.submit(0, FENCE, 4)
    e = c.wait_cqe(0, slot)
    check(e and e[0] == 4 and e[1] == 0 and e[3] == 0, "FENCE completes")
    check(c.rd(H["IPU_REG_PROGRESS"]) != p, "PROGRESS moved by a command")
    check(c.rd(H["IPU_REG_ACTIVE"]) == 0, "ACTIVE 0 once it completed")
    # A LOAD of 4 MiB of garbage moves 4 chunks before it fails.
    p = c.rd(H["IPU_REG_PROGRESS"])
    c.q("memset 0x%x 0x%x 0x5a" % (DATA, 4 << 20))
    slot = c.submit(0, 0x01, 5, length=4 << 20, data=DATA)
    e = c.wait_cqe(0, slot)
    moved = c.rd(H["IPU_REG_PROGRESS"]) - p
    check(e and e[1] == H["IPU_CS_LOAD_FAILED"] and moved >= 4 + 1,
          "PROGRESS: +1 per DMA chunk (4 MiB LOAD)", "moved %d" % moved)
    c.reset()


def load_add_graph(c, mkgraph):
    """LOAD `ipu-mkgraph add` and WRITE its inputs a, b (handles 0, 1)."""
    d = tempfile.mkdtemp(prefix="ipu-health-graph-")
    g = os.path.join(d, "add.ipug")
    env = dict(os.environ)
    env["LD_LIBRARY_PATH"] = os.path.join(os.path.dirname(mkgraph), "..",
                                          "lib")
    subprocess.run([mkgraph, "-m", "test", "-s", "4096", "add", g],
                   check=True, env=env, stdout=subprocess.DEVNULL)
    blob = open(g, "rb").read()
    c.mem_write(DATA, blob)
    ok = True
    for cid, (op, h, n) in enumerate([(0x01, 0, len(blob)),
                                      (0x02, 0, 4 * 4096),
                                      (0x02, 1, 4 * 4096)], start=20):
        slot = c.submit(0, op, cid, handle=h, length=n,
                        data=DATA if op == 1 else DATA + 0x100000)
        e = c.wait_cqe(0, slot)
        ok = ok and e is not None and e[1] == 0
    return ok


def t_long_job(c, mkgraph):
    c.q_enable(0)
    c.q_enable(1)
    if not check(load_add_graph(c, mkgraph), "long job: graph loaded"):
        return
    slot = c.submit(0, 0x04, 30, handle=0, count=0xffffffff)
    busy = H["IPU_ACTIVE_BUSY"] | 30
    c.wait_for(lambda: c.rd(H["IPU_REG_ACTIVE"]) == busy)
    p0 = c.rd(H["IPU_REG_PROGRESS"])
    moved = c.wait_for(lambda: c.rd(H["IPU_REG_PROGRESS"]) != p0)
    check(moved and c.rd(H["IPU_REG_ACTIVE"]) == busy and
          not c.cqe(0, slot)[2],
          "PROGRESS advances during a long RUN (ACTIVE shows it)")
    c.step(2 * IPU_WINDOW)      # a whole window under the RUN
    check(c.rd(H["IPU_REG_UTIL"]) == 1000, "UTIL 1000 under a long RUN")
    c.submit(1, 0x06, 31)
    e = c.wait_cqe(0, slot)
    check(e and e[1] == H["IPU_CS_ABORTED"],
          "long job: a slow RUN still takes ABORT")
    c.reset()


IPU_WINDOW = H["IPU_UTIL_WINDOW_MS"]


def t_hang(c):
    rd = c.rd
    c.step(5 * IPU_WINDOW)
    t_idle, p_idle = rd(H["IPU_REG_TEMP"]), rd(H["IPU_REG_POWER"])
    check(rd(H["IPU_REG_UTIL"]) == 0, "UTIL 0 when idle")
    check(c.inject("type=hang-job") is None, "hang-job armed")
    check(c.faults()["armed"] == ["hang-job"], "qom-get shows hang-job armed")
    c.q_enable(0)
    c.q_enable(1)
    slot = c.submit(0, FENCE, 7)
    check(c.wait_for(lambda: c.faults()["hung-job"]), "hang-job fired")
    busy = H["IPU_ACTIVE_BUSY"] | 0 << 16 | 7
    check(rd(H["IPU_REG_ACTIVE"]) == busy, "ACTIVE names the hung command")
    p, hb = rd(H["IPU_REG_PROGRESS"]), rd(H["IPU_REG_HEARTBEAT"])
    c.submit(1, 0x06, 8)                        # ABORT: ignored
    c.wr(c.q_reg(0, H["IPU_Q_CTRL"]), 0)        # disable: ignored
    c.step(1000)
    time.sleep(0.05)
    check(rd(H["IPU_REG_PROGRESS"]) == p, "hung job: PROGRESS stands still")
    check(rd(H["IPU_REG_HEARTBEAT"]) - hb == 1000,
          "hung job: the heartbeat goes on")
    check(not c.cqe(0, slot)[2] and rd(H["IPU_REG_ACTIVE"]) == busy and
          rd(c.q_reg(0, H["IPU_Q_STATUS"])) & H["IPU_Q_STATUS_ENABLED"],
          "hung job: no completion; ABORT and disable do not end it")
    # Telemetry under load: a hung job keeps the card busy.
    t_load, p_load = rd(H["IPU_REG_TEMP"]), rd(H["IPU_REG_POWER"])
    check(rd(H["IPU_REG_UTIL"]) == 1000, "UTIL 1000 while busy")
    check(p_load > p_idle and t_load > t_idle,
          "POWER and TEMP rise under load",
          "power %d -> %d mW, temp %d -> %d mC" % (p_idle, p_load, t_idle,
                                                   t_load))
    ms = c.reset()
    f = c.faults()
    check(ms is not None and not f["hung-job"] and
          f["injected"]["hang-job"] == 1 and f["armed"] == [],
          "hang-job: a reset ends it", str(f))
    check(not c.cqe(0, slot)[2], "hang-job: no completion after the reset")
    c.step(5 * IPU_WINDOW)
    check(rd(H["IPU_REG_UTIL"]) == 0 and rd(H["IPU_REG_POWER"]) == p_idle,
          "UTIL and POWER back to idle")
    check(rd(H["IPU_REG_TEMP"]) < t_load, "TEMP falls when idle",
          "%d -> %d mC" % (t_load, rd(H["IPU_REG_TEMP"])))
    c.q_enable(0)
    slot = c.submit(0, FENCE, 9)
    e = c.wait_cqe(0, slot)
    check(e and e[1] == 0, "hang-job: the next command after reset runs")


def t_dma_error(c):
    c.q_enable(0)
    n = c.rd(H["IPU_REG_ERR_DMA"])
    check(c.inject("type=dma-error") is None, "dma-error armed")
    slot = c.submit(0, 0x01, 10, length=4096, data=DATA)
    e = c.wait_cqe(0, slot)
    check(e and e[1] == H["IPU_CS_DMA_ERROR"] and e[4] == DATA and e[5] == 0,
          "dma-error: the next transfer fails with DMA_ERROR at its address",
          str(e))
    check(c.rd(H["IPU_REG_ERR_DMA"]) == n + 1, "dma-error: ERR_DMA counts it")
    slot = c.submit(0, 0x01, 11, length=4096, data=DATA)
    e = c.wait_cqe(0, slot)
    check(e and e[1] == H["IPU_CS_LOAD_FAILED"],
          "dma-error: only the next one fails")
    check(c.faults()["injected"]["dma-error"] == 1, "dma-error counted")


def t_corrupt_cqe(c):
    c.q_enable(0)
    check(c.inject("type=corrupt-cqe") is None, "corrupt-cqe armed")
    slot = c.submit(0, FENCE, 12)
    e = c.wait_cqe(0, slot)
    check(e and e[0] == (~12 & 0xffff) and
          e[3] == H["IPU_CQE_SQ_ID_CORRUPT"] and e[2] == 1,
          "corrupt-cqe: sq_id 0xffff, cid inverted, phase right", str(e))
    slot = c.submit(0, FENCE, 13)
    e = c.wait_cqe(0, slot)
    check(e and e[0] == 13 and e[3] == 0, "corrupt-cqe: only the next one")


def t_drop_irq(c):
    c.q_enable(0)
    c.q_enable(1)
    c.msi_clear(1)
    c.msi_clear(2)
    check(c.inject("type=drop-irq") is None, "drop-irq armed")
    slot = c.submit(0, FENCE, 14)
    e = c.wait_cqe(0, slot)
    # Queue 1's interrupt comes after queue 0's would have.
    slot1 = c.submit(1, FENCE, 15)
    c.wait_cqe(1, slot1)
    got = c.wait_for(lambda: c.msi(2) == 0xa002)
    check(e and e[1] == 0 and got and c.msi(1) == 0,
          "drop-irq: the completion is posted, its MSI-X message is lost",
          "vector 1: 0x%x, vector 2: 0x%x" % (c.msi(1), c.msi(2)))
    slot = c.submit(0, FENCE, 16)
    c.wait_cqe(0, slot)
    check(c.wait_for(lambda: c.msi(1) == 0xa001),
          "drop-irq: the next interrupt is sent")
    check(c.faults()["injected"]["drop-irq"] == 1, "drop-irq counted")


def t_fatal(c):
    n = c.rd(H["IPU_REG_ERR_FATAL"])
    hb = c.rd(H["IPU_REG_HEARTBEAT"])
    check(c.inject("type=fatal") is None, "fatal accepted")
    check(c.state() == H["IPU_CARD_STATE_FAILED"], "fatal: STATUS FAILED")
    check(c.rd(H["IPU_REG_HEALTH"]) ==
          H["IPU_HEALTH_FATAL"] | H["IPU_FATAL_FIRMWARE"] << 8,
          "fatal: HEALTH FATAL, cause FIRMWARE")
    check(c.rd(H["IPU_REG_IRQ_STATUS"]) & H["IPU_IRQ_ERROR"],
          "fatal: the ERROR cause is pending")
    check(c.rd(H["IPU_REG_ERR_FATAL"]) == n + 1, "fatal: ERR_FATAL counts it")
    c.step(50)
    check(c.rd(H["IPU_REG_HEARTBEAT"]) == hb, "fatal: the heartbeat stops")
    check(c.inject("type=fatal") is not None,
          "fatal: refused on a card that is not READY")
    check(c.faults()["fatal"], "fatal: qom-get shows it")
    ms = c.reset()
    check(ms is not None and c.rd(H["IPU_REG_HEALTH"]) == 0 and
          not c.faults()["fatal"], "fatal: a reset clears it")
    check(c.rd(H["IPU_REG_ERR_FATAL"]) == n + 1,
          "fatal: ERR_FATAL kept by a soft reset")
    c.q_enable(0)
    slot = c.submit(0, FENCE, 17)
    e = c.wait_cqe(0, slot)
    check(e and e[1] == 0, "fatal: the card works after the reset")


def t_ready_delay(c):
    check(c.inject("type=ready-delay,ms=500") is None, "ready-delay armed")
    check(c.faults()["ready-delay-ms"] == 500, "qom-get shows its ms")
    ms = c.reset()
    base = H["IPU_READY_DELAY_US"] // 1000
    check(ms == base + 500, "ready-delay: READY 500 ms late",
          "READY after %s ms" % ms)
    check(c.reset() == base, "ready-delay: only the next reset")


def t_refused(c):
    before = c.faults()
    for v in ["", "type=bogus", "bogus=1", "type=hang-job,type=fatal",
              "type=hang-job,ms=5", "type=ready-delay",
              "type=ready-delay,ms=0", "type=ready-delay,ms=60001",
              "type=ready-delay,ms=abc", "type=ready-delay,ms=-1",
              "type=dma-error,extra"]:
        err = c.inject(v)
        check(err, "refused: inject-fault=%r" % v, str(err))
    check(c.faults() == before, "refused requests change nothing")
    check(c.inject("type=hang-job") is None and
          c.inject("type=hang-job") is not None,
          "refused: arming an armed fault")
    check(c.inject("type=clear") is None and c.faults()["armed"] == [],
          "clear disarms")
    r = c.cmd("qom-set", path=CARD, property="faults", value="x")
    check("error" in r, "faults is read-only")


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    qemu, mkgraph = sys.argv[1], sys.argv[2]
    c = Card(qemu)
    try:
        check(c.wait_ready() == H["IPU_READY_DELAY_US"] // 1000,
              "the card comes up READY in qtest")
        for t in (t_identity, t_heartbeat, t_heartbeat_stop,
                  t_progress_counts, t_hang, t_dma_error, t_corrupt_cqe,
                  t_drop_irq, t_fatal, t_ready_delay, t_refused):
            t(c)
        t_long_job(c, mkgraph)
        check("fault injected: hang-job" in c.stderr(),
              "an injected fault is a line on QEMU's stderr")
    except Exception as e:      # a broken run is a failure, not a crash
        check(False, "the checks ran to the end", repr(e))
    finally:
        c.close()
    check(c.proc.returncode == 0, "QEMU exits cleanly",
          "exit %s" % c.proc.returncode)
    print("KTAP version 1")
    print("1..%d" % len(results))
    for i, (ok, name, why) in enumerate(results, 1):
        print("%s %d %s%s" % ("ok" if ok else "not ok", i, name,
                              "" if ok or not why else " # " + why))
    return 0 if all(r[0] for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())

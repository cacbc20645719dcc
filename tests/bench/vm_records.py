#!/usr/bin/env python3
"""Turn the VM benchmark outputs (ipu-bench.json, nvme.json from
tests/bench/vm-bench.sh) into `make bench` records (scripts/bench-report.py):
{name, value, unit, baseline, ratio, target}. Usage: vm_records.py DIR OUT"""
import sys

from bench_records import Records

records = Records(sys.argv[1], "bench-vm")
load, rec = records.load, records.rec

bench = load("ipu-bench.json") or {}
nvme = load("nvme.json") or {}
nvme_gbps = nvme.get("gbps")
nvmez_gbps = (load("nvme-zeroes.json") or {}).get("gbps")
host_memcpy_gbps = (load("host-memcpy.json") or {}).get("gbps")
guest_memcpy_gbps = (bench.get("baseline") or {}).get("memcpy_gbps")
SIZE = 64 << 20


def best_row(b, direction):
    rows = [r for r in (b or {}).get("bandwidth", [])
            if r["bytes"] == SIZE and r["direction"] == direction]
    return rows, (max(rows, key=lambda r: r["gbps"]) if rows else None)


# The target: pairs taken back to back (vm-bench.sh); the median pair's
# figures, every pair's ratio beside them.
pairs = []
for r in (1, 2, 3):
    pn, pb = load(f"pair-nvme-{r}.json"), load(f"pair-ipu-{r}.json")
    if pn and pb and pn.get("gbps"):
        pairs.append((pn["gbps"], pb))
for direction, word in (("host-to-card", "write"), ("card-to-host", "read")):
    ratios = []
    for n_gbps, pb in pairs:
        _, b = best_row(pb, direction)
        if b:
            ratios.append((b["gbps"] / n_gbps, b["gbps"], n_gbps, b["kind"]))
    ratios.sort()
    mid = ratios[len(ratios) // 2] if ratios else (None, None, None, None)
    rec(f"64 MiB {word} throughput vs NVMe read", mid[1], "GB/s", mid[2], ">= 1.0",
        kind=mid[3], paired_ratios=[round(x[0], 3) for x in ratios])
    rows, best = best_row(bench, direction)
    v = best["gbps"] if best else None
    kind = best["kind"] if best else None
    rec(f"64 MiB {word} throughput in the sweep vs NVMe read", v, "GB/s", nvme_gbps, None,
        kind=kind)
    rec(f"64 MiB {word} throughput vs host memcpy", v, "GB/s", host_memcpy_gbps, ">= 1.0",
        kind=kind)
    rec(f"64 MiB {word} throughput vs guest memcpy (TCG)", v, "GB/s", guest_memcpy_gbps,
        None, kind=kind)
    rec(f"64 MiB {word} throughput vs NVMe read (read-zeroes=on)", v, "GB/s", nvmez_gbps,
        None, kind=kind)
    for r in rows:
        rec(f"64 MiB {word} throughput ({r['kind']}) vs NVMe read", r["gbps"], "GB/s",
            nvme_gbps, None)
lat = bench.get("latency") or {}
rt = (lat.get("empty_program") or {}).get("median_us")
null = (lat.get("null_ioctl") or {}).get("median_us")
rt_submit = (lat.get("empty_program_submit") or {}).get("median_us")
runq = bench.get("run_queue", "auto")
# the graph's first run after its load, apart from the steady state
first = (lat.get("empty_program") or {}).get("first_us")
first_submit = (lat.get("empty_program_submit") or {}).get("first_us")
# the target: ipu_run (through the user queue when the driver has one)
rec("empty-program round trip vs null ioctl", rt, "us", null, "<= 3", run_queue=runq,
    first_run_us=first)
# informational: the same round trip with the library forced to SUBMIT
rec("empty-program round trip (SUBMIT) vs null ioctl", rt_submit, "us", null, None,
    first_run_us=first_submit)
records.write(sys.argv[2])

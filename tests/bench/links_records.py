#!/usr/bin/env python3
"""Turn the outputs of `make bench-links` (tests/bench/links-bench.sh in an
M2000 VM, and host-memcpy.json on the host) into `make bench` records
{name, value, unit, baseline, ratio, target}. Usage: links_records.py DIR OUT

Per linked pair a-b (names contain `links` and the pair):
  links_m2000_{a}-{b}_host: host GB/s (both directions summed, a run's
      wall time) vs the host's memcpy of the same run;
  links_m2000_{a}-{b}_modelled: modelled GB/s (the run's cycles) vs the
      modelled limit of the links joining them (docs/cost-model.md).
Host sync latency (4095 RUN round trips of one external sync):
  host_sync_4095_card0, host_sync_4095_m2000_group6: us a sync vs the
      median null ioctl of the same VM."""
import sys

from bench_records import Records

records = Records(sys.argv[1], "bench-links")
load, rec = records.load, records.rec

memcpy = (load("host-memcpy.json") or {}).get("gbps")
links = load("links.json") or {}
for p in links.get("pairs", []):
    pair = f"{p['ipu_a']}-{p['ipu_b']}"
    extra = {"links": p["links"], "device_id": p["device_id"], "bytes": p["bytes"],
             "runs": p["runs"]}
    rec(f"links_m2000_{pair}_host", p["host_gbps"], "GB/s", memcpy, None,
        host_us=p["host_us"], **extra)
    rec(f"links_m2000_{pair}_modelled", p["modelled_gbps"], "GB/s", p["link_limit_gbps"],
        "close to 1", modelled_us=p["modelled_us"], cycles=p["cycles"], **extra)
if not links.get("pairs"):
    rec("links_m2000_pairs", None, "GB/s", memcpy, None)

null = ((load("null.json") or {}).get("latency") or {}).get("null_ioctl", {}).get("median_us")
for f, name in (("host-sync-0.json", "host_sync_4095_card0"),
                ("host-sync-6.json", "host_sync_4095_m2000_group6")):
    s = load(f) or {}
    rec(name, s.get("per_sync_us"), "us", null, None, time_to_sync_us=s.get("time_to_sync_us"),
        median_us=s.get("median_us"), syncs=s.get("syncs"), ipus=s.get("ipus"),
        modelled_us_per_sync=s.get("modelled_us_per_sync"))
records.write(sys.argv[2])

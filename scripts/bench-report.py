#!/usr/bin/env python3
"""Collect the benchmark records (JSON) of one `make bench` run into one
table and one file, build/bench/results.json. Each record: name, value, unit,
baseline, ratio, target (a string such as '>= 0.5' or '<= 10 us')."""
import json
import pathlib
import sys

bench = pathlib.Path(sys.argv[1])
records = []
for f in sorted(bench.glob("*.json")):
    if f.name == "results.json":
        continue
    try:
        data = json.loads(f.read_text())
    except ValueError as e:
        print(f"bench: {f.name}: not JSON ({e})", file=sys.stderr)
        continue
    records += data if isinstance(data, list) else data.get("records", [data])
(bench / "results.json").write_text(json.dumps(records, indent=2) + "\n")

def fmt(v):
    if isinstance(v, float):
        return f"{v:.4g}"
    return "" if v is None else str(v)

cols = ["name", "value", "unit", "baseline", "ratio", "target"]
rows = [[fmt(r.get(c)) for c in cols] for r in records]
w = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
print("  ".join(c.ljust(w[i]) for i, c in enumerate(cols)))
for r in rows:
    print("  ".join(v.ljust(w[i]) for i, v in enumerate(r)))
print(f"{len(records)} figures written to {bench / 'results.json'}")

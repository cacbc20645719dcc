#!/usr/bin/env python3
"""Collect the benchmark records (JSON) of one `make bench` run into one
table and one file, build/bench/results.json. Each record: name, value, unit,
baseline, ratio, target (a string such as '>= 0.5' or '<= 10 us'); some add
the first run of a loaded graph, timed alone (first_run_s or first_run_us:
the value is the steady state, without it; steady_run_s: a whole run in
the steady state, to compare with) and the core OpenBLAS ran for
the baseline (openblas_core). The table shows those as the columns
"first run" and "openblas core" when a record has them."""
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

def first_run(r):
    if r.get("first_run_s") is not None:
        steady = r.get("steady_run_s")
        return f"{r['first_run_s']:.4g} s" + (f" (steady {steady:.4g} s)" if steady else "")
    if r.get("first_run_us") is not None:
        return f"{r['first_run_us']:.4g} us"
    return ""

cols = ["name", "value", "unit", "baseline", "ratio", "target"]
rows = [[fmt(r.get(c)) for c in cols] for r in records]
extra = [("first run", first_run), ("openblas core", lambda r: fmt(r.get("openblas_core")))]
for title, get in extra:
    if any(get(r) for r in records):
        cols.append(title)
        for row, r in zip(rows, records):
            row.append(get(r))
w = [max([len(c)] + [len(r[i]) for r in rows]) for i, c in enumerate(cols)]
print("  ".join(c.ljust(w[i]) for i, c in enumerate(cols)))
for r in rows:
    print("  ".join(v.ljust(w[i]) for i, v in enumerate(r)))
print(f"{len(records)} figures written to {bench / 'results.json'}")

"""What the scripts that turn VM benchmark outputs into `make bench` records
share (vm_records.py, links_records.py): reading an output of the run's
directory and collecting records {name, value, unit, baseline, ratio,
target} (scripts/bench-report.py reads them)."""
import json
import pathlib
import sys


class Records:
    """The records of one script; @tag prefixes its messages."""

    def __init__(self, directory, tag):
        self.dir = pathlib.Path(directory)
        self.tag = tag
        self.records = []

    def load(self, name):
        """The JSON of file @name of the directory; None (said on stderr)
        when it is missing or not JSON."""
        try:
            return json.loads((self.dir / name).read_text())
        except (OSError, ValueError) as e:
            print(f"{self.tag}: {name}: {e}", file=sys.stderr)
            return None

    def rec(self, name, value, unit, baseline, target, **extra):
        """One record; ratio = value / baseline when both are known."""
        ratio = value / baseline if value is not None and baseline else None
        r = {"name": name, "value": value, "unit": unit, "baseline": baseline,
             "ratio": ratio, "target": target}
        r.update(extra)
        self.records.append(r)

    def write(self, out):
        """All records to file @out, as one JSON array."""
        pathlib.Path(out).write_text(json.dumps(self.records, indent=2) + "\n")
        print(f"{self.tag}: {len(self.records)} records in {out}")

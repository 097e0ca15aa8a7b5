#!/usr/bin/env python3
"""What the stopping rule's first look at 12 values and batches that end on the looks' points would
have saved on a check measured before them (docs/check.md, "The first look at 12 values"; issue 31).
Not a test: it prints figures, read from one launch's raw.csv, no MPI.

    benchmarks/seq_replay.py DIR/launch-K/raw.csv

Per size class (below 256 KiB, 256 KiB-1 MiB, 4 MiB and up): the mock-ups stopped `decided` at the
old first look (20 values) whose first 12 values lie above the default's first 12 within the margin
(max(default) <= 1.05 min(mock-up): the whole-range interval decides them at 12 now) and the call
time of their values 13-20; and the mock-ups decided at a batch past a look's point (50 for 45, 70
for 68, ...) with the call time of their values past it.
"""
import collections
import csv
import sys

MARGIN = 1.05
POINTS = {20: 20, 30: 30, 50: 45, 70: 68, 110: 102, 160: 152, 230: 228, 350: 342, 520: 513, 770: 769}


def size_class(b):
    return "4 MiB and up" if b >= 4 << 20 else "256 KiB-1 MiB" if b >= 256 << 10 else "below 256 KiB"


def main(path):
    stops = {}
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                break
            if line.startswith("#@stop="):
                c, a, b, why, n = line[7:].strip().split(",")
                stops[(c, a, int(b))] = (why, int(n))
    vals = collections.defaultdict(list)
    with open(path) as f:
        rows = csv.reader(l for l in f if not l.startswith("#"))
        ix = {h: i for i, h in enumerate(next(rows))}
        for r in rows:
            if r[ix["warmup"]] == "1" or r[ix["valid"]] != "1":
                continue
            cell = r[ix["collective"]] + (":" + r[ix["datatype"]] + ":" + r[ix["op"]] if r[ix["op"]] else "")
            vals[(cell, r[ix["algorithm"]], int(r[ix["bytes"]]))].append(float(r[ix["runtime_sec"]]))
    calls, at20, at12, saved12, past, saved_past = (collections.Counter() for _ in range(6))
    for (c, a, b), (why, n) in stops.items():
        m, d = vals.get((c, a, b), []), vals.get((c, "default", b), [])
        if a == "default" or not m or not d:
            continue
        k = size_class(b)
        calls[k] += sum(m)
        if why == "decided" and n == 20:
            at20[k] += 1
            if len(m) >= 12 and len(d) >= 12 and max(d[:12]) <= MARGIN * min(m[:12]):
                at12[k] += 1
                saved12[k] += sum(m[12:20])
        if why == "decided" and n in POINTS and POINTS[n] < n:
            past[k] += 1
            saved_past[k] += sum(m[POINTS[n]:n])
    print(f"seq_replay: {path}")
    for k in ("below 256 KiB", "256 KiB-1 MiB", "4 MiB and up"):
        print(f"seq_replay: {k}: mock-up call time {calls[k]:.1f} s; decided at 20: {at20[k]}, of them at 12 now: "
              f"{at12[k]} ({saved12[k]:.1f} s of values 13-20); decided past a point: {past[k]} "
              f"({saved_past[k]:.1f} s past it)")


if __name__ == "__main__":
    main(sys.argv[1])

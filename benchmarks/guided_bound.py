#!/usr/bin/env python3
# What `check --model-guided` could save at most on a `check --full` run (issue 31): where the full
# run's measured time went, by what the verdicts say of each mock-up cell. Not a test: its figures
# are reported, never asserted.
#
#   benchmarks/guided_bound.py CHECKDIR [SLACK=1.5]
#
# CHECKDIR: a `check --full` output (raw.csv of one launch or launch-*/raw.csv, and verdicts.csv).
# The time of a series is the sum of its runtimes (every rank runs it; the rounds of one cell are
# interleaved, so a cell's time is the sum over its series). A rule that prices every cell exactly
# leaves out at most the mock-ups whose measured slowdown is below 1 / SLACK (the mock-up more than
# SLACK times slower than the default): the bound is total / (total - that time). Cells it must keep:
# violations, mock-ups near the default (slowdown >= 1 / SLACK), inconclusive ones, and the defaults.
import csv, glob, os, sys
from collections import defaultdict

d = sys.argv[1]
slack = float(sys.argv[2]) if len(sys.argv) > 2 else 1.5
raws = sorted(glob.glob(os.path.join(d, "launch-*", "raw.csv"))) or [os.path.join(d, "raw.csv")]
t = defaultdict(float)  # (collective, bytes, algorithm) -> seconds
n = defaultdict(int)
for path in raws:
    rows = (l for l in open(path) if not l.startswith("#"))
    for r in csv.DictReader(rows):
        if r["warmup"] == "1":
            continue
        k = (r["collective"], int(r["bytes"]), r["algorithm"])
        t[k] += float(r["runtime_sec"])
        n[k] += 1
verdicts = defaultdict(list)  # a cell's verdicts, one per reduction pair
for r in csv.DictReader(l for l in open(os.path.join(d, "verdicts.csv")) if not l.startswith("#")):
    if r.get("relation", "mockup") not in ("mockup", ""):
        continue
    try:
        s = float(r["slowdown"])
    except ValueError:
        s = float("nan")
    verdicts[(r["collective"], int(r["bytes"]), r["mockup"])].append((r["outcome"], s))


def cell_class(v):
    # a cell can be left out only when every reduction of it is consistent beyond the slack
    if all(o == "consistent" and s < 1 / slack for o, s in v):
        return "consistent, slower than 1/slack"
    for o in ("violation", "inconclusive"):
        if any(x == o for x, _ in v):
            return o
    return "consistent, near"


cls = defaultdict(float)
cnt = defaultdict(int)
for k, sec in t.items():
    if k[2] == "default":
        c = "default"
    elif k not in verdicts:
        c = "no verdict (library variant, skipped)"
    else:
        c = cell_class(verdicts[k])
    cls[c] += sec
    cnt[c] += 1
total = sum(cls.values())
print(f"guided_bound: {d} ({len(raws)} launch(es)), slack {slack}: measured time {total:.1f} s in {len(t)} series")
for c in sorted(cls, key=lambda c: -cls[c]):
    print(f"  {c:40s} {cls[c]:9.1f} s  {100 * cls[c] / total:5.1f} %  ({cnt[c]} series)")
out = cls["consistent, slower than 1/slack"]
print(f"  at most left out by an exact price at slack {slack}: {out:.1f} s; bound on the saving: "
      f"{total / (total - out) if total > out else float('inf'):.2f}x (the defaults measured once)")

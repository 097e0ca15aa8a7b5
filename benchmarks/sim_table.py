#!/usr/bin/env python3
"""One Markdown row per (platform, ranks, selector, collective, size, reduction) of simulated check
result directories (scripts/sim.sh, docs/scale.md): the default's median, violations of
comparisons, the worst violation, the simulation's wall-clock seconds.
Usage: benchmarks/sim_table.py DIR..."""
import csv, os, sys

print("| platform | ranks | selector | collective | bytes | reduction | default [us] | violations | worst | wall [s] |")
print("|---|---|---|---|---|---|---|---|---|---|")
for d in sys.argv[1:]:
    rows = [r for r in csv.DictReader(l for l in open(os.path.join(d, "verdicts.csv")) if not l.startswith("#"))]
    meta = dict(l[2:].strip().split("=", 1) for l in open(os.path.join(d, "raw.csv")) if l.startswith("#@") and "=" in l)
    cells = {}
    for r in rows:
        if r.get("relation") not in ("mockup", None): continue
        k = (r["collective"], int(r["bytes"]), r.get("reduction", ""))
        c = cells.setdefault(k, [float(r["median_default_sec"]), 0, 0, None])
        c[1] += 1
        if r["outcome"] == "violation":
            c[2] += 1
            s = float(r["slowdown"])
            if c[3] is None or s > c[3][0]: c[3] = (s, r["mockup"], r["guideline"])
    for k in sorted(cells):
        c = cells[k]
        w = f"{c[3][0]:.2f}x {c[3][2]} {c[3][1]}" if c[3] else "-"
        print(f"| {meta.get('sim_platform')} | {meta.get('sim_np')} | {meta.get('sim_selector')} | {k[0]} | {k[1]} | {k[2].replace('MPI_','')} | {c[0]*1e6:.2f} | {c[2]}/{c[1]} | {w} | {meta.get('sim_wall_seconds')} |")

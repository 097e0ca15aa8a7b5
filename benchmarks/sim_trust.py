#!/usr/bin/env python3
"""Trust in a simulation (issue 37.3, docs/scale.md): a measured check result directory beside a
simulated one of the same collectives and sizes (scripts/sim.sh on the platform modelling the
measured machine). Per cell and algorithm (the default and each mock-up) the two medians and
their ratio (simulated / measured); per comparison the two outcomes; then the median |log ratio|
as a factor, and how many violations both, only the measurement or only the simulation show.
Usage: benchmarks/sim_trust.py MEASURED_DIR SIMULATED_DIR [--line]
  --line  print only the one-line summary (the text sim/trust.txt keeps per platform)"""
import csv, math, os, statistics, sys

def verdicts(d):
    return [r for r in csv.DictReader(l for l in open(d + "/verdicts.csv") if not l.startswith("#"))
            if r.get("relation", "mockup") in ("mockup", "")]

def meta(d):
    # a `check --launches N` directory keeps each launch's raw.csv in launch-K/: the first one's
    raw = d + "/raw.csv" if os.path.exists(d + "/raw.csv") else d + "/launch-1/raw.csv"
    return dict(l[2:].strip().split("=", 1) for l in open(raw) if l.startswith("#@") and "=" in l)

args = [a for a in sys.argv[1:] if not a.startswith("--")]
line_only = "--line" in sys.argv
real, sim = (dict(((r["collective"], int(r["bytes"]), r.get("reduction", ""), r["mockup"]), r) for r in verdicts(d))
             for d in args[:2])
mr, ms = meta(args[0]), meta(args[1])
times, ratios, both, only_real, only_sim, agree, n = {}, [], 0, 0, 0, 0, 0
for k in sorted(set(real) & set(sim)):
    a, b = real[k], sim[k]
    # a row skipped or failed on either side (e.g. a simulated library's defect: sim_defects.c) has
    # no medians and no outcome to compare
    if not (a["median_mockup_sec"] and b["median_mockup_sec"]): continue
    n += 1
    agree += a["outcome"] == b["outcome"]
    va, vb = a["outcome"] == "violation", b["outcome"] == "violation"
    both += va and vb
    only_real += va and not vb
    only_sim += vb and not va
    for alg, col in (("default", "median_default_sec"), (k[3], "median_mockup_sec")):
        times[(k[0], k[1], k[2], alg)] = (float(a[col]), float(b[col]))
for t in times.values():
    if t[0] > 0 and t[1] > 0: ratios.append(t[1] / t[0])
fac = math.exp(statistics.median(abs(math.log(r)) for r in ratios)) if ratios else float("nan")
lo, hi = (min(ratios), max(ratios)) if ratios else (float("nan"),) * 2
summary = (f"vs {mr.get('mpi_library_name', '?')} measured on {mr.get('nprocs', '?')} ranks "
           f"({mr.get('hostname', '?')}, {mr.get('date', '?')[:10]}): times off by a median factor {fac:.2f} "
           f"(simulated/measured {lo:.2g} to {hi:.2g}, {len(ratios)} medians); violations: {both} in both, "
           f"{only_sim} only simulated, {only_real} only measured; outcomes agree in {agree} of {n} comparisons")
if line_only:
    print(summary)
    sys.exit(0)
print(f"measured: {args[0]}; simulated: {args[1]} (platform {ms.get('platform')}, selector {ms.get('selector')})\n")
print("| collective | bytes | reduction | algorithm | measured [us] | simulated [us] | sim/measured |")
print("|---|---|---|---|---|---|---|")
for k, (a, b) in sorted(times.items()):
    print(f"| {k[0]} | {k[1]} | {k[2].replace('MPI_', '')} | {k[3]} | {a*1e6:.2f} | {b*1e6:.2f} | {b/a:.2f} |")
print("\n| collective | bytes | reduction | mock-up | measured | simulated |")
print("|---|---|---|---|---|---|")
for k in sorted(set(real) & set(sim)):
    print(f"| {k[0]} | {k[1]} | {k[2].replace('MPI_', '')} | {k[3]} | {real[k]['outcome']} | {sim[k]['outcome']} |")
print("\n" + summary)

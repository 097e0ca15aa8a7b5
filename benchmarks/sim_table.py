#!/usr/bin/env python3
"""Tables of simulated check result directories (scripts/sim.sh, benchmarks/sim_scale.sh,
docs/scale.md).
Usage: benchmarks/sim_table.py DIR...          one Markdown row per (platform, ranks, selector,
                                               collective, size, reduction): the default's median,
                                               violations of comparisons, the worst, the wall clock
       benchmarks/sim_table.py --scale DIR...  per (topology, selector, comparison) the outcome at
                                               each rank count (V violation, C consistent,
                                               ? inconclusive, - not run): the rows whose outcome
                                               is not the same at every count measured
       benchmarks/sim_table.py --rules DIR...  per (topology, selector) the rules `mpiguide tune`
                                               learns from the smallest rank count (MPIGUIDE: the
                                               mpiguide to run, default build/openmpi/mpiguide),
                                               and at each larger count the rule's mock-up against
                                               the default there: faster (x > 1) or slower"""
import csv, os, re, subprocess, sys, tempfile

def load(d):
    # a row skipped as data (src/bench/sim_defects.c: status "skipped", no medians) is not a comparison
    rows = [r for r in csv.DictReader(l for l in open(os.path.join(d, "verdicts.csv")) if not l.startswith("#"))
            if r.get("relation") in ("mockup", None, "") and r.get("status") != "skipped"]
    meta = dict(l[2:].strip().split("=", 1) for l in open(os.path.join(d, "raw.csv")) if l.startswith("#@") and "=" in l)
    if "simulate-computation:no" in meta.get("sim_options", ""):
        # Without simulated computation a reduction's type costs nothing: MPI_INT:MPI_SUM and
        # MPI_DOUBLE:MPI_SUM are one cell (the first measured kept), written ANY:SUM.
        seen, kept = set(), []
        for r in rows:
            if r.get("reduction"): r["reduction"] = "ANY:" + r["reduction"].split(":", 1)[1]
            k = (r["collective"], r["bytes"], r.get("reduction", ""), r["mockup"])
            if k not in seen: seen.add(k), kept.append(r)
        rows = kept
    # mpiguide's own keys (src/bench/meta.c); sim.sh wrote sim_platform, sim_selector before
    plat = meta.get("platform") or meta.get("sim_platform", "?")
    return rows, re.sub(r"\.xml$", "", plat), meta.get("selector") or meta.get("sim_selector", "?"), meta

def table(dirs):
    print("| platform | ranks | selector | collective | bytes | reduction | default [us] | violations | worst | wall [s] |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    for d in dirs:
        rows, plat, sel, meta = load(d)
        cells = {}
        for r in rows:
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
            print(f"| {plat} | {meta.get('nprocs')} | {sel} | {k[0]} | {k[1]} | {k[2].replace('MPI_','')} | "
                  f"{c[0]*1e6:.2f} | {c[2]}/{c[1]} | {w} | {meta.get('sim_wall_seconds')} |")

def size(s):
    m = re.fullmatch(r"(\d+)([KMG]?)", s)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]

def rules(dirs):
    exe = os.environ.get("MPIGUIDE", os.path.join(os.path.dirname(__file__), "..", "build", "openmpi", "mpiguide"))
    groups = {}
    for d in dirs:
        rows, plat, sel, meta = load(d)
        groups.setdefault((re.sub(r"-\d+$", "", plat), sel), []).append((int(meta.get("nprocs", 0)), d, rows))
    nps = sorted({n for g in groups.values() for n, _, _ in g})
    print("| topology | selector | rule learned at the smallest count |" + "".join(f" {n} ranks |" for n in nps[1:]))
    print("|---|---|---|" + "---|" * (len(nps) - 1))
    for (topo, sel), g in sorted(groups.items()):
        g.sort(key=lambda x: (x[0], x[1]))
        # every directory of the smallest count: a campaign's collectives at one count may sit in
        # several (base4 at 64 KiB, base4k at 4 KiB blocks); tuning the first alone lost the others' rules
        small = [d for n, d, _ in g if n == g[0][0]]
        with tempfile.TemporaryDirectory() as tmp:
            prof = os.path.join(tmp, "p.prof")
            subprocess.run([exe, "tune", *small, "-o", prof, "-q"], check=True, stdout=subprocess.DEVNULL)
            lines = [l.split("#")[0].split() for l in open(prof) if l.strip() and not l.startswith(("#", "mpiguide-profile", "end-of-profile"))]
        if not lines:
            print(f"| {topo} | {sel} | none ({g[0][0]} ranks) |" + " |" * (len(nps) - 1))
        for w in lines:
            coll, lo, hi = w[0], *map(size, w[2].split("-"))
            ty = next((x[5:] for x in w if x.startswith("type=")), None)
            if ty == "float": continue  # the int rule's twin (ANY:SUM in load)
            alg, cells = w[-1], []
            for n in nps[1:]:
                hit = [r for m, _, rows in g if m == n for r in rows if r["collective"] == coll and r["mockup"] == alg
                       and lo <= int(r["bytes"]) <= hi]
                if not hit: cells.append("-"); continue
                x = float(hit[0]["median_default_sec"]) / float(hit[0]["median_mockup_sec"])
                cells.append(f"{x:.2f}x " + ("faster" if x >= 1 / 0.9 else "**slower**" if x < 1 else "no gain"))
            print(f"| {topo} | {sel} | `{coll} np={g[0][0]} {w[2]} {alg}` |" + "".join(f" {c} |" for c in cells))

def scale(dirs):
    mark = {"violation": "V", "consistent": "C", "inconclusive": "?"}
    out, nps = {}, set()
    for d in dirs:
        rows, plat, sel, meta = load(d)
        topo, np = re.sub(r"-\d+$", "", plat), int(meta.get("nprocs", 0))
        nps.add(np)
        for r in rows:
            k = (topo, sel, r["collective"], int(r["bytes"]), r.get("reduction", "").replace("MPI_", ""), r["mockup"], r["guideline"])
            s = mark.get(r["outcome"], "?") + (f" {float(r['slowdown']):.2f}x" if r["outcome"] == "violation" else "")
            out.setdefault(k, {})[np] = s
    nps = sorted(nps)
    print("| topology | selector | collective | bytes | reduction | mock-up | guideline | " + " | ".join(f"{n} ranks" for n in nps) + " |")
    print("|---|---|---|---|---|---|---|" + "---|" * len(nps))
    for k in sorted(out):
        v = out[k]
        have = [n for n in nps if n in v]
        if len(have) < 2 or len({v[n][:1] for n in have}) == 1: continue  # the same at every count
        print("| " + " | ".join(str(x) for x in k) + " | " + " | ".join(v.get(n, "-") for n in nps) + " |")

args = sys.argv[1:]
if args and args[0] == "--scale": scale(args[1:])
elif args and args[0] == "--rules": rules(args[1:])
else: table(args)

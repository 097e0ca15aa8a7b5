#!/usr/bin/env python3
"""sim.fold.memory, sim.fold.scratch (issue 50.2): the benchmark's data buffers under SMPI are
SMPI_SHARED_MALLOC's, and so is the mock-ups' data scratch (mg_scratch_data, src/algs/toolkit.c).

Runs the same `mpiguide bench` twice under smpirun, MPIGUIDE_SIM_BUFFERS=real then the default
(shared), sampling the simulation's proportional set size (Pss: a page mapped by every simulated
rank counts once, where RSS counts it per mapping) every 20 ms, and asserts:
  - raw.csv says #@simulated_buffers=real, then shared;
  - the simulated times are the same, value for value (the network model prices bytes, not values),
    and for a check (the command holds `check`: it writes OUTDIR/MODE/) the verdicts too: a
    mock-up whose data steered its messages would differ here;
  - the folded run's peak is lower by at least REGIONS - 1/2 times p x p x n bytes, REGIONS being
    the regions of p x n bytes a rank holds that fold: an allgather's receive buffer (1), and a
    mock-up's scratch of p blocks (allgather_as_alltoall: 1 more, so that a run that folds the
    buffers and not the scratch fails).
Usage: fold_memory.py NP BLOCK_BYTES REGIONS OUTDIR smpirun ARGS... (the bench command follows smpirun's)
REGIONS 0: no memory asserted (the check of every collective of --quick, where scratch is small).
"""
import os, subprocess, sys, time


def peak_pss(cmd, env):
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL)
    peak, deadline = 0, time.time() + 100
    while p.poll() is None and time.time() < deadline:
        total = 0
        for pid in [p.pid] + children(p.pid):
            try:
                for line in open(f"/proc/{pid}/smaps_rollup"):
                    if line.startswith("Pss:"):
                        total += int(line.split()[1])
            except OSError:
                pass
        peak = max(peak, total)
        time.sleep(0.02)
    if p.poll() is None:
        p.kill()
        sys.exit("fold_memory.py: the simulation ran over 100 s")
    return p.returncode, peak // 1024


def children(pid):
    out = []
    try:
        for c in open(f"/proc/{pid}/task/{pid}/children").read().split():
            out += [int(c)] + children(int(c))
    except OSError:
        pass
    return out


def times(path):
    rows, meta = [], {}
    for line in open(path):
        if line.startswith("#@"):
            k, _, v = line[2:].rstrip("\n").partition("=")
            meta[k] = v
        elif not line.startswith("#") and not line.startswith("collective,"):
            f = line.rstrip("\n").split(",")
            rows.append((f[0], f[1], f[2], f[5], f[6], f[10], f[11], f[13]))  # op and root too
    return meta, rows


np_, n, regions, out = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
cmd = sys.argv[5:]
os.makedirs(out, exist_ok=True)
res = {}
for mode in ("real", "shared"):
    env = dict(os.environ)
    env.pop("MPIGUIDE_SIM_BUFFERS", None)
    if mode == "real":
        env["MPIGUIDE_SIM_BUFFERS"] = "real"
    check = "check" in cmd  # a check writes a directory: its raw.csv, and verdicts.csv compared too
    d = os.path.join(out, mode)
    f = os.path.join(d, "raw.csv") if check else d + ".csv"
    rc, mb = peak_pss(cmd + (["-o", d, "--force"] if check else ["-o", f]), env)
    meta, rows = times(f)
    if check:
        rows += [l for l in open(os.path.join(d, "verdicts.csv")) if not l.startswith("#")]
    print(f"{mode}: exit {rc}, peak Pss {mb} MB, #@simulated_buffers={meta.get('simulated_buffers')}, {len(rows)} rows")
    if rc != 0 or meta.get("simulated_buffers") != mode or not rows:
        sys.exit(1)
    res[mode] = (mb, rows)
if res["real"][1] != res["shared"][1]:
    sys.exit("the simulated times differ between real and shared buffers")
region_mb = np_ * np_ * n / 2**20
saved, want = res["real"][0] - res["shared"][0], (regions - 0.5) * region_mb
print(f"saved {saved} MB; {regions} regions of {region_mb:.0f} MB fold, at least {want:.0f} MB wanted")
sys.exit(0 if saved >= want else 1)

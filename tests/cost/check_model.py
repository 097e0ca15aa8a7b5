#!/usr/bin/env python3
"""The cost model's commands (docs/model.md), run and checked (tests/cost/CMakeLists.txt):

  check_model.py predict CLI LOGGP DATA WORK   predict's table names the row of the lowest upper
                                               end per cell, every price has a source; bcast as
                                               allgatherv is priced as one block (not the fastest
                                               64K bcast, above binomial); a default
                                               measured at 8 B only is extrapolated, not stretched;
                                               bad input exits 2 with a message
  check_model.py check CLI LOGGP DATA WORK     check --from DATA --loggp: predicted.csv next to
                                               every measured cell, the defaults priced by their
                                               own medians, the summary's errors, the report's marks
  check_model.py tune CLI LOGGP DATA WORK      tune --model: predicted rules only where nothing was
                                               measured, marked with both prices' intervals and
                                               sources, only where the gain exceeds them (none far
                                               from a single measurement), in a profile the
                                               reader accepts
"""
import csv
import math
import os
import re
import shutil
import subprocess
import sys

failures = 0


def fail(msg):
    global failures
    failures += 1
    print("FAIL: " + msg)


def run(args, want_rc=0):
    p = subprocess.run(args, capture_output=True, text=True)
    if want_rc is not None and p.returncode != want_rc:
        fail("%s: exit %d, want %d\n%s%s" % (" ".join(args), p.returncode, want_rc, p.stdout, p.stderr))
    return p


def read_pred(path):
    with open(path) as f:
        first = f.readline()
        if first.strip() not in ("# mpiguide-predict/2", "# mpiguide-predict/3"):
            fail("%s: first line %r" % (path, first))
        rows = list(csv.DictReader(l for l in f if not l.startswith("#@")))
    for r in rows:  # /2: every price's interval, around its point estimate
        t, lo, hi = float(r["predicted_sec"]), float(r["lo_sec"]), float(r["hi_sec"])
        if not (0 <= lo <= t <= hi):
            fail("%s: %s %s %s %s: predicted %g outside [%g, %g]" % (path, r["collective"], r["nprocs"], r["bytes"],
                                                                   r["algorithm"], t, lo, hi))
    return rows


SOURCES = {"measured", "interpolated", "calibrated", "model", "extrapolated"}
NUM = r"([-+\d.e]+)"
SURE = r"(\w+) \+-(\d+)%% \[%s, %s\]" % (NUM, NUM)  # "source +-u% [lo, hi]" (us)


def size_of(s):
    m = re.match(r"(\d+)([KM]?)$", s)
    return int(m.group(1)) << {"": 0, "K": 10, "M": 20}[m.group(2)]


def table(text, all_rows):
    """{(coll, np, size, alg): (t, source, lo, hi)} of predict's table (--all: every row; else the fastest)."""
    out = {}
    coll = np = None
    for line in text.splitlines():
        m = re.match(r"(\w+), (\d+) processes", line)
        if m:
            coll, np = m.group(1), int(m.group(2))
            continue
        if all_rows:
            m = re.match(r"\s+(\d+[KM]?)\s+(\w+)\s+%s us\s+\S+(?: us)?\s+%s$" % (NUM, SURE), line)
        else:
            m = re.match(r"\s+(\d+[KM]?)\s+.*?\s(\w+)\s+%s us %s\s*(\(.*\))?$" % (NUM, SURE), line)
        if m and coll is not None:
            g = m.groups()
            out[(coll, np, size_of(g[0]), g[1])] = (float(g[2]), g[3], float(g[5]), float(g[6]))
    return out


def predict(cli, loggp, data, work):
    out = os.path.join(work, "p.csv")
    args = [cli, "predict", "--loggp", loggp, "--np", "2,4", "--sizes", "1K,64K,1M"]
    p = run(args + ["--csv", out])
    rows = read_pred(out)
    cells = {}
    for r in rows:
        cells.setdefault((r["collective"], int(r["nprocs"]), int(r["bytes"])), []).append(r)
        if r["price"] not in SOURCES or (r["family"] == "p2p" and r["price"] != "model"):
            fail("%s: price %r" % (r, r["price"]))
    every = table(run(args + ["--all"]).stdout, True)
    # the table names the row of the lowest upper end (the time the model can promise) among those
    # priced, the default left out where it is its model (that is its cheapest p2p row)
    fastest = table(p.stdout, False)
    for (coll, np, size, alg), (t, src, lo, hi) in fastest.items():
        c = cells.get((coll, np, size))
        if not c:
            fail("%s np=%d %d: in the table, not in the CSV" % (coll, np, size))
            continue
        mine = {k[3]: v for k, v in every.items() if k[:3] == (coll, np, size)}
        cand = [v[3] for a, v in mine.items() if not (a == "default" and v[1] == "model")]
        if alg not in mine or not cand or abs(hi - min(cand)) > 0.05 * min(cand):
            fail("%s np=%d %d: the table names %s (upper end %g us), the lowest upper end is %s" %
                 (coll, np, size, alg, hi, min(cand) if cand else None))
        if src not in SOURCES or not (lo <= t <= hi):
            fail("%s np=%d %d: %s %g [%g, %g]" % (coll, np, size, src, t, lo, hi))
    if len(fastest) < 20:
        fail("only %d table lines read:\n%s" % (len(fastest), p.stdout))
    # bcast as allgatherv (GL9): an allgatherv in which the root holds every byte, priced as
    # allgather(n/p) alone it was named the fastest 64 KiB bcast (5.2 us against binomial's 6.8)
    q = run([cli, "predict", "--loggp", loggp, "--np", "4", "--sizes", "64K", "-c", "bcast"])
    named = table(q.stdout, False)
    if any(k[3] == "bcast_as_allgatherv" for k in named) or len(named) != 1:
        fail("bcast 64K at 4 processes: %s named the fastest\n%s" % (list(named), q.stdout))
    # its point estimate is the one-block split (allgatherv(n, 1): allgather(n)), above binomial's;
    # the interval reaches down to the even split's lower end
    gl9 = every.get(("bcast", 4, 65536, "bcast_as_allgatherv"))
    bin_ = every.get(("bcast", 4, 65536, "bcast_as_binomial"))
    if not gl9 or not bin_ or gl9[0] <= bin_[0] or gl9[2] > 0.5 * gl9[0]:
        fail("bcast_as_allgatherv at 64K: %s, binomial %s: priced below binomial, or no interval down to the even split" % (gl9, bin_))
    # the default measured at 8 B only (allreduce in tests/check/data/small): measured there, an
    # extrapolation along the model at 4 MiB, not 6 us x 4 MiB / 8 B = 3.1 s labelled measured
    ex = os.path.join(work, "ex.csv")
    run([cli, "predict", "--loggp", loggp, "--check", os.path.join(data, "small"), "--np", "4", "--sizes", "8,4M",
         "-c", "allreduce", "--csv", ex])
    d = {int(r["bytes"]): r for r in read_pred(ex) if r["algorithm"] == "default"}
    if d.get(8, {}).get("price") != "measured":
        fail("allreduce 8 B: %s" % d.get(8))
    big = d.get(4 << 20)
    if not big or big["price"] != "extrapolated" or float(big["predicted_sec"]) > 0.1:
        fail("allreduce 4 MiB from 6 us at 8 B: %s" % big)
    # a default without measurements: the cheapest point-to-point row
    for key, c in cells.items():
        d = [r for r in c if r["algorithm"] == "default"]
        p2p = [float(r["predicted_sec"]) for r in c if r["family"] == "p2p"]
        if d and p2p and d[0]["price"] == "model" and abs(float(d[0]["predicted_sec"]) - min(p2p)) > 1e-9 * min(p2p):
            fail("%s: the default's model %s is not its cheapest p2p row %g" % (key, d[0]["predicted_sec"], min(p2p)))
    if not any(r["family"] == "p2p" for r in rows):
        fail("no p2p row predicted")
    # bad input
    p = run([cli, "predict"], 2)
    if "give --loggp FILE, --check DIR or both" not in p.stderr:
        fail("predict without input: %r" % p.stderr)
    p = run([cli, "predict", "--loggp", os.path.join(work, "missing.txt")], 2)
    if "missing.txt" not in p.stderr:
        fail("predict --loggp missing: %r" % p.stderr)
    bad = os.path.join(work, "bad.txt")
    with open(bad, "w") as f:
        f.write("mpiguide-loggp 1\np two\n")
    p = run([cli, "predict", "--loggp", bad], 2)
    if "bad.txt:2" not in p.stderr:
        fail("predict --loggp bad.txt: %r" % p.stderr)


def check(cli, loggp, data, work):
    out = os.path.join(work, "out")
    p = run([cli, "check", "--from", os.path.join(data, "small"), "--loggp", loggp, "-o", out])
    rows = read_pred(os.path.join(out, "predicted.csv"))
    with open(os.path.join(out, "verdicts.csv")) as f:
        ver = list(csv.DictReader(l for l in f if not l.startswith("#@")))
    for v in ver:
        if v["status"] != "ok":
            continue
        mine = [r for r in rows if r["collective"] == v["collective"] and int(r["bytes"]) == int(v["bytes"])]
        d = [r for r in mine if r["algorithm"] == "default"]
        if not d:
            fail("%s %s: no prediction of the default" % (v["collective"], v["bytes"]))
            continue
        if d[0]["price"] != "measured" or abs(float(d[0]["rel_error"])) > 1e-6:
            fail("%s %s: the default is not priced by its own median: %s" % (v["collective"], v["bytes"], d[0]))
        mk = [r for r in mine if r["algorithm"] == v["mockup"]]
        if mk and mk[0]["measured_sec"] != "nan":
            meas = float(mk[0]["measured_sec"])
            if abs(meas - float(v["median_mockup_sec"])) > 1e-6 * meas + 1e-12:
                fail("%s %s %s: measured %g, the verdict's median %s" % (v["collective"], v["bytes"], v["mockup"], meas,
                                                                         v["median_mockup_sec"]))
    if not any(r["algorithm"] != "default" and r["measured_sec"] != "nan" for r in rows):
        fail("no mock-up with a prediction and a median")
    if "prediction error" not in p.stdout:
        fail("the summary has no prediction error:\n" + p.stdout)
    with open(os.path.join(out, "report.html")) as f:
        if '<g class="pred"' not in f.read():
            fail("report.html marks no prediction")
    p = run([cli, "check", "--from", os.path.join(data, "small"), "--loggp", os.path.join(work, "nope.txt")], 2)
    if "--loggp" not in p.stderr or "nope.txt" not in p.stderr:
        fail("check --loggp missing: %r" % p.stderr)


def tune(cli, loggp, data, work):
    prof = os.path.join(work, "t.prof")
    run([cli, "tune", os.path.join(data, "small"), "-o", prof, "--model", loggp, "--model-np", "8", "-q"])
    run([cli, "profile", "validate", prof])
    measured = {}  # the sizes measured per collective (all at 4 processes)
    with open(os.path.join(data, "small", "raw.csv")) as f:
        for x in csv.DictReader(l for l in f if not l.startswith("#")):
            measured.setdefault(x["collective"], set()).add(int(x["bytes"]))
    rules = []
    with open(prof) as f:
        for line in f:
            if line.startswith(("#", "mpiguide-profile", "end-of-profile")) or not line.strip():
                continue
            body, _, comment = line.partition("#")
            w = body.split()
            rules.append((w[0], w[1], w[2], w[-1], comment))

    def rng(s):
        def one(v):
            m = re.match(r"(\d+)([KMG]?)$", v)
            return int(m.group(1)) << {"": 0, "K": 10, "M": 20, "G": 30}[m.group(2)]
        lo, _, hi = s.partition("-")
        return one(lo), one(hi) if hi else one(lo)

    pred = [r for r in rules if "predicted at" in r[4]]
    if not pred:
        fail("tune --model wrote no predicted rule:\n" + open(prof).read())
    # every prediction says its source and interval, and the gain exceeds the uncertainty: the
    # mock-up's upper end at most 0.9 x the default's lower end (--min-gain 10 %)
    num = r"([-+\d.e]+)"
    one = re.compile(r"predicted at (\S+): %s us \[%s, %s\] \((\w+)\) vs default %s us \[%s, %s\] \((\w+)\)$"
                     % ((num,) * 3 + (num,) * 3))
    sources = {"measured", "interpolated", "calibrated", "model", "extrapolated"}
    for coll, np, sz, alg, comment in pred:
        for part in comment.split(";"):
            part = part.strip()
            if not part.startswith("predicted at"):
                continue
            m = one.match(part)
            if not m:
                fail("%s %s %s: a prediction without its source and interval: %r" % (coll, np, sz, part))
                continue
            t, lo, hi, src, dt, dlo, dhi, dsrc = m.groups()[1:]
            t, lo, hi, dt, dlo, dhi = (float(x) for x in (t, lo, hi, dt, dlo, dhi))
            if src not in sources or dsrc not in sources or not (lo <= t <= hi and dlo <= dt <= dhi):
                fail("%s %s: %r" % (coll, sz, part))
            if hi > 0.9 * dlo * (1 + 1e-3):  # the comment's 3 digits
                fail("%s %s %s: a gain within the uncertainty: %r" % (coll, np, sz, part))
            if dt > 1e6:
                fail("%s %s %s: the default priced %g us: %r" % (coll, np, sz, dt, part))
    # tests/check/data/small measured allreduce at 8 B only (6 us): stretched linearly that was
    # 3.1 s at 4 MiB, "measured", with a predicted rule at every size. Far from 8 B the default's
    # price is an extrapolation too wide to promise a gain: no rule there
    far = [r for r in pred if r[0] == "allreduce" and r[1] == "np=4" and rng(r[2])[1] >= 64 << 10]
    if far:
        fail("allreduce np=4: predicted rules far from its one measurement (8 B): %s" % far)
    if not any(r[0] == "allreduce" and r[1] == "np=4" for r in pred):
        fail("allreduce np=4: no predicted rule near its measurement")
    for coll, np, sz, alg, comment in pred:
        lo, hi = rng(sz)
        alone = all(part.strip().startswith("predicted at") for part in comment.split(";"))
        if alone and np == "np=4" and any(lo <= b <= hi for b in measured.get(coll, ())):
            fail("a rule of predictions alone covers a measured size: %s %s %s" % (coll, np, sz))
    if not any(r[1] == "np=8" for r in pred):
        fail("no predicted rule at --model-np 8")
    if any(r[1] == "np=8" and "predicted at" not in r[4] for r in rules):
        fail("a rule at np=8 that is not marked predicted")
    plain = os.path.join(work, "plain.prof")
    run([cli, "tune", os.path.join(data, "small"), "-o", plain, "-q"])
    if "predicted at" in open(plain).read():
        fail("tune without --model wrote predicted rules")
    p = run([cli, "tune", os.path.join(data, "small"), "-o", plain, "--model-np", "8"], 2)
    if "--model-np and --model-sizes go with --model FILE" not in p.stderr:
        fail("--model-np without --model: %r" % p.stderr)


def main():
    mode, cli, loggp = sys.argv[1:4]
    work = sys.argv[-1]
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    if mode == "predict":
        predict(cli, loggp, sys.argv[4], work)
    elif mode == "check":
        check(cli, loggp, sys.argv[4], work)
    elif mode == "tune":
        tune(cli, loggp, sys.argv[4], work)
    else:
        fail("unknown mode " + mode)
    print("check_model %s: %s" % (mode, "ok" if not failures else "%d failure(s)" % failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

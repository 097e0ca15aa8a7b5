#!/usr/bin/env python3
"""Cuts a measured `check --full` result directory down to the fixture of the --model-guided rule
(tests/check/data/guided-*, test check.guided.rule; Python 3 standard library only).

    python3 tests/check/make_guided_fixture.py FULLDIR LOGGP OUTDIR

What the rule reads is kept: every #@ line but the per-cell #@stop counts, the defaults' runtimes
of the first (datatype, op) pair of a reduction as 11 quantiles of each cell's valid measurements
(0 %, 10 %, ..., 100 %: the median and the spread the rule sees are the measured ones), and one
measurement of each mock-up cell (the replay lists the mock-ups a check measured). verdicts.csv
(what --full found) and the LogGP file are copied as they are.
"""
import csv
import os
import shutil
import sys


def main(full, loggp, out):
    os.makedirs(out, exist_ok=True)
    meta, header, cells, order = [], None, {}, []
    first_red = {}
    with open(os.path.join(full, "raw.csv")) as f:
        for line in f:
            if line.startswith("#@"):
                if not line.startswith(("#@stop=", "#@check_rows=", "#@check_incomplete=", "#@budget_hit=")):
                    meta.append(line)
                continue
            if header is None:
                header = line.rstrip("\n").split(",")
                continue
            row = dict(zip(header, line.rstrip("\n").split(",")))
            if row["warmup"] != "0" or row["valid"] != "1":
                continue
            red = row.get("datatype", "") + ":" + row.get("op", "")
            first_red.setdefault(row["collective"], red)
            if red != first_red[row["collective"]]:
                continue
            key = (row["collective"], row["algorithm"], row["bytes"])
            if key not in cells:
                cells[key] = []
                order.append(key)
            cells[key].append(row)
    rows = []
    for key in order:
        rs = cells[key]
        if key[1] != "default":
            rows.append(rs[0])
            continue
        rs = sorted(rs, key=lambda r: float(r["runtime_sec"]))
        for q in range(11):
            rows.append(dict(rs[round(q * (len(rs) - 1) / 10)]))
    for i, r in enumerate(rows):
        r["round"] = r["rep"] = str(i)
    with open(os.path.join(out, "raw.csv"), "w") as f:
        f.writelines(meta)
        f.write("#@check_rows=%d\n" % len(rows))
        f.write(",".join(header) + "\n")
        for r in rows:
            f.write(",".join(r[h] for h in header) + "\n")
    shutil.copy(os.path.join(full, "verdicts.csv"), os.path.join(out, "verdicts.csv"))
    shutil.copy(loggp, os.path.join(out, "loggp.txt"))


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit(__doc__)
    main(*sys.argv[1:])

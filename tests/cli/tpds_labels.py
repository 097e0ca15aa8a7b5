#!/usr/bin/env python3
"""Every registry row labelled TGT<n> (a number of Träff, Gropp and Thakur's TPDS 2010 equations)
against the table tpds_equations.txt: the number is in the table and established, the row is of
the family the table names and its formula is the table's relation; every established number that
is no verdict has a row. Usage: tpds_labels.py MPIGUIDE TABLE"""
import csv
import io
import re
import subprocess
import sys

exe, table = sys.argv[1], sys.argv[2]
eqs = {}
for line in open(table, encoding="utf-8"):
    if not line.strip() or line.startswith("#"):
        continue
    num, fam, rel, src = (f.strip() for f in line.split("|", 3))
    eqs[int(num)] = (fam, rel, src)

out = subprocess.run([exe, "list", "--csv"], check=True, capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(out)))
bad, claimed = [], set()


def matches(pattern, own, formula):
    """pattern with @ the row's own operation (its formula's first word) and * any text."""
    rx = "".join(".*" if c == "*" else re.escape(own) if c == "@" else re.escape(c) for c in pattern)
    return re.fullmatch(rx, formula) is not None


for r in rows:
    m = re.fullmatch(r"TGT(\d+)", r["guideline"])
    if not m:
        continue
    n, name, formula = int(m.group(1)), r["algorithm"], r["formula"]
    own = re.match(r"[A-Za-z_]+", formula).group(0)
    if n not in eqs:
        bad.append(f"{name}: TGT{n} is no equation of the table")
        continue
    fam, rel, src = eqs[n]
    if rel == "-":
        bad.append(f"{name}: TGT{n} claims an equation no row may claim ({src})")
        continue
    if r["family"] != fam:
        bad.append(f"{name}: TGT{n} belongs to family {fam}, the row is {r['family']}")
    if not matches(rel, own, formula):
        bad.append(f"{name}: TGT{n} is \"{rel}\", the row's formula \"{formula}\"")
    claimed.add(n)

for n, (fam, rel, src) in sorted(eqs.items()):
    if rel != "-" and n not in claimed:
        bad.append(f"eq. {n} ({rel}) has no row")

for b in bad:
    print("FAIL:", b)
print(f"tpds_labels: {sum(1 for r in rows if r['guideline'].startswith('TGT') and r['guideline'][3:].isdigit())} "
      f"rows labelled with {len(claimed)} equation numbers, {len(bad)} disagreements")
sys.exit(1 if bad else 0)

#!/usr/bin/env python3
"""Every registry row labelled TGT<n> (a number of Träff, Gropp and Thakur's TPDS 2010 equations),
in its guideline column or beside a GL label (column tgt), against the table tpds_equations.txt:
the table has the paper's 38 equations, the number is claimable, the row is of the family the table
names and its formula is one of the table's relations; every claimable number that is no verdict
has a row. Usage: tpds_labels.py MPIGUIDE TABLE"""
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
bad, claimed = [], set()
if sorted(eqs) != list(range(1, 39)):
    bad.append(f"the table has equations {sorted(eqs)}, the paper 1-38")

# The two columns agree: a concrete relation (families composition and pt2pt) names the operations
# the paper's does; the paper's Reduce_scatter before a regular Gather or Allgather (eqs. 20, 21)
# is MPI 2.2's Reduce_scatter_block.
def ops(text):
    text = text.replace(" OR ", " ")
    return {w.replace("Reduce_scatter_block", "Reduce_scatter") for w in re.findall(r"\b([A-Z][A-Za-z_]*)\b", text)}


for n, (fam, rel, paper) in sorted(eqs.items()):
    if fam in ("composition", "pt2pt") and ops(rel) != ops(paper):
        bad.append(f"eq. {n}: the pattern's operations {sorted(ops(rel))} are not the paper's {sorted(ops(paper))}")

out = subprocess.run([exe, "list", "--csv"], check=True, capture_output=True, text=True).stdout
rows = list(csv.DictReader(io.StringIO(out)))


def matches(pattern, own, formula):
    """pattern with @ the row's own operation (its formula's first word) and * any text."""
    for alt in pattern.split(" OR "):
        rx = "".join(".*" if c == "*" else re.escape(own) if c == "@" else re.escape(c) for c in alt)
        if re.fullmatch(rx, formula) is not None:
            return True
    return False



labelled = 0
for r in rows:
    if r["tgt"] and not r["guideline"].startswith("GL"):
        bad.append(f"{r['algorithm']}: a paper number beside {r['guideline']!r}: only GL rows carry one")
    m = re.fullmatch(r"TGT(\d+)", r["tgt"] or r["guideline"])
    if not m:
        if re.fullmatch(r"TGT\d+.*", r["tgt"]):
            bad.append(f"{r['algorithm']}: tgt {r['tgt']!r} is not TGT<n>")
        continue
    labelled += 1
    n, name, formula = int(m.group(1)), r["algorithm"], r["formula"]
    if r["family"] == "nbc":  # a composition's non-blocking form: its formula with the I prefix on every part
        formula = re.sub(r"\bI([a-z])", lambda m: m.group(1).upper(), formula)
        r = dict(r, family="composition")
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
print(f"tpds_labels: {labelled} "
      f"rows labelled with {len(claimed)} equation numbers, {len(bad)} disagreements")
sys.exit(1 if bad else 0)

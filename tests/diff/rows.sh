#!/bin/sh
# rows.sh MPIGUIDE P2P_OPS ROWS_FILE [NBC_OPS] [--write]
# tests/diff/rows.txt names every mock-up of the registry with the differential tests that force
# it, so that one grep of a row's name finds its test beside its row, code and doc line. This
# script makes that table from the registry (`mpiguide list --csv`; P2P_OPS: p2ptest's list of
# the point-to-point operations) and compares it with ROWS_FILE (CTest diff.rows); --write
# rewrites ROWS_FILE instead (after adding or renaming a row).
set -eu
mg=$1 p2p=$2 file=$3
nbc=/dev/null # NBC_OPS: nbctest's list of the non-blocking collectives
if [ $# -ge 4 ] && [ "$4" != --write ]; then nbc=$4; shift; fi
want=$(mktemp)
trap 'rm -f "$want"' EXIT
{
  echo "# Every mock-up of the registry and the differential tests that force it (tests/diff): difftest"
  echo "# forces each row of a collective in every case of diff.<coll>.np<N> against the library's own"
  echo "# result (measure-only rows: only that they fall back); p2ptest each row of a point-to-point"
  echo "# operation in diff.p2p.<op>.np<N> (measure-only rows as the benchmark runs them). Generated:"
  echo "# tests/diff/rows.sh (CTest diff.rows fails when this file and the registry differ)."
  "$mg" list --csv | awk -F, -v p2p="$p2p" -v nbc="$nbc" '
    BEGIN { while ((getline line < p2p) > 0) { split(line, f, " "); op[f[1]] = 1 }
            while ((getline line < nbc) > 0) { split(line, f, " "); nb[f[1]] = 1 } }
    NR > 1 && $2 != "default" {
      t = (($1 in op) ? "diff.p2p." $1 : "diff." $1) ".np<N>"
      if ($1 in nb) t = "diff.nbc.np<N>"
      if (($1 in nb) && $0 ~ /progress-thread/) t = "diff.nbc.np<N> (falls back), diff.nbc.sched.np<N> (MPIGUIDE_PROGRESS=thread)"
      if ($1 ~ /^neighbor_/) t = "diff.neighbor.np<N> (nbrtest)"
      if ($1 ~ /^ineighbor_/) t = "diff.neighbor.nonblocking.np2 (nbrtest --nonblocking)"
      if ($1 ~ /^ineighbor_/ && $0 ~ /progress-thread/) t = t ", diff.neighbor.nonblocking.sched.np2 (MPIGUIDE_PROGRESS=thread)"
      if ($2 ~ /_as_reranked$/) t = "diff.rerank.np<N> (measure only: reranktest)"
      if ($2 ~ /_as_persistent$/) t = "diff.persist.np<N> (measure only: persisttest)"
      if ($2 ~ /_as_(hier|lane)$/) t = t " (one node), diff.hier.k<K>.np<N> and cluster.* (several nodes)"
      printf "%-48s %s\n", $2, t
    }'
} > "$want"
if [ "${4:-}" = --write ]; then
  cp "$want" "$file"
  echo "rows.sh: wrote $file ($(grep -vc '^#' "$file") rows)"
  exit 0
fi
if ! diff -u "$file" "$want"; then
  echo "FAIL: $file differs from the registry (above: - the file, + the registry); after adding or renaming a row run" >&2
  echo "  sh tests/diff/rows.sh $mg $p2p $file --write" >&2
  exit 1
fi
echo "diff.rows: $(grep -vc '^#' "$file") rows, each with its differential tests"

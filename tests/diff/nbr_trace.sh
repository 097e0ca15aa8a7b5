#!/usr/bin/env bash
# The neighbourhood collectives' non-blocking and persistent forms go through libmpiguide's registry
# (MG_INEIGHBOR_OPS; docs/library.md, "Neighbourhood collectives"; docs/trace.md, format 4): nbrtest
# --nonblocking (every row forced, results equal to the library's blocking call's) under a timed
# trace, then
#   - ineighbor_<op> rows of class tuned, with calls, for all five operations, the default and a
#     mock-up among them;
#   - the MPI_Wait rows name their posts (posted_by MPI_Ineighbor_<op>, and the persistent form's
#     MPI_Neighbor_<op>_init, Open MPI's MPIX_Neighbor_<op>_init, where the build has them), no
#     completion row without its post.
# Usage: nbr_trace.sh NP. Environment: MG_NBRTEST, MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_WORKDIR.
set -uo pipefail
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
np=${1:?NP}
: "${MG_NBRTEST:?}" "${MG_MPIEXEC:?}" "${MG_WORKDIR:?}"
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
# shellcheck disable=SC2086
env MPIGUIDE_TRACE="$PWD/t.csv" MPIGUIDE_TRACE_TIME=1 timeout 120 \
  "$MG_MPIEXEC" -n "$np" ${MG_MPIEXEC_FLAGS:-} "$MG_NBRTEST" --nonblocking >run.out 2>&1
rc=$?
cat run.out
((rc == 0)) && grep -q '^nbrtest: OK' run.out && ok "nbrtest --nonblocking: the library's results" ||
  fail "nbrtest --nonblocking: exit $rc"
grep -q '^#@mpiguide_trace=4$' t.csv && grep -q '^#@timed=1$' t.csv && ok "format 4, timed" || fail "no timed format-4 trace"
rows() { awk -F, -v f="$1" -v k="$2" '!/^#/ && $1 == f && $17 == k && $4 > 0 {n++} END {print n + 0}' t.csv; }
posted() { awk -F, -v f="$1" -v p="$2" '!/^#/ && $1 == f && $17 == "completion" && $18 == p {n++} END {print n + 0}' t.csv; }
pers=""
for op in allgather allgatherv alltoall alltoallv alltoallw; do
  f=MPI_Ineighbor_$op
  (($(rows "ineighbor_$op" tuned) > 0)) && ok "ineighbor_$op: rows of class tuned" || fail "ineighbor_$op: no row of class tuned"
  awk -F, -v o="ineighbor_$op" '!/^#/ && $1 == o && $3 != "default" && $4 > 0 {f = 1} END {exit !f}' t.csv &&
    ok "ineighbor_$op: a mock-up ran" || fail "ineighbor_$op: only the default in the trace"
  (($(posted MPI_Wait "$f") > 0)) && ok "MPI_Wait attributed to $f" || fail "MPI_Wait: no row posted by $f"
  for g in "MPI_Neighbor_${op}_init" "MPIX_Neighbor_${op}_init"; do
    if (($(posted MPI_Wait "$g") > 0)); then
      pers=$g
      ok "MPI_Wait attributed to $g"
    fi
  done
done
[[ -n $pers ]] && ok "the persistent forms traced ($pers ...)" || echo "note: no persistent neighbourhood collective in this build"
awk -F, '!/^#/ && $17 == "completion" && $18 == "" && $4 > 0 {bad = 1} END {exit bad}' t.csv &&
  ok "every completion row names its post" || fail "a completion row without its post"
finish

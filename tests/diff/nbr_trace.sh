#!/usr/bin/env bash
# The neighbourhood collectives' non-blocking and persistent forms pass through libmpiguide with
# trace accounting (docs/library.md, "Neighbourhood collectives"; docs/trace.md, format 4): nbrtest
# --nonblocking (results equal to the library's blocking call's) under a timed trace, then
#   - MPI_Ineighbor_<op> rows of class collective, with calls, for all five operations;
#   - the persistent form's rows (MPI_Neighbor_<op>_init, Open MPI's MPIX_Neighbor_<op>_init)
#     where the build has them;
#   - the MPI_Wait rows name those posts (posted_by), no completion row without its post.
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
  (($(rows "$f" collective) > 0)) && ok "$f: rows of class collective" || fail "$f: no row of class collective"
  (($(posted MPI_Wait "$f") > 0)) && ok "MPI_Wait attributed to $f" || fail "MPI_Wait: no row posted by $f"
  for g in "MPI_Neighbor_${op}_init" "MPIX_Neighbor_${op}_init"; do
    if (($(rows "$g" collective) > 0)); then
      pers=$g
      ok "$g: rows of class collective"
      (($(posted MPI_Wait "$g") > 0)) && ok "MPI_Wait attributed to $g" || fail "MPI_Wait: no row posted by $g"
    fi
  done
done
[[ -n $pers ]] && ok "the persistent forms traced ($pers ...)" || echo "note: no persistent neighbourhood collective in this build"
awk -F, '!/^#/ && $17 == "completion" && $18 == "" && $4 > 0 {bad = 1} END {exit bad}' t.csv &&
  ok "every completion row names its post" || fail "a completion row without its post"
finish

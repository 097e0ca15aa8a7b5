#!/usr/bin/env bash
# `mpiguide bench --overlap` under mpiexec, its file checked by mg_unit_overlap (tests/bench/CMakeLists.txt):
#   run_overlap.sh NP NCELLS TESTS NREP -- [bench options...]
# The options get --overlap --tests TESTS --nrep NREP -o $MG_WORKDIR/overlap.csv; the file must hold
# NCELLS (collective, size) cells with NREP measurements of every variant (unit_overlap.c).
# Environment: MG_MPIEXEC, MG_MPIEXEC_FLAGS, MG_CLI, MG_OVL_CHECK, MG_WORKDIR (emptied first).
set -u
np=$1 ncells=$2 tests=$3 nrep=$4
shift 5
work=$MG_WORKDIR
rm -rf "$work" && mkdir -p "$work"
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
read -r -a flags <<<"${MG_MPIEXEC_FLAGS:-}"
timeout -k 10 240 "$MG_MPIEXEC" -n "$np" "${flags[@]}" "$MG_CLI" bench --overlap --tests "$tests" --nrep "$nrep" \
  --no-progress -o "$work/overlap.csv" "$@" >"$work/stdout" 2>"$work/stderr"
rc=$?
cat "$work/stdout" "$work/stderr"
((rc == 0)) || die "exit code $rc, expected 0"
grep -q '^collective *bytes *nrep *t_pure\[us\] *t_cpu\[us\]' "$work/stdout" || die "no summary table"
"$MG_OVL_CHECK" "$work/overlap.csv" "$ncells" "$tests" "$nrep"

#!/usr/bin/env bash
# MPICH's own collective tests (test/mpi/coll of MPICH 4.0.2, from Debian's source archive,
# unmodified) run against libmpiguide with every applicable row forced: an independent check of
# the rows, written by the library's authors (issue 48, item 4).
#
#   mpich_tests.sh SET NP     SET: nbc, persistent, neighbor or blocking; NP: the most ranks a
#                             program runs on (its testlist count, capped at NP)
#
# SET chooses the programs by name from the suite's own list (test/mpi/coll/testlist.in):
#   nbc         nonblocking*, iallred, ibarrier and the suite's blocking tests rebuilt on the
#               non-blocking collectives (Makefile.am's -DUSE_MTEST_NBC targets: nballtoall1,
#               nbcoll2, nbredscat, nbredscat3)
#   persistent  p_* (MPI-4.0's *_init; on Open MPI through its MPIX_*_init, mpi-ext.h)
#   neighbor    neighb_*, ring_neighbor_alltoall, p_neighb_*
#   blocking    every other program on an intra-communicator
# Intercommunicator programs (ic*, nbic*, *inter) are left out: libmpiguide passes those through.
#
# Per program: (1) plain, without libmpiguide: a program the library fails on its own is named
# and set aside (MPICH 4.0.2's persistent Allgather/Gather/Scatter_init, docs/library.md), not
# counted against libmpiguide; (2) preloaded, nothing forced, with a trace: the operations it
# calls; (3) per operation called and per row of it that libmpiguide may run (mpiguide list:
# not default, not measure-only), the program with MPIGUIDE_ALG=op=row and a trace. Every run must
# exit 0 and print the suite's " No Errors"; a forced run's trace must show its row or a fallback
# with its reason (then the row did not run there: counted, named in the summary). The test fails
# when a run fails, or when no forced run of the set ran its row (a vacuous pass).
#
# The source: mpich_4.0.2.orig.tar.xz from deb.debian.org (Debian's pool), its SHA-256 checked
# against Debian's mpich_4.0.2-3.dsc; kept in MG_MPICH_CACHE (default: the build tree's
# tests/apps/mpich-src) and fetched once (flock). No network and no cached copy: skipped (77).
#
# Configuration (environment, set by tests/apps/CMakeLists.txt): MG_FLAVOR MG_MPIEXEC
# MG_MPIEXEC_FLAGS MG_LIB MG_WORKDIR MG_TIMEOUT (tests/common/launch.sh), MG_CLI, MG_MPICC,
# MG_MPICH_CACHE; MG_PROGRESS=1: the forced runs with MPIGUIDE_PROGRESS=thread, so that the schedule
# rows (restriction progress-thread, src/algs/sched.c) run instead of falling back (no_progress).
set -u

SET=${1:?usage: mpich_tests.sh nbc|persistent|neighbor|blocking NP}
NP=${2:?NP}
MODE=$SET
: "${MG_FLAVOR:?}" "${MG_MPIEXEC:?}" "${MG_LIB:?}" "${MG_WORKDIR:?}" "${MG_CLI:?}" "${MG_MPICC:?}"
MG_MPIEXEC_FLAGS=${MG_MPIEXEC_FLAGS:-}
MG_TIMEOUT=${MG_TIMEOUT:-60}
unset MPIGUIDE_ALG MPIGUIDE_TRACE MPIGUIDE_TRACE_TIME MPIGUIDE_SCRATCH_MAX MPIGUIDE_PROFILE LD_PRELOAD
MG_HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
rm -rf "$MG_WORKDIR" && mkdir -p "$MG_WORKDIR" || exit 1
cd "$MG_WORKDIR" || exit 1
MG_SCRIPT=mpich_tests.sh
# shellcheck source=../common/launch.sh
source "$MG_HERE/../common/launch.sh"

TARBALL=mpich_4.0.2.orig.tar.xz
SHA256=b27039f964afeb6b8a3e009c56b441cbe368c26d6d6476ad3bb7190996875860 # Debian's mpich_4.0.2-3.dsc
URL=http://deb.debian.org/debian/pool/main/m/mpich/$TARBALL
CACHE=${MG_MPICH_CACHE:-$MG_WORKDIR/../mpich-src}
mkdir -p "$CACHE" || die "cannot make $CACHE"

# ---- the source, once ----
fetch() {
  [[ -d $CACHE/mpich-4.0.2/test/mpi/coll ]] && return 0
  if [[ ! -s $CACHE/$TARBALL ]]; then
    curl -sSf --max-time 300 -o "$CACHE/$TARBALL.part" "$URL" 2>"$CACHE/fetch.err" &&
      mv "$CACHE/$TARBALL.part" "$CACHE/$TARBALL" || return 1
  fi
  echo "$SHA256  $CACHE/$TARBALL" | sha256sum -c --quiet - >/dev/null 2>&1 ||
    { rm -f "$CACHE/$TARBALL"; echo "checksum" >"$CACHE/fetch.err"; return 1; }
  tar -C "$CACHE" -xJf "$CACHE/$TARBALL" mpich-4.0.2/test/mpi/coll mpich-4.0.2/test/mpi/util \
    mpich-4.0.2/test/mpi/include || return 1
}
exec 9>"$CACHE/.lock"
flock 9
if ! fetch; then
  echo "SKIPPED: MPICH's test programs could not be had from $URL ($(head -c 200 "$CACHE/fetch.err" 2>/dev/null))"
  exit 77
fi
flock -u 9
T=$CACHE/mpich-4.0.2/test/mpi

# ---- build: the suite's utility objects and the set's programs ----
# mpitestconf.h stands for what the suite's configure would find here (Debian 12, either MPI).
cat >mpitestconf.h <<'EOF'
#define HAVE_UNISTD_H 1
#define HAVE_STRING_H 1
#define HAVE_STDARG_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_MPI_WIN_CREATE 1
#define HAVE_MPI_INIT_THREAD 1
#define HAVE_STDINT_H 1
#define HAVE_LONG_DOUBLE 1
#define HAVE_LONG_LONG 1
#define HAVE__BOOL 1
#define HAVE_FLOAT__COMPLEX 1
#define TEST_NEIGHB_COLL 1
#define THREAD_PACKAGE_NAME THREAD_PACKAGE_NONE
EOF
# Open MPI 4.1 has the persistent collectives as MPIX_<coll>_init (mpi-ext.h), same arguments.
{
  echo '#include <mpi.h>'
  if [[ $MG_FLAVOR == openmpi ]]; then
    echo '#include <mpi-ext.h>'
    for c in Allgather Allgatherv Allreduce Alltoall Alltoallv Alltoallw Barrier Bcast Exscan Gather \
      Gatherv Reduce Reduce_scatter Reduce_scatter_block Scan Scatter Scatterv Neighbor_allgather \
      Neighbor_allgatherv Neighbor_alltoall Neighbor_alltoallv Neighbor_alltoallw; do
      echo "#define MPI_${c}_init MPIX_${c}_init"
    done
  fi
} >mgshim.h
CFLAGS=(-O1 -w -I. -I"$T/include" -include mgshim.h)
for u in mtest mtest_common mtest_thread; do
  "$MG_MPICC" "${CFLAGS[@]}" -c "$T/util/$u.c" -o "$u.o" 2>build.err || die "cannot build the suite's $u.c: $(head -3 build.err)"
done

# The set's programs: NAME NP ARGS from testlist.in (keys other than arg= are the suite's own).
in_set() {
  local n=$1
  case $n in ic* | nbic* | *inter | @*) return 1 ;; esac
  case $SET in
  nbc) [[ $n == nonblocking* || $n == iallred || $n == ibarrier || $n == nb* ]] ;;
  persistent) [[ $n == p_* && $n != p_neighb_* ]] ;;
  neighbor) [[ $n == neighb_* || $n == ring_neighbor_* || $n == p_neighb_* ]] ;;
  blocking) [[ $n != nonblocking* && $n != iallred && $n != ibarrier && $n != nb* && $n != p_* && $n != neighb_* && $n != ring_neighbor_* ]] ;;
  *) die "unknown set '$SET' (nbc, persistent, neighbor, blocking)" ;;
  esac
}
# source_of NAME: the .c file and the extra flags (Makefile.am's NAME_SOURCES, NAME_CPPFLAGS)
source_of() {
  local n=$1 src cpp
  src=$(sed -n "s/^$n""_SOURCES *= *\([a-z0-9_]*\.c\).*/\1/p" "$T/coll/Makefile.am" | head -1)
  cpp=$(sed -n "s/^$n""_CPPFLAGS *= *\(-D[A-Z_]*\).*/\1/p" "$T/coll/Makefile.am" | head -1)
  echo "${src:-$n.c} $cpp"
}
declare -a PROGS=() PNP=() PARGS=()
declare -A BUILT=() SEEN=()
while read -r name np rest; do
  [[ -z $name || $name == \#* ]] && continue
  in_set "$name" || continue
  args=()
  for kv in $rest; do [[ $kv == arg=* ]] && args+=("${kv#arg=}"); done
  if [[ -z ${BUILT[$name]:-} ]]; then
    read -r src cpp <<<"$(source_of "$name")"
    [[ -f $T/coll/$src ]] || { fail "$name: its source $src is not in the suite"; continue; }
    if "$MG_MPICC" "${CFLAGS[@]}" $cpp "$T/coll/$src" mtest.o mtest_common.o mtest_thread.o -lm -o "$name" 2>"$name.build.err"; then
      BUILT[$name]=1
    else
      BUILT[$name]=0
      ok "$name: not built with this MPI ($(grep -m1 error "$name.build.err" | cut -c1-160)); left out"
    fi
  fi
  [[ ${BUILT[$name]} == 1 ]] || continue
  ((np > NP)) && np=$NP
  key="$name $np ${args[*]}"
  [[ -n ${SEEN[$key]:-} ]] && continue # listed at several counts, capped to one
  SEEN[$key]=1
  PROGS+=("$name") PNP+=("$np") PARGS+=("${args[*]}")
done <"$T/coll/testlist.in"
((${#PROGS[@]})) || die "no program of set $SET built"
echo "set $SET: ${#PROGS[@]} runs of $(printf '%s\n' "${PROGS[@]}" | sort -u | wc -l) programs"

# The rows libmpiguide may run, per operation: mpiguide list --csv, not default, not measure-only.
declare -A ROWS=()
while IFS=$'\t' read -r coll alg; do ROWS[$coll]+="$alg "; done < <(applicable_rows "$MG_CLI")

passed() { # NAME: the last run exited 0 and rank 0 printed " No Errors"
  ((RC == 0)) && grep -q "^ No Errors" "$1.out"
}
# trace_ops FILE: the operations a trace saw; trace_ran FILE OP ALG: calls of OP that ran ALG
trace_ops() { grep -v '^#' "$1" 2>/dev/null | awk -F, 'NR > 1 && $1 != "" {print $1}' | sort -u; }
trace_ran() { grep -v '^#' "$1" 2>/dev/null | awk -F, -v o="$2" -v a="$3" 'NR > 1 && $1 == o && $3 == a {n += $4} END {print n + 0}'; }
trace_why() { grep -v '^#' "$1" 2>/dev/null | awk -F, -v o="$2" 'NR > 1 && $1 == o && $6 != "" {print $6}' | sort -u | tr '\n' ' '; }

# The operations whose rows a set forces: its own kind (the blocking set: all it calls, p2p included)
case $SET in
nbc | persistent) OPS='^i' ;;
neighbor) OPS='^i?neighbor' ;;
*) OPS='.' ;;
esac
NFORCED=0 NRAN=0 NLIBFAIL=0
declare -a NOTRUN=() LIBFAIL=()
for i in "${!PROGS[@]}"; do
  p=${PROGS[i]} np=${PNP[i]}
  read -r -a a <<<"${PARGS[i]}"
  tag=$p.np$np${a[0]:+.$i}
  cmd_start; cmd_ctx "$np" -- "./$p" "${a[@]}"; run "$tag.plain"
  if ! passed "$tag.plain"; then
    NLIBFAIL=$((NLIBFAIL + 1)) LIBFAIL+=("$tag")
    ok "$tag: fails without libmpiguide at $np rank(s) (exit $RC; $(grep -m1 -i "error\|fail" "$tag.plain.out" "$tag.plain.err" | cut -c1-120)): the library's own, set aside"
    continue
  fi
  cmd_start; cmd_ctx "$np" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_TRACE=$PWD/$tag.pre.csv" -- "./$p" "${a[@]}"; run "$tag.pre"
  if passed "$tag.pre"; then ok "$tag: preloaded, nothing forced"; else fail "$tag: preloaded, nothing forced: exit $RC or no ' No Errors'"; continue; fi
  for op in $(trace_ops "$tag.pre.csv"); do
    [[ $op =~ $OPS ]] || continue
    for alg in ${ROWS[$op]:-}; do
      NFORCED=$((NFORCED + 1))
      cmd_start
      cmd_ctx "$np" "LD_PRELOAD=$MG_LIB" "MPIGUIDE_ALG=$op=$alg" "MPIGUIDE_TRACE=$PWD/$tag.$alg.csv" \
        ${MG_PROGRESS:+MPIGUIDE_PROGRESS=thread} -- "./$p" "${a[@]}"
      run "$tag.$alg"
      if ! passed "$tag.$alg"; then fail "$tag: $alg forced: exit $RC or no ' No Errors' ($(grep -v '^ No Errors' "$tag.$alg.out" "$tag.$alg.err" | head -2 | cut -c1-200))"; continue; fi
      n=$(trace_ran "$tag.$alg.csv" "$op" "$alg")
      if ((n > 0)); then NRAN=$((NRAN + 1)); ok "$tag: $alg forced: passed, ran in $n call(s)"
      else NOTRUN+=("$tag:$alg (${op}: $(trace_why "$tag.$alg.csv" "$op"))"); ok "$tag: $alg forced: passed, never ran (fallback: $(trace_why "$tag.$alg.csv" "$op"))"; fi
    done
  done
done
echo "set $SET on $MG_FLAVOR: $NFORCED forced runs, $NRAN ran their row; ${#NOTRUN[@]} fell back in every call; $NLIBFAIL program run(s) fail without libmpiguide${LIBFAIL[0]:+: ${LIBFAIL[*]}}"
for x in "${NOTRUN[@]}"; do echo "  fell back: $x"; done
if ((NRAN > 0)); then ok "$NRAN forced run(s) ran their row"; else fail "no forced run ran its row: the set checked nothing"; fi
finish

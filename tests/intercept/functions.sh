#!/usr/bin/env bash
# The one list of MPI functions (src/lib/mpi_functions.txt) against the MPI library this build
# runs (nm -D; docs/trace.md, "Every MPI call"):
#   - every function the library exports (MPI_*, MPIX_*: T or W) is in the list: a function the
#     library has and the list lacks fails here, named;
#   - every listed function that is no `none:` row and that the library exports is exported by
#     libmpiguide too (its wrapper was generated and compiled, or it is one of its own);
#   - the comparison itself fails on a list without MPI_Waitall (the check can fail).
# Environment: MG_LIST (the list), MG_LIB (libmpiguide.so), MG_MPI_FLAVOR (openmpi, mpich),
# MG_FORTRAN_APP (a Fortran MPI program of this build: its Fortran library), MG_WORKDIR.
set -uo pipefail
# shellcheck source=../common/assert.sh
source "$(dirname "$0")/../common/assert.sh"
mkdir -p "$MG_WORKDIR" && cd "$MG_WORKDIR" || exit 1
mpilib=$(ldd "$MG_LIB" | awk '$1 ~ /^libmpi(ch)?\.so/ {print $3; exit}')
[[ -f $mpilib ]] || die "no MPI library among libmpiguide's dependencies (ldd $MG_LIB)"
ok "the MPI library: $mpilib"
nm -D --defined-only "$mpilib" | awk '($2 == "T" || $2 == "W") && $3 ~ /^MPIX?_/ {print $3}' | sort -u >exported.txt
# (not the Fortran manglings MPI_ALLREDUCE of fortran.c: a C function's name has a lower-case letter)
nm -D --defined-only "$MG_LIB" | awk '($2 == "T" || $2 == "W") && $3 ~ /^MPIX?_/ && $3 ~ /[a-z]/ {print $3}' |
  sort -u >ours.txt
names() { grep -v '^#' "$1" | awk 'NF {print $1}' | sort -u; }
# the exported functions the list lacks
lacks() { comm -23 exported.txt <(names "$1"); }
names "$MG_LIST" >listed.txt
[[ $(wc -l <exported.txt) -gt 300 ]] && ok "the library exports $(wc -l <exported.txt) MPI functions" ||
  fail "only $(wc -l <exported.txt) MPI functions exported: not an MPI library?"
missing=$(lacks "$MG_LIST")
[[ -z $missing ]] && ok "every one is in the list ($(wc -l <listed.txt) rows)" ||
  fail "exported by $mpilib, not in $MG_LIST: $(tr '\n' ' ' <<<"$missing")"
# the wrapped ones: listed, no none: row, exported by the library
# (AVAIL 3.1 and own everywhere, ompi on Open MPI, 4.0 and mpich on MPICH 4.0)
case $MG_MPI_FLAVOR in openmpi) mine='^(3\.1|own|ompi)$' ;; *) mine='^(3\.1|own|4\.0|mpich)$' ;; esac
grep -v '^#' "$MG_LIST" | awk -v m="$mine" 'NF && $3 ~ m {print $1}' | sort -u | comm -12 - exported.txt >wrapped.txt
unwrapped=$(comm -23 wrapped.txt ours.txt)
[[ -z $unwrapped ]] && ok "libmpiguide exports all $(wc -l <wrapped.txt) of them that the library has" ||
  fail "listed and exported by the library, not by libmpiguide: $(tr '\n' ' ' <<<"$unwrapped")"
# libmpiguide exports no MPI function the library has not (a wrapper of nothing)
extra=$(comm -13 exported.txt ours.txt)
[[ -z $extra ]] && ok "and no MPI function the library lacks" || fail "libmpiguide exports what $mpilib does not: $extra"
# the Fortran bindings (mpif.h, `use mpi`) of every listed function but libmpiguide's own: each one
# the Fortran library exports is defined by libmpiguide too (Open MPI's ompi_<name>_f, whose
# bindings call PMPI_ themselves; MPICH's mpi_<name>_, to note the program's site)
flib=$(ldd "$MG_FORTRAN_APP" | awk '$1 ~ /^lib(mpi_mpifh|mpichfort)\.so/ {print $3; exit}')
if [[ ! -f $flib ]]; then
  fail "no Fortran MPI library among the dependencies of $MG_FORTRAN_APP"
else
  case $MG_MPI_FLAVOR in openmpi) pre=ompi_ suf=_f ;; *) pre=mpi_ suf=_ ;; esac
  grep -v '^#' "$MG_LIST" | awk -v m="$mine" 'NF && $3 ~ m && $3 != "own" && $1 ~ /^MPI_/ {print $1}' |
    while read -r fn; do low=${fn#MPI_}; echo "$pre${low,,}$suf $fn"; done | sort >fortran_want.txt
  nm -D --defined-only "$flib" | awk '{print $3}' | sort -u >fortran_lib.txt
  nm -D --defined-only "$MG_LIB" | awk '{print $3}' | sort -u >fortran_ours.txt
  join fortran_want.txt fortran_lib.txt | awk '{print $1}' >fortran_has.txt
  nmiss=$(comm -23 fortran_has.txt fortran_ours.txt)
  [[ $(wc -l <fortran_has.txt) -gt 250 && -z $nmiss ]] &&
    ok "libmpiguide defines all $(wc -l <fortran_has.txt) Fortran bindings of $flib for listed functions" ||
    fail "Fortran bindings of $flib not defined by libmpiguide ($(wc -l <fortran_has.txt) expected): $(tr '\n' ' ' <<<"$nmiss")"
fi
# the control: a list without MPI_Waitall must fail the first check, naming it
grep -v '^MPI_Waitall ' "$MG_LIST" >cut.txt
[[ $(lacks cut.txt) == "MPI_Waitall" ]] && ok "a list without MPI_Waitall is found lacking it" ||
  fail "the check missed MPI_Waitall's row removed: '$(lacks cut.txt)'"
finish
